/**
 * The variables that choose and reach a store, read alike by the API, graders and kernel hosts
 * (docs/storage.md): one definition, spread into each process's own schema.
 */
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const storageEnvShape = {
  /** Where uploaded files are kept (docs/storage.md): this disk, the database, or an S3 bucket. */
  STORAGE: z.enum(['local', 'postgres', 's3']).default('local'),
  /** The folder of STORAGE=local; default DATA_DIR/files. Every process needs the same folder mounted. */
  STORAGE_DIR: z.string().min(1).optional(),
  /** STORAGE=s3: the bucket, its region, an S3-compatible service's address, path-style URLs, a key prefix. */
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: z.url().optional(),
  S3_FORCE_PATH_STYLE: bool.default(false),
  S3_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/?$/, 'folder names joined by /')
    .optional(),
};

/** What the parsed variables still lack, as `VARIABLE: message` lines (empty when nothing). */
export function storageEnvProblems(env: { STORAGE: string; S3_BUCKET?: string }): string[] {
  return env.STORAGE === 's3' && !env.S3_BUCKET ? ['S3_BUCKET: required when STORAGE=s3'] : [];
}
