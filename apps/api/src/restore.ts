// `npm run restore -- --from DIR`: a backup of `npm run backup` into an empty database and an empty file
// store, verified before and after (lib/restore.ts; docs/deploy.md, "Backups"). The environment names
// the target as the API's does: DATABASE_URL (or DATA_DIR for the embedded database), STORAGE and its
// variables.
import { parseRestoreArgs, runOperatorCommand } from './lib/backup-args.ts';
import { restoreBackup } from './lib/restore.ts';

runOperatorCommand(
  'usage: npm run restore -- --from DIR [--pg-bin /usr/lib/postgresql/16/bin]',
  parseRestoreArgs,
  async (args, config, print) => {
    const result = await restoreBackup({ ...args, config, log: print });
    print(`Done: restored ${args.from} (schema at ${result.migration}).`);
  },
);
