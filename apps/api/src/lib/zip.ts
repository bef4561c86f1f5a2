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
  /** The most one entry may inflate to; may throw to refuse the entry's name outright. */
  maxEntryBytes: (name: string) => number;
}

export interface ZipEntry {
  /** The path inside the archive, checked: relative, `/`-separated, no `.` or `..` parts. */
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

/** Names, flags and declared sizes of every entry, checked before anything is inflated. */
function checkDirectory(records: DirectoryRecord[], limits: ZipReadLimits): void {
  const seen = new Set<string>();
  let declaredTotal = 0;
  for (const { name, flags, size, method } of records) {
    checkEntryName(name);
    if (seen.has(name)) throw new ZipError(`Entry "${name}" is in the archive twice.`, name);
    seen.add(name);
    if (flags & 0x1) throw new ZipError(`Entry "${name}" is encrypted.`, name);
    if (name.endsWith('/')) {
      if (size !== 0) throw new ZipError(`Folder entry "${name}" has data.`, name);
      continue;
    }
    if (method !== 0 && method !== 8) {
      throw new ZipError(
        `Entry "${name}" uses compression method ${method}; only deflate is supported.`,
        name,
      );
    }
    const maxBytes = limits.maxEntryBytes(name);
    if (size > maxBytes) {
      throw new ZipError(`Entry "${name}" is ${size} bytes; at most ${maxBytes} are allowed.`, name);
    }
    declaredTotal += size;
    if (declaredTotal > limits.maxTotalBytes) {
      throw new ZipError(
        `The archive inflates to more than ${limits.maxTotalBytes} bytes (at "${name}").`,
        name,
      );
    }
  }
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
 * Every entry of `zip`, in the order of its central directory; a `ZipError` at the first problem. All
 * names and declared sizes are checked first, so a bomb is refused before a byte of it is inflated.
 */
export function readZip(zip: Buffer, limits: ZipReadLimits): ZipEntry[] {
  const records = readDirectory(zip, limits.maxEntries);
  checkDirectory(records, limits);
  return records.map((record) => {
    const isDirectory = record.name.endsWith('/');
    return { name: record.name, isDirectory, data: isDirectory ? Buffer.alloc(0) : extract(zip, record) };
  });
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
