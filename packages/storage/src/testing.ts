/**
 * A real S3-speaking server for tests: s3rver (`@20minutes/s3rver`, a maintained fork, from npm) on
 * 127.0.0.1, a free port, its objects in a temporary folder removed by `close()`. The test S3
 * credentials are s3rver's own. Test code: imported by tests and test/global-setup.ts only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The part of s3rver used here (it ships no types). */
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
  allowMismatchedSignatures: boolean;
}) => S3rverServer;

const S3rver: S3rverClass = createRequire(import.meta.url)('@20minutes/s3rver');

export const TEST_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  close(): Promise<void>;
}

export async function startTestS3Server(bucket = 'kadai-test'): Promise<TestS3Server> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'kadai-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
    // Its SigV4 check leaves out the trailing slash the SDK signs in bucket-level paths
    // (`/bucket/?list-type=2`), so listing would fail it; these tests are of the stores, not of SigV4.
    allowMismatchedSignatures: true,
  });
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    bucket,
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
