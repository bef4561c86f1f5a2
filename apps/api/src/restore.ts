// `npm run restore -- --from DIR`: a backup of `npm run backup` into an empty database and an empty file
// store, verified before and after (lib/restore.ts; docs/deploy.md, "Backups"). The environment names
// the target as the API's does: DATABASE_URL (or DATA_DIR for the embedded database), STORAGE and its
// variables.
import { ConfigError, loadConfig } from './config.ts';
import { BackupRefusal, EXIT } from './lib/backup-manifest.ts';
import { BackupUsageError } from './lib/backup.ts';
import { parseRestoreArgs, restoreBackup } from './lib/restore.ts';

const USAGE = 'usage: npm run restore -- --from DIR [--pg-bin /usr/lib/postgresql/16/bin]';
const print = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  let args;
  let config;
  try {
    args = parseRestoreArgs(process.argv.slice(2));
    config = loadConfig();
  } catch (error) {
    if (error instanceof BackupUsageError || error instanceof ConfigError) {
      console.error(`${error.message}\n${USAGE}`);
      return EXIT.usage;
    }
    throw error;
  }
  try {
    const result = await restoreBackup({ ...args, config, log: print });
    print(`Done: restored ${args.from} (schema at ${result.migration}).`);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof BackupRefusal) {
      console.error(error.message);
      return error.exitCode;
    }
    throw error;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(EXIT.failed);
  },
);
