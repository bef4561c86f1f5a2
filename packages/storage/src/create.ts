import path from 'node:path';
import { LocalStorage } from './local.ts';
import { PostgresStorage, type StorageSql } from './postgres.ts';
import { S3Storage, type S3StorageOptions } from './s3.ts';
import type { Storage, StorageKind } from './storage.ts';

/** The variables that choose and reach a store, as the API and the grader both read them. */
export interface StorageSettings {
  STORAGE: StorageKind;
  /** The folder of the `local` store (default `DATA_DIR/files`). */
  STORAGE_DIR?: string;
  DATA_DIR?: string;
  S3_BUCKET?: string;
  S3_REGION?: string;
  S3_ENDPOINT?: string;
  S3_FORCE_PATH_STYLE?: boolean;
  S3_PREFIX?: string;
}

/** The folder of the `local` store: STORAGE_DIR, else DATA_DIR/files. */
export function localStorageRoot(settings: Pick<StorageSettings, 'STORAGE_DIR' | 'DATA_DIR'>): string {
  return path.resolve(settings.STORAGE_DIR ?? path.join(settings.DATA_DIR ?? './data', 'files'));
}

export interface StorageDependencies {
  /** The database, for `STORAGE=postgres`. */
  sql: StorageSql;
  /** S3 credentials instead of the SDK's chain (tests, `npm run storage:migrate`). */
  s3Credentials?: S3StorageOptions['credentials'];
}

/** The store `settings.STORAGE` names. */
export function createStorage(settings: StorageSettings, dependencies: StorageDependencies): Storage {
  switch (settings.STORAGE) {
    case 'local':
      return new LocalStorage(localStorageRoot(settings));
    case 'postgres':
      return new PostgresStorage(dependencies.sql);
    case 's3':
      if (!settings.S3_BUCKET) throw new Error('STORAGE=s3 needs S3_BUCKET');
      return new S3Storage({
        bucket: settings.S3_BUCKET,
        region: settings.S3_REGION,
        endpoint: settings.S3_ENDPOINT,
        forcePathStyle: settings.S3_FORCE_PATH_STYLE,
        prefix: settings.S3_PREFIX,
        credentials: dependencies.s3Credentials,
      });
  }
}
