import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { FileName, UPLOAD_LIMIT_MESSAGE, UploadFileName, textProblem } from '@kadai/contracts';
import { HttpError, badRequest } from './errors.ts';
import { StorageLimitError } from './storage.ts';

/**
 * Reading multipart uploads (`@fastify/multipart`, registered in app.ts) with limits that answer in the
 * API's own words: 415 when the body is not multipart/form-data, 400 for no file, too many files, a
 * bad file name or a text field with control characters, 413 for a file over the size limit.
 */
export interface UploadLimits {
  /** Files in one request. */
  maxFiles: number;
  /** Bytes of one file. */
  maxFileBytes: number;
  /**
   * The rule for file names (docs/storage.md, "Names and limits of uploads"): `upload` (the default),
   * any script, the contracts' UploadFileName; `code`, the contracts' FileName, for files a program
   * imports (the files of a submission).
   */
  names?: 'upload' | 'code';
}

export interface IncomingFile {
  /**
   * The file name, checked (and NFC-normalised) by the rule of `UploadLimits.names`. A Windows path an
   * old browser may send (`C:\fakepath\data.csv`, `\\server\share\data.csv`) is cut to its last
   * part; any other name with `/` or `\` (a folder, `../`) is refused.
   */
  filename: string;
  /** The multipart field the file came in. */
  fieldname: string;
  /** The type the client claimed; decide anything that matters from the name instead. */
  clientContentType: string;
  /** The bytes; the stream fails with a 413 HttpError when the file is over `maxFileBytes`. */
  stream: Readable;
}

export interface UploadedFile extends Omit<IncomingFile, 'stream'> {
  data: Buffer;
}

const MAX_FIELDS = 20;
const MAX_FIELD_BYTES = 64 * 1024;

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} bytes`;
}

export const fileTooLarge = (filename: string, maxBytes: number) =>
  new HttpError(
    413,
    'too_large',
    `"${filename}" is larger than the limit of ${formatBytes(maxBytes)} per file.`,
  );

export const tooManyFiles = (max: number, detail = `At most ${max} files can be uploaded at once.`) =>
  badRequest(detail, undefined, 'too_many_files');

/**
 * Spec §5, "Editor uploads" (forum files and assignment attachments): a limit answers with the spec's
 * words as `detail`, the code saying which limit (413 `too_large`, 400 `too_many_files`) and `file`
 * what exactly was over it.
 */
export function uploadLimitError(status: 400 | 413, reason: string): HttpError {
  const code = status === 413 ? 'too_large' : 'too_many_files';
  return new HttpError(status, code, UPLOAD_LIMIT_MESSAGE, { file: [reason] });
}

/** The limit errors of `receiveFiles` and of the stores in the words of `uploadLimitError`; others as they are. */
export function inUploadLimitWords(error: unknown, maxFileBytes: number): unknown {
  if (error instanceof StorageLimitError) {
    return uploadLimitError(413, `A file is larger than the limit of ${formatBytes(maxFileBytes)} per file.`);
  }
  if (!(error instanceof HttpError) || error.message === UPLOAD_LIMIT_MESSAGE) return error;
  if (error.statusCode === 413) return uploadLimitError(413, error.message);
  if (error.code === 'too_many_files') return uploadLimitError(400, error.message);
  return error;
}

/** `C:\…\name` or `\\server\…\name`: the whole path some browsers send; only its last part is the name. */
const WINDOWS_PATH = /^(?:[A-Za-z]:\\|\\\\)/;

/** The checked, NFC-normalised name of an uploaded file, or a 400 `invalid_filename` naming the problem. */
export function uploadedFileName(raw: string, names: UploadLimits['names'] = 'upload'): string {
  const name = WINDOWS_PATH.test(raw) ? raw.slice(raw.lastIndexOf('\\') + 1) : raw;
  const parsed = (names === 'code' ? FileName : UploadFileName).safeParse(name);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? 'Invalid file name.';
    throw badRequest(
      `Invalid file name ${JSON.stringify(raw)}: ${message}`,
      { filename: [message] },
      'invalid_filename',
    );
  }
  return parsed.data;
}

/**
 * A text field of a multipart form follows the text rule of every request (contracts' `textProblem`):
 * whatever a handler stores from it reaches PostgreSQL without NUL or other control characters.
 * (Busboy has already decoded it as UTF-8, so bytes that were not UTF-8 arrive as U+FFFD.)
 */
function checkTextField(fieldname: string, value: string): void {
  const problem = textProblem(value);
  if (problem) throw badRequest(`The form field "${fieldname}": ${problem}`, { [fieldname]: [problem] });
}

/** The file's bytes, failing at the end when busboy cut it at the size limit. */
function cappedStream(file: MultipartFile['file'], filename: string, maxBytes: number): Readable {
  async function* chunks() {
    for await (const chunk of file) yield chunk as Buffer;
    if (file.truncated) throw fileTooLarge(filename, maxBytes);
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** Multipart errors of the plugin and of busboy, in the API's words. */
function uploadError(error: unknown, limits: UploadLimits): unknown {
  if (error instanceof HttpError || !(error instanceof Error)) return error;
  const code = 'code' in error ? String(error.code) : '';
  switch (code) {
    case 'FST_FILES_LIMIT':
      return tooManyFiles(limits.maxFiles);
    case 'FST_REQ_FILE_TOO_LARGE':
      return new HttpError(
        413,
        'too_large',
        `A file is larger than the limit of ${formatBytes(limits.maxFileBytes)} per file.`,
      );
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return badRequest('Too many form fields in the upload.', undefined, 'too_many_fields');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return notMultipart();
    case 'FST_PROTO_VIOLATION':
    case 'FST_INVALID_JSON_FIELD_ERROR':
    case 'FST_MP_PREMATURE_CLOSE':
      return badRequest(`Malformed upload: ${error.message}.`, undefined, 'malformed_upload');
    default:
      // busboy's own parse errors ("Unexpected end of form", "Malformed part header", …).
      if (!code && /multipart|part|form|boundary/i.test(error.message)) {
        return badRequest(`Malformed upload: ${error.message}.`, undefined, 'malformed_upload');
      }
      return error;
  }
}

const notMultipart = () =>
  new HttpError(415, 'unsupported_media_type', 'Send the files as multipart/form-data.');

/**
 * Hands each file of a multipart request to `onFile`, one at a time, as a stream (it must be read to
 * the end or the handler must throw). Text fields are collected and returned. At least one file is
 * required. Whatever `onFile` stored before an error is the caller's to remove.
 */
export async function receiveFiles<T>(
  request: FastifyRequest,
  limits: UploadLimits,
  onFile: (file: IncomingFile, index: number) => Promise<T>,
): Promise<{ results: T[]; fields: Record<string, string> }> {
  if (!request.isMultipart()) throw notMultipart();
  const results: T[] = [];
  const fields: Record<string, string> = {};
  try {
    const parts = request.parts({
      // Busboy would silently cut "../x" to "x"; keep the name as sent so a path is refused, not guessed.
      preservePath: true,
      limits: {
        files: limits.maxFiles,
        fileSize: limits.maxFileBytes,
        fields: MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
        parts: limits.maxFiles + MAX_FIELDS,
      },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        checkTextField(part.fieldname, value);
        fields[part.fieldname] = value;
        continue;
      }
      let filename: string;
      try {
        filename = uploadedFileName(part.filename, limits.names);
      } catch (error) {
        part.file.resume();
        throw error;
      }
      const stream = cappedStream(part.file, filename, limits.maxFileBytes);
      results.push(
        await onFile(
          { filename, fieldname: part.fieldname, clientContentType: part.mimetype, stream },
          results.length,
        ),
      );
    }
  } catch (error) {
    throw uploadError(error, limits);
  }
  if (results.length === 0) {
    throw badRequest('Choose at least one file to upload.', { files: ['No file was sent.'] }, 'no_files');
  }
  return { results, fields };
}

/** Every file of a multipart request in memory (each at most `maxFileBytes`), with the text fields. */
export async function readUploadedFiles(
  request: FastifyRequest,
  limits: UploadLimits,
): Promise<{ files: UploadedFile[]; fields: Record<string, string> }> {
  const { results, fields } = await receiveFiles(request, limits, async ({ stream, ...file }) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    return { ...file, data: Buffer.concat(chunks) };
  });
  return { files: results, fields };
}
