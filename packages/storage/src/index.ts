export {
  assertByteRange,
  assertStorageKey,
  assertStoragePrefix,
  isStorageKey,
  newStorageKey,
  readAll,
  STORAGE_KINDS,
  StorageLimitError,
  StorageNotFoundError,
  type ByteRange,
  type PutOptions,
  type Storage,
  type StorageKind,
} from './storage.ts';
export { LocalStorage } from './local.ts';
export {
  DEFAULT_CHUNK_BYTES,
  PostgresStorage,
  type PostgresStorageOptions,
  type StorageQuery,
  type StorageSql,
} from './postgres.ts';
export { DEFAULT_PART_BYTES, S3Storage, type S3StorageOptions } from './s3.ts';
export { createStorage, localStorageRoot, type StorageDependencies, type StorageSettings } from './create.ts';
export { storageEnvProblems, storageEnvShape } from './env.ts';
