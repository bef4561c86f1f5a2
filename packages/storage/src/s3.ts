import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { pipeline, Readable, Transform } from 'node:stream';
import {
  assertByteRange,
  assertStorageKey,
  assertStoragePrefix,
  readAll,
  StorageLimitError,
  StorageNotFoundError,
  toBuffer,
  type ByteRange,
  type PutOptions,
  type Storage,
} from './storage.ts';

export interface S3StorageOptions {
  bucket: string;
  region?: string;
  /** An S3-compatible service's address (MinIO, Ceph, R2, …); unset → AWS. */
  endpoint?: string;
  /** `https://host/bucket/key` instead of `https://bucket.host/key` (most self-hosted services). */
  forcePathStyle?: boolean;
  /** Put before every key (`kadai/` → `kadai/forum/12/…`), to share a bucket. */
  prefix?: string;
  /** Unset → the SDK's usual chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, a role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Bytes per part of a multipart upload: S3's minimum is 5 MiB; two parts are in flight at once. */
  partBytes?: number;
}

export const DEFAULT_PART_BYTES = 8 * 1024 * 1024;

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound');
const isUnsatisfiableRange = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'InvalidRange' || error.$metadata.httpStatusCode === 416);

/**
 * The bytes of `range` from what the service sent: some S3-compatible services answer a range with
 * more than was asked (the whole object, or up to its end), which would break the length the API
 * promised its client. Extra bytes are skipped or cut here.
 */
function exactRange(body: Readable, range: ByteRange, contentRange: string | undefined): Readable {
  const sent = /^bytes (\d+)-(\d+)\//.exec(contentRange ?? '');
  const sentStart = sent ? Number(sent[1]) : 0;
  const sentEnd = sent ? Number(sent[2]) : Infinity;
  if (sentStart === range.start && sentEnd <= range.end) return body;
  if (sentStart > range.start) {
    body.destroy();
    throw new Error(`S3 answered bytes ${contentRange} for ${range.start}-${range.end}`);
  }
  return Readable.from(slice(body, sentStart, range), { objectMode: false });
}

async function* slice(body: Readable, position: number, range: ByteRange): AsyncGenerator<Buffer> {
  for await (const chunk of body) {
    const bytes = toBuffer(chunk);
    const from = Math.max(0, range.start - position);
    const to = Math.min(bytes.length, range.end - position + 1);
    position += bytes.length;
    if (from < to) yield bytes.subarray(from, to);
    // Past the range: leaving the loop destroys the response, so the rest is never downloaded.
    if (position > range.end) break;
  }
}

/**
 * Files in an S3 bucket (any S3-compatible service). An object appears only when its upload is
 * complete (S3 itself makes a PUT, and a multipart upload, whole or nothing). Large files go up in
 * parts (`@aws-sdk/lib-storage`), counted as they stream so `maxBytes` refuses a file part-way.
 * Downloads are streamed through the API's signed download route rather than presigned URLs, so the
 * page's CSP, the access checks and the audit stay the API's (docs/storage.md).
 */
export class S3Storage implements Storage {
  readonly kind = 's3';
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly partBytes: number;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix ? options.prefix.replace(/\/*$/, '/') : '';
    this.partBytes = options.partBytes ?? DEFAULT_PART_BYTES;
    this.client = new S3Client({
      region: options.region ?? 'us-east-1',
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle ?? false,
      credentials: options.credentials,
      // Checksums only where S3 requires them: many S3-compatible services reject the SDK's newer
      // default (a CRC32 trailer in `aws-chunked` bodies), and TLS already protects the bytes.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private objectKey(key: string): string {
    assertStorageKey(key);
    return this.prefix + key;
  }

  async put(
    key: string,
    data: Buffer | Readable,
    contentType: string,
    options: PutOptions = {},
  ): Promise<{ size: number }> {
    const objectKey = this.objectKey(key);
    const { maxBytes } = options;
    if (Buffer.isBuffer(data)) {
      if (maxBytes !== undefined && data.length > maxBytes) throw new StorageLimitError(maxBytes);
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: objectKey, Body: data, ContentType: contentType }),
      );
      return { size: data.length };
    }
    let size = 0;
    let refused = false;
    const counted = new Transform({
      transform(chunk, _encoding, done) {
        const bytes = toBuffer(chunk);
        size += bytes.length;
        if (maxBytes !== undefined && size > maxBytes) {
          refused = true;
          done(new StorageLimitError(maxBytes));
        } else done(null, bytes);
      },
    });
    // The pipeline carries an error of either side to the other; the upload sees it as its body failing.
    pipeline(data, counted, () => {});
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: objectKey, Body: counted, ContentType: contentType },
      partSize: this.partBytes,
      queueSize: 2,
      // A failed multipart upload is aborted, so its parts are not kept (and billed) by the bucket.
      leavePartsOnError: false,
    });
    try {
      await upload.done();
      return { size };
    } catch (error) {
      data.destroy();
      // Aborting the parts may fail too (or the service may not support it): the refusal is the answer.
      if (refused && maxBytes !== undefined) throw new StorageLimitError(maxBytes);
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const objectKey = this.objectKey(key);
    if (range) assertByteRange(range);
    try {
      const { Body, ContentRange } = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: objectKey,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      if (!(Body instanceof Readable)) throw new Error(`S3 answered ${key} without a body stream`);
      return range ? exactRange(Body, range, ContentRange) : Body;
    } catch (error) {
      if (isMissing(error)) throw new StorageNotFoundError(key);
      // A range past the end: nothing, as the other stores answer (callers check ranges against size).
      if (range && isUnsatisfiableRange(error)) return Readable.from([]);
      throw error;
    }
  }

  async size(key: string): Promise<number> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) throw new StorageNotFoundError(key);
      throw error;
    }
  }

  async read(key: string): Promise<Buffer> {
    return readAll(await this.get(key));
  }

  async delete(key: string): Promise<void> {
    // S3 answers a missing key as a deleted one.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async list(prefix: string): Promise<string[]> {
    assertStoragePrefix(prefix);
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.prefix + (prefix === '' ? '' : `${prefix}/`),
          ContinuationToken: token,
        }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key) keys.push(object.Key.slice(this.prefix.length));
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }

  /**
   * Nothing to do: an object exists only once complete. The parts of a multipart upload cut short by
   * a crash are removed by the bucket's lifecycle rule `AbortIncompleteMultipartUpload`
   * (docs/storage.md), which every S3-compatible service runs for itself.
   */
  async sweep(_olderThanMs: number): Promise<number> {
    return 0;
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
