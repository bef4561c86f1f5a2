import { crc32 } from 'node:zlib';
import { Inflate, zipSync } from 'fflate';

/**
 * Reading and writing .zip archives of untrusted origin, whole in memory (bundles are tens of MB at
 * most). The reader walks the central directory itself so that every limit is checked on what the
 * archive declares before anything is inflated, and again on what inflating really produces: a header
 * may lie, so output is counted chunk by chunk and inflating stops at the declared size.
 */
export class ZipError extends Error {
  constructor(
    message: string,
    /** The entry at fault, when there is one. */
    readonly entry?: string,
  ) {
    super(message);
    this.name = 'ZipError';
  }
}

export interface ZipReadLimits {
  /** Entries, folders included. */
  maxEntries: number;
  /** Every entry inflated, added up. */
  maxTotalBytes: number;
  /** The most one entry may inflate to, by the name it is read as; may throw to refuse that name outright. */
  maxEntryBytes: (name: string) => number;
  /**
   * The name each entry is read as, or null to leave it out unread, decided once on all the names after
   * every one has passed `checkEntryName` (so a layout never sees, nor skips, an unsafe name). An entry
   * left out still counts toward `maxEntries` and, by its declared size, `maxTotalBytes`: skipping it must
   * not let it carry a bomb. By default every entry is read under its own name.
   */
  layout?: (names: readonly string[]) => (name: string) => string | null;
}

export interface ZipEntry {
  /**
   * The path inside the archive as the layout reads it (by default the archive's own), checked: relative,
   * `/`-separated, no `.` or `..` parts.
   */
  name: string;
  /** A folder entry (`name` ends with `/`); its data is empty. */
  isDirectory: boolean;
  data: Buffer;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const EOCD_SIZE = 22;
/** Compressed bytes handed to the inflater at a time: one push can grow at most ~1000-fold. */
const INFLATE_CHUNK = 4096;

const names = new TextDecoder('utf-8', { fatal: true });

function findEndOfDirectory(zip: Buffer): number {
  const last = zip.length - EOCD_SIZE;
  const first = Math.max(0, last - 0xffff);
  for (let at = last; at >= first; at--) {
    if (zip.readUInt32LE(at) === EOCD) return at;
  }
  throw new ZipError('Not a .zip archive (no end of central directory).');
}

/** What is wrong with an entry's name, or null. */
function nameProblem(name: string): string | null {
  if (name.length === 0) return 'an empty name';
  if (name.startsWith('/')) return 'an absolute path';
  if (name.includes('\\')) return 'a backslash';
  if (/^[A-Za-z]:/.test(name)) return 'a drive letter';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'a control character';
  const parts = name.replace(/\/$/, '').split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..'))
    return 'an empty, "." or ".." path part';
  return null;
}

/** Refuses names that could leave the folder they are extracted to, or mean something else on Windows. */
export function checkEntryName(name: string): void {
  const problem = nameProblem(name);
  if (problem) throw new ZipError(`Entry "${name}" has ${problem}.`, name);
}

/** Files macOS and Windows leave in folders, compared in lower case as their file systems compare names. */
const SYSTEM_FILES = new Set(['.ds_store', 'thumbs.db', 'desktop.ini']);

/**
 * Which of `names` (every name of one archive) are what "Compress" on macOS or Windows adds besides the
 * files chosen: `__MACOSX/` and all below it (resource forks), `.DS_Store`, `Thumbs.db` and
 * `desktop.ini` at any depth, and an AppleDouble `._<name>` beside a file or folder `<name>` of the
 * archive. A `._` file with nothing beside it is not taken for junk: it is no copy of anything's
 * metadata, so the caller decides about it like any other file.
 */
export function archiverJunk(names: readonly string[]): (name: string) => boolean {
  // Every file and folder the archive holds, folders also when only implied by the paths below them.
  const present = new Set<string>();
  for (const name of names) {
    const parts = name.replace(/\/$/, '').split('/');
    for (let i = 1; i <= parts.length; i++) present.add(parts.slice(0, i).join('/'));
  }
  return (name) => {
    const parts = name.replace(/\/$/, '').split('/');
    const last = parts[parts.length - 1]!;
    if (parts[0] === '__MACOSX' || SYSTEM_FILES.has(last.toLowerCase())) return true;
    return last.startsWith('._') && present.has([...parts.slice(0, -1), last.slice(2)].join('/'));
  };
}

function inflateCounted(name: string, compressed: Buffer, expected: number): Buffer {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const inflater = new Inflate((chunk) => {
    size += chunk.length;
    if (size > expected) throw new ZipError(`Entry "${name}" inflates to more than its header says.`, name);
    chunks.push(chunk);
  });
  try {
    for (let at = 0; at < compressed.length; at += INFLATE_CHUNK) {
      const end = Math.min(at + INFLATE_CHUNK, compressed.length);
      inflater.push(compressed.subarray(at, end), end === compressed.length);
    }
    if (compressed.length === 0) inflater.push(new Uint8Array(0), true);
  } catch (error) {
    if (error instanceof ZipError) throw error;
    throw new ZipError(
      `Entry "${name}" is corrupt (${error instanceof Error ? error.message : 'inflate'}).`,
      name,
    );
  }
  return Buffer.concat(chunks, size);
}

/** One entry as the central directory describes it. */
interface DirectoryRecord {
  name: string;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localAt: number;
}

function readDirectory(zip: Buffer, maxEntries: number): DirectoryRecord[] {
  if (zip.length < EOCD_SIZE) throw new ZipError('Not a .zip archive (too short).');
  const end = findEndOfDirectory(zip);
  const count = zip.readUInt16LE(end + 10);
  const directorySize = zip.readUInt32LE(end + 12);
  const directoryAt = zip.readUInt32LE(end + 16);
  if (zip.readUInt16LE(end + 4) !== 0 || zip.readUInt16LE(end + 6) !== 0) {
    throw new ZipError('Archives split over several files are not supported.');
  }
  if (count === 0xffff || directoryAt === 0xffffffff) throw new ZipError('ZIP64 archives are not supported.');
  if (count > maxEntries) {
    throw new ZipError(`The archive has ${count} entries; at most ${maxEntries} are allowed.`);
  }
  if (directoryAt + directorySize > end) throw new ZipError('Not a .zip archive (bad central directory).');
  const records: DirectoryRecord[] = [];
  let at = directoryAt;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || zip.readUInt32LE(at) !== CENTRAL) {
      throw new ZipError('Not a .zip archive (bad central directory).');
    }
    const nameLength = zip.readUInt16LE(at + 28);
    let name: string;
    try {
      name = names.decode(zip.subarray(at + 46, at + 46 + nameLength));
    } catch {
      throw new ZipError(`Entry ${i + 1} has a name that is not UTF-8.`);
    }
    records.push({
      name,
      flags: zip.readUInt16LE(at + 8),
      method: zip.readUInt16LE(at + 10),
      crc: zip.readUInt32LE(at + 16),
      compressedSize: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      localAt: zip.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return records;
}

/**
 * Names, flags and declared sizes of every entry, checked before anything is inflated; the name each is
 * read as (null: left out, though still counted).
 */
function checkDirectory(records: DirectoryRecord[], limits: ZipReadLimits): (string | null)[] {
  const seen = new Set<string>();
  // Every name is checked before the layout sees any, so a junk name is skipped only once it is safe.
  for (const { name } of records) {
    checkEntryName(name);
    if (seen.has(name)) throw new ZipError(`Entry "${name}" is in the archive twice.`, name);
    seen.add(name);
  }
  const readAs = limits.layout?.(records.map((r) => r.name)) ?? ((name: string) => name);
  const read = new Set<string>();
  let declaredTotal = 0;
  return records.map(({ name, flags, size, method }) => {
    if (flags & 0x1) throw new ZipError(`Entry "${name}" is encrypted.`, name);
    if (name.endsWith('/') && size !== 0) throw new ZipError(`Folder entry "${name}" has data.`, name);
    if (!name.endsWith('/') && method !== 0 && method !== 8) {
      throw new ZipError(
        `Entry "${name}" uses compression method ${method}; only deflate is supported.`,
        name,
      );
    }
    const as = readAs(name);
    if (as !== null) {
      // The layout is ours, but it must never be what makes a name unsafe, a file a folder, or two
      // entries one.
      checkEntryName(as);
      if (read.has(as) || as.endsWith('/') !== name.endsWith('/')) {
        throw new ZipError(`Entry "${name}" cannot be read as "${as}".`, name);
      }
      read.add(as);
      if (!as.endsWith('/')) {
        const maxBytes = limits.maxEntryBytes(as);
        if (size > maxBytes) {
          throw new ZipError(`Entry "${name}" is ${size} bytes; at most ${maxBytes} are allowed.`, name);
        }
      }
    }
    // Entries left out count too, so that junk cannot slip a bomb past the limit unseen.
    declaredTotal += size;
    if (declaredTotal > limits.maxTotalBytes) {
      throw new ZipError(
        `The archive inflates to more than ${limits.maxTotalBytes} bytes (at "${name}").`,
        name,
      );
    }
    return as;
  });
}

function extract(zip: Buffer, record: DirectoryRecord): Buffer {
  const { name, localAt, compressedSize, size } = record;
  if (localAt + 30 > zip.length || zip.readUInt32LE(localAt) !== LOCAL) {
    throw new ZipError(`Entry "${name}" has no local header.`, name);
  }
  const dataAt = localAt + 30 + zip.readUInt16LE(localAt + 26) + zip.readUInt16LE(localAt + 28);
  if (dataAt + compressedSize > zip.length) throw new ZipError(`Entry "${name}" is truncated.`, name);
  const raw = zip.subarray(dataAt, dataAt + compressedSize);
  if (record.method === 0 && compressedSize !== size) {
    throw new ZipError(`Entry "${name}" has inconsistent sizes.`, name);
  }
  // Inflating stops at the declared size, which checkDirectory held against the limits.
  const data = record.method === 0 ? Buffer.from(raw) : inflateCounted(name, raw, size);
  if (data.length !== size) throw new ZipError(`Entry "${name}" is shorter than its header says.`, name);
  if (crc32(data) !== record.crc) throw new ZipError(`Entry "${name}" is corrupt (checksum).`, name);
  return data;
}

/**
 * Every entry of `zip` the layout reads, in the order of its central directory; a `ZipError` at the
 * first problem. All names and declared sizes are checked first, so a bomb is refused before a byte of
 * it is inflated.
 */
export function readZip(zip: Buffer, limits: ZipReadLimits): ZipEntry[] {
  const records = readDirectory(zip, limits.maxEntries);
  const names = checkDirectory(records, limits);
  const entries: ZipEntry[] = [];
  records.forEach((record, i) => {
    const name = names[i];
    if (name === null || name === undefined) return;
    const isDirectory = name.endsWith('/');
    entries.push({ name, isDirectory, data: isDirectory ? Buffer.alloc(0) : extract(zip, record) });
  });
  return entries;
}

/** A .zip of the given files (path → bytes), deflated; folders are implied by the paths. */
export function writeZip(files: ReadonlyMap<string, Uint8Array>): Buffer {
  const input: Record<string, Uint8Array> = {};
  for (const [name, data] of files) {
    checkEntryName(name);
    input[name] = data;
  }
  return Buffer.from(zipSync(input, { level: 6 }));
}
