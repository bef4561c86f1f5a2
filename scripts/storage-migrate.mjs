// `npm run storage:migrate -- --from local --to s3`: copies every stored file the database refers to
// from one store to another (apps/api/src/storage-migrate.ts, docs/storage.md). A plain node process
// with tsx registered, as `npm start` runs the API.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { register } = await import('tsx/esm/api');
register();
await import(path.join(root, 'apps/api/src/storage-migrate.ts'));
