// `npm run restore -- --from DIR`: a backup into an empty database and file store, verified before and
// after (apps/api/src/restore.ts, docs/deploy.md "Backups").
import { runTypeScript } from './run-ts.mjs';

await runTypeScript('apps/api/src/restore.ts');
