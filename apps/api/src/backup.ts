// `npm run backup -- --to DIR`: the database (pg_dump in one snapshot, or the embedded database's data
// directory), the file store's objects and a manifest of versions, row counts and checksums
// (lib/backup.ts; docs/deploy.md, "Backups"). The environment is the API's: DATABASE_URL (or DATA_DIR
// for the embedded database, with the API stopped), STORAGE and its variables, JWT_SECRET.
import { parseBackupArgs, runOperatorCommand } from './lib/backup-args.ts';
import { createBackup } from './lib/backup.ts';

runOperatorCommand(
  'usage: npm run backup -- --to DIR [--pg-bin /usr/lib/postgresql/16/bin] [--copy-s3]',
  parseBackupArgs,
  async (args, config, print) => {
    const { manifest, missing } = await createBackup({ ...args, config, log: print });
    const deleted = missing.filter((file) => file.reason === 'deleted-during-backup').length;
    const lacking = missing.length - deleted;
    if (deleted > 0) {
      console.warn(`${deleted} files were deleted during the backup, after their rows (listed above).`);
    }
    if (lacking > 0) {
      console.warn(
        `Warning: ${lacking} files the database names are not in the store (listed above): the site lacks ` +
          'them too. The backup holds everything else; `npm run storage:migrate` lists such files as well.',
      );
    }
    print(`Done: ${args.to} (manifest.json, schema at ${manifest.schema.migration}).`);
  },
);
