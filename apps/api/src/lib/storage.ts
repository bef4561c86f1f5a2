/**
 * The API's file storage: the stores of `@kadai/storage` (`STORAGE=local|postgres|s3`, docs/storage.md),
 * built from the API's configuration, and the hourly job that clears what interrupted writes left.
 */
import {
  createStorage as createStore,
  localStorageRoot,
  type StorageDependencies,
  type StorageSql,
  type Storage,
} from '@kadai/storage';
import type { Config } from '../config.ts';
import type { AppContext } from './context.ts';

export {
  assertStorageKey,
  LocalStorage,
  newStorageKey,
  StorageLimitError,
  StorageNotFoundError,
  type ByteRange,
  type Storage,
  type StorageSql,
} from '@kadai/storage';

export type StorageConfig = Pick<
  Config,
  | 'STORAGE'
  | 'STORAGE_DIR'
  | 'dataDir'
  | 'S3_BUCKET'
  | 'S3_REGION'
  | 'S3_ENDPOINT'
  | 'S3_FORCE_PATH_STYLE'
  | 'S3_PREFIX'
>;

/** The folder of the `local` store: STORAGE_DIR, else DATA_DIR/files. */
export function storageRoot(config: Pick<Config, 'STORAGE_DIR' | 'dataDir'>): string {
  return localStorageRoot({ STORAGE_DIR: config.STORAGE_DIR, DATA_DIR: config.dataDir });
}

/** The store the configuration asks for; `database` holds the files of `STORAGE=postgres`. */
export function createStorage(
  config: StorageConfig,
  database: StorageSql,
  options: Pick<StorageDependencies, 's3Credentials'> = {},
): Storage {
  return createStore(
    { ...config, DATA_DIR: config.dataDir },
    { sql: database, s3Credentials: options.s3Credentials },
  );
}

export const STORAGE_HOUSEKEEPING_QUEUE = 'storage-housekeeping';
/** An incomplete write this old was cut short by a crash (an upload that is still arriving is younger). */
export const ABANDONED_WRITE_MS = 24 * 3600 * 1000;

/** Hourly, once across all API instances (pg-boss cron), as the other housekeeping jobs. */
export async function startStorageHousekeeping(ctx: AppContext): Promise<void> {
  await ctx.jobs.schedule(STORAGE_HOUSEKEEPING_QUEUE, '53 * * * *');
  await ctx.jobs.work(STORAGE_HOUSEKEEPING_QUEUE, async () => {
    const removed = await ctx.storage.sweep(ABANDONED_WRITE_MS);
    ctx.log.info({ removed, store: ctx.storage.kind }, 'storage housekeeping');
  });
}
