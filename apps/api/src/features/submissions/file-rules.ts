import path from 'node:path';
import type { SubmitRequest } from '@kadai/contracts';
import { HttpError, badRequest } from '../../lib/errors.ts';
import { fileTooLarge } from '../../lib/uploads.ts';

/**
 * The file rules of an assignment, checked on `Submit/` and `FileSubmission/` alike (the web app checks
 * the same before sending, in apps/web/src/features/assignments/file-limits.ts):
 * - a file needs an allowed extension, unless it is the entry file or a required file;
 * - each file at most `maxFileBytes` (413);
 * - names are unique within the submission (exact, case-sensitive: the sandbox's file system is);
 * - at most `maxFiles` files, counting the code saved as the entry file;
 * - a submission to be graded holds at least one file, the entry file and every required file.
 */
export interface FileRules {
  entryFile: string;
  requiredFiles: string[];
  allowedExtensions: string[];
  maxFiles: number;
  maxFileBytes: number;
}

export interface NamedContent {
  filename: string;
  content: Buffer;
}

type Problem = { code: string; message: string };

function refuse(problems: Problem[]): HttpError {
  return badRequest(problems[0]!.message, { files: problems.map((p) => p.message) }, problems[0]!.code);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Decodes base64 strictly (line breaks allowed); null when it is not base64. */
export function decodeBase64(text: string): Buffer | null {
  const compact = text.replace(/[\r\n\t ]/g, '');
  return BASE64.test(compact) ? Buffer.from(compact, 'base64') : null;
}

/**
 * The files of a `Submit/` body as bytes: `code` (when it holds more than white space) becomes the entry
 * file, then each file in order. Bad base64 is a 400 naming the file.
 */
export function decodeSubmission(
  body: Pick<SubmitRequest, 'code' | 'files'>,
  entryFile: string,
): NamedContent[] {
  const decoded: NamedContent[] = [];
  if (body.code !== undefined && body.code.trim().length > 0) {
    decoded.push({ filename: entryFile, content: Buffer.from(body.code, 'utf8') });
  }
  const problems: Problem[] = [];
  body.files.forEach((file) => {
    if (file.encoding === 'base64') {
      const bytes = decodeBase64(file.content);
      if (!bytes) {
        problems.push({
          code: 'invalid_base64',
          message: `"${file.filename}" is marked base64 but its content is not valid base64.`,
        });
        return;
      }
      decoded.push({ filename: file.filename, content: bytes });
    } else {
      decoded.push({ filename: file.filename, content: Buffer.from(file.content, 'utf8') });
    }
  });
  if (problems.length > 0) throw refuse(problems);
  return decoded;
}

export function isAllowedName(filename: string, rules: FileRules): boolean {
  if (filename === rules.entryFile || rules.requiredFiles.includes(filename)) return true;
  const extension = path.extname(filename).toLowerCase();
  return extension !== '' && rules.allowedExtensions.some((allowed) => allowed.toLowerCase() === extension);
}

/**
 * Checks files being added to a submission that already holds `existing`: 413 for a file over the size
 * limit, else one 400 listing every other problem. Clashing with a file already there is a 409.
 */
export function checkAddedFiles(
  rules: FileRules,
  existing: readonly { filename: string }[],
  added: readonly { filename: string; size: number }[],
): void {
  const tooLarge = added.find((f) => f.size > rules.maxFileBytes);
  if (tooLarge) throw fileTooLarge(tooLarge.filename, rules.maxFileBytes);

  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const file of added) {
    if (!isAllowedName(file.filename, rules)) {
      problems.push({
        code: 'extension_not_allowed',
        message: `"${file.filename}" is not allowed: files must end in ${rules.allowedExtensions.join(', ')}.`,
      });
    }
    if (seen.has(file.filename)) {
      problems.push({ code: 'duplicate_filename', message: `"${file.filename}" is given twice.` });
    }
    seen.add(file.filename);
  }
  const total = existing.length + added.length;
  if (total > rules.maxFiles) {
    problems.push({
      code: 'too_many_files',
      message: `A submission may hold at most ${rules.maxFiles} file(s); this one would hold ${total}.`,
    });
  }
  if (problems.length > 0) throw refuse(problems);

  const clash = added.find((f) => existing.some((e) => e.filename === f.filename));
  if (clash) {
    throw new HttpError(
      409,
      'duplicate_filename',
      `The submission already has a file named "${clash.filename}"; delete it first to replace it.`,
      { files: [`"${clash.filename}" is already part of this submission.`] },
    );
  }
}

/** A submission about to be graded: something to grade, with the entry file and every required file. */
export function checkComplete(rules: FileRules, filenames: readonly string[]): void {
  if (filenames.length === 0) {
    throw badRequest(
      'Nothing to grade: write some code or add at least one file.',
      { files: ['Write some code or add at least one file.'] },
      'empty_submission',
    );
  }
  const missing = [rules.entryFile, ...rules.requiredFiles].filter((name) => !filenames.includes(name));
  if (missing.length > 0) {
    throw refuse(
      missing.map((name) => ({
        code: 'missing_files',
        message: `The submission must contain "${name}".`,
      })),
    );
  }
}
