import { z } from 'zod';
import { str, textProblem } from './text.ts';

/*
 * Uploaded files other than code: assignment attachments, forum files, lecture videos, bundles
 * (docs/storage.md, "Names and limits of uploads"). Files a program imports — the files of a
 * submission, an assignment's entry and required files — keep the narrower `FileName` of
 * assignments.ts.
 */

/**
 * Spec §5 and §9, "Editor uploads": at most 5 MB per file and at most 5 files. One rule for forum posts
 * and assignment attachments (5 files on a post, 5 on an assignment).
 */
export const MAX_UPLOAD_FILE_BYTES = 5 * 1024 * 1024;
export const MAX_UPLOAD_FILES = 5;
/** Spec §5, word for word: the API's `detail` when an editor upload is over a limit. */
export const UPLOAD_LIMIT_MESSAGE = 'Failed. Please check the limit for file size and the number of files.';

/**
 * The longest name, in UTF-8 bytes: what Linux file systems hold (NAME_MAX), so an attachment can be
 * written beside the student's program in the grader's sandbox. 255 bytes is 85 Japanese characters.
 */
export const MAX_FILE_NAME_BYTES = 255;

/** Tab and line breaks: fine in a text, never in a name (`textProblem` already refuses the rest). */
const NAME_CONTROL = /[\t\n\r]/;
/**
 * Direction controls: a name is shown as given, and `invoice\u202Efdp.exe` shows as "invoiceexe.pdf".
 */
const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Why `name` (already NFC) is not acceptable as the name of an uploaded file, or undefined when it is:
 * any script, spaces and punctuation are fine; no folders, no `..`, no leading dot, no control
 * characters, at most MAX_FILE_NAME_BYTES bytes of UTF-8.
 */
export function fileNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'A file name is needed.';
  const text = textProblem(name);
  if (text) return text;
  const control = NAME_CONTROL.exec(name) ?? BIDI_CONTROL.exec(name);
  if (control) return `Control characters (${codePoint(control[0])}) are not allowed in a file name.`;
  if (/[/\\]/.test(name)) return 'Only a file name: no folders ("/" or "\\").';
  if (name.startsWith('.')) return 'Must not start with ".".';
  if (name.includes('..')) return 'Must not contain "..".';
  const bytes = new TextEncoder().encode(name).length;
  if (bytes > MAX_FILE_NAME_BYTES) {
    return `Too long: at most ${MAX_FILE_NAME_BYTES} bytes in UTF-8 (this one has ${bytes}).`;
  }
  return undefined;
}

/** The name of an uploaded file (not code): NFC, then `fileNameProblem`. Shown as given. */
export const UploadFileName = str()
  .normalize('NFC')
  .check(
    z.superRefine<string>((name, ctx) => {
      // str() has reported a text problem already; one message per problem.
      const problem = textProblem(name) ? undefined : fileNameProblem(name);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, input: name });
    }),
  );
