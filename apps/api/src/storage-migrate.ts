// `npm run storage:migrate -- --from local --to s3`: copies the files the database refers to from one
// store to another (lib/storage-migrate.ts; docs/storage.md). Both stores are built from this
// environment: STORAGE_DIR/DATA_DIR for local, DATABASE_URL (or the embedded database) for postgres,
// S3_* for s3. STORAGE itself is not read: switch it once the copy is done.
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { migrateDatabase } from './db/migrate.ts';
import { createStorage } from './lib/storage.ts';
import { migrateStorage, MigrateUsageError, parseMigrateArgs } from './lib/storage-migrate.ts';

const USAGE = 'usage: npm run storage:migrate -- --from local|postgres|s3 --to local|postgres|s3';
const MB = 1024 * 1024;
/** An operator's command: its report goes to stdout (problems to stderr). */
const print = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  let stores;
  let config;
  try {
    stores = parseMigrateArgs(process.argv.slice(2));
    config = loadConfig();
  } catch (error) {
    if (error instanceof MigrateUsageError || error instanceof ConfigError) {
      console.error(`${error.message}\n${USAGE}`);
      return 2;
    }
    throw error;
  }
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
    poolSize: 4,
  });
  try {
    // The postgres store's tables come with the migrations (as when the API starts).
    await migrateDatabase(database);
    const from = createStorage({ ...config, STORAGE: stores.from }, database);
    const to = createStorage({ ...config, STORAGE: stores.to }, database);
    print(`Copying the files the database refers to from ${stores.from} to ${stores.to}…`);
    let shown = Date.now();
    const counts = await migrateStorage({
      from,
      to,
      database,
      onProgress(done, total) {
        if (Date.now() - shown < 5000 && done < total) return;
        shown = Date.now();
        print(`  ${done} of ${total}`);
      },
    });
    await Promise.all([from.close(), to.close()]);
    print(
      `${counts.referenced} files referenced: ${counts.copied} copied (${(counts.copiedBytes / MB).toFixed(1)} MB), ` +
        `${counts.present} already in ${stores.to}, ${counts.missing.length} missing in ${stores.from}, ` +
        `${counts.failed.length} failed.`,
    );
    for (const key of counts.missing.slice(0, 20)) console.warn(`  missing in ${stores.from}: ${key}`);
    for (const { key, error } of counts.failed.slice(0, 20)) console.error(`  failed: ${key}: ${error}`);
    if (counts.failed.length > 0) console.error('Some files were not copied: run the command again.');
    return counts.failed.length > 0 ? 1 : 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
