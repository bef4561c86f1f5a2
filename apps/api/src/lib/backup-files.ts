import path from 'node:path';
import { LocalStorage, StorageNotFoundError, type Storage, type StorageKind } from '@kadai/storage';
import { FILES_DIR, HashingStream, type BackupFile, type Manifest } from './backup-manifest.ts';

/* The file store's side of a backup (lib/backup.ts): which objects are copied, and the copying. */

const MB = 1024 * 1024;

/** Runs `work` over `items`, `limit` at a time. */
async function eachLimit<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
}

/** Copies store objects into the backup's files/ folder, hashing them on the way. */
export class FileCopier {
  readonly copied = new Map<string, BackupFile>();
  private readonly target: LocalStorage;
  private shown = Date.now();
  private bytes = 0;

  constructor(
    private readonly source: Storage,
    dir: string,
    private readonly log: (line: string) => void,
  ) {
    this.target = new LocalStorage(path.join(dir, FILES_DIR));
  }

  /** Copies each key not copied yet; returns the keys the store did not have. */
  async copy(keys: string[], contentTypes: Map<string, string>): Promise<string[]> {
    const absent: string[] = [];
    const todo = keys.filter((key) => !this.copied.has(key));
    let done = 0;
    await eachLimit(todo, 4, async (key) => {
      let stream;
      try {
        stream = await this.source.get(key);
      } catch (error) {
        if (error instanceof StorageNotFoundError) {
          absent.push(key);
          return;
        }
        throw error;
      }
      const hashing = new HashingStream();
      stream.on('error', (error) => hashing.destroy(error));
      const { size } = await this.target.put(key, stream.pipe(hashing), 'application/octet-stream');
      if (size !== hashing.size) throw new Error(`${key}: wrote ${size} bytes of ${hashing.size}`);
      this.copied.set(key, {
        key,
        size,
        sha256: hashing.digest(),
        contentType: contentTypes.get(key) ?? 'application/octet-stream',
      });
      this.bytes += size;
      done++;
      if (Date.now() - this.shown >= 5000) {
        this.shown = Date.now();
        this.log(`  ${done} of ${todo.length} files (${(this.bytes / MB).toFixed(1)} MB)`);
      }
    });
    return absent.sort();
  }
}

/** How the store's objects are kept, and the manifest's sentence about it. */
export function storagePlan(
  kind: StorageKind,
  copyS3: boolean,
): { files: Manifest['storage']['files']; note: string } {
  if (kind === 'postgres') {
    return {
      files: 'in-database',
      note:
        'STORAGE=postgres: the files are rows of the database (stored_files, stored_file_chunks) and are in ' +
        'the dump, taken in the same snapshot as the rows that name them; they are not copied twice. ' +
        '`files` lists them with their checksums, read in that snapshot.',
    };
  }
  if (kind === 's3' && !copyS3) {
    return {
      files: 'not-copied',
      note:
        'STORAGE=s3: the objects stay in the bucket, whose own versioning (or replication, or snapshots) ' +
        'is their backup; keys are never reused, so with versioning on, every key in referencedKeys can ' +
        'be brought back as of createdAt. `npm run backup -- --copy-s3` copies them into the backup instead.',
    };
  }
  return {
    files: 'copied',
    note:
      `STORAGE=${kind}: every object of the store is copied under files/<key>, the objects present ` +
      'before the database snapshot and every key the snapshot refers to that appeared after it.',
  };
}
