// `npm run storage:migrate -- --from local --to s3`: copies every stored file the database refers to
// from one store to another (apps/api/src/storage-migrate.ts, docs/storage.md). A plain node process
// with tsx registered, as `npm start` runs the API.
import { runTypeScript } from './run-ts.mjs';

await runTypeScript('apps/api/src/storage-migrate.ts');
