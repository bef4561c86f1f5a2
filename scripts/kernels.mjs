// `npm run kernels`: a workbook kernel host (docs/workbooks.md, "Kernels"). The TypeScript runs in this
// very process, so SIGTERM from a supervisor reaches its graceful shutdown directly.
import { runTypeScript } from './run-ts.mjs';

await runTypeScript('apps/api/src/kernels-main.ts');
