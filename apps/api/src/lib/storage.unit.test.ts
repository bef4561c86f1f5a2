import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import type { StorageSql } from './storage.ts';
import { createStorage, storageRoot } from './storage.ts';

/** The stores are built without touching the database; their tests are in storage.test.ts. */
const noDatabase: StorageSql = {
  query: () => Promise.reject(new Error('no database here')),
  transaction: () => Promise.reject(new Error('no database here')),
};

describe('the API’s file store', () => {
  const config = (env: Record<string, string>) =>
    loadConfig({ DATA_DIR: '/tmp/kadai-x', JWT_SECRET: 'x'.repeat(40), ...env });

  it('is the one STORAGE names, local by default', async () => {
    expect(createStorage(config({}), noDatabase).kind).toBe('local');
    expect(createStorage(config({ STORAGE: 'postgres' }), noDatabase).kind).toBe('postgres');
    const s3 = createStorage(
      config({ STORAGE: 's3', S3_BUCKET: 'kadai', S3_FORCE_PATH_STYLE: 'true' }),
      noDatabase,
    );
    expect(s3.kind).toBe('s3');
    await s3.close();
  });

  it('needs a bucket for s3 and a known store', () => {
    expect(() => config({ STORAGE: 's3' })).toThrow(ConfigError);
    expect(() => config({ STORAGE: 's3' })).toThrow(/S3_BUCKET: required when STORAGE=s3/);
    expect(() => config({ STORAGE: 'disk' })).toThrow(/STORAGE/);
    expect(() => config({ STORAGE: 's3', S3_BUCKET: 'kadai', S3_ENDPOINT: 'not a url' })).toThrow(
      /S3_ENDPOINT/,
    );
    expect(config({ STORAGE: 's3', S3_BUCKET: 'kadai' })).toMatchObject({
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: false,
    });
  });

  it('keeps local files under STORAGE_DIR, else DATA_DIR/files', () => {
    expect(storageRoot({ STORAGE_DIR: '/srv/files', dataDir: '/data' })).toBe('/srv/files');
    expect(storageRoot({ STORAGE_DIR: undefined, dataDir: '/data' })).toBe('/data/files');
  });
});
