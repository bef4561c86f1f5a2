// `npm run bench:box`: how fast this shared box is now (bench/box-speed.ts), printed beside suite
// timings and bench figures so that runs on different hours can be compared.
import { boxSpeedLine, helloCeiling } from './box-speed.ts';

console.log(boxSpeedLine('now', await helloCeiling()));
