// `npm run kernels`: a workbook kernel host (docs/workbooks.md, "Kernels"). The TypeScript runs in this
// very process, so SIGTERM from a supervisor reaches its graceful shutdown directly.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { register } = await import('tsx/esm/api');
register();
await import(path.join(root, 'apps/api/src/kernels-main.ts'));
