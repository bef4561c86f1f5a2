// `npm run backup -- --to DIR`: a consistent backup of the database and the file store with a manifest
// of versions, row counts and checksums (apps/api/src/backup.ts, docs/deploy.md "Backups"). A plain node
// process with tsx registered, as `npm start` runs the API.
import { runTypeScript } from './run-ts.mjs';

await runTypeScript('apps/api/src/backup.ts');
