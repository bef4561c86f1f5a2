import { FileName, textProblem, type Assignment, type SubmittedFile } from '@kadai/contracts';
import type { z } from 'zod';

export type FileLimits = Pick<
  Assignment,
  'entry_file' | 'required_files' | 'allowed_extensions' | 'max_files' | 'max_file_bytes'
>;

/** Something the server would refuse, found before sending. */
export type FileProblem =
  | { kind: 'badName'; filename: string }
  | { kind: 'extension'; filename: string; allowed: string[] }
  | { kind: 'tooLarge'; filename: string; size: number; max: number }
  | { kind: 'duplicate'; filename: string }
  | { kind: 'reserved'; filename: string }
  | { kind: 'tooMany'; count: number; max: number }
  | { kind: 'missing'; filename: string }
  | { kind: 'empty' };

export type SubmittedFileInput = z.infer<typeof SubmittedFile>;

/** A script test's driver runs under this name beside the submitted files (apps/grader). */
export const DRIVER_FILE = '_driver.py';

export interface CandidateFile {
  name: string;
  size: number;
}

/** The extension of a file name, lower-cased with its dot (`.py`), or '' when it has none. */
export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(dot).toLowerCase() : '';
}

/** Whether a file of this name may be part of a submission: a required file, or an allowed extension. */
export function isAllowedName(filename: string, limits: FileLimits): boolean {
  if (filename === limits.entry_file || limits.required_files.includes(filename)) return true;
  const allowed = limits.allowed_extensions.map((extension) => extension.toLowerCase());
  return allowed.includes(extensionOf(filename));
}

function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * Checks a submission before it is sent (the server checks again): the code typed in the editor is
 * saved as the entry file; every uploaded file needs a plain name not taken by an attachment or the
 * test driver, an allowed extension (required files are always allowed), a size within the limit and a name of its own; together they may not be more than
 * `max_files`, and every required file must be there.
 */
export function checkSubmissionFiles(
  code: string,
  files: readonly CandidateFile[],
  limits: FileLimits,
  /** Names of the assignment's attachments: they sit beside the submitted files, so none may take one. */
  attachmentNames: readonly string[] = [],
): FileProblem[] {
  const problems: FileProblem[] = [];
  const hasCode = code.trim().length > 0;
  if (!hasCode && files.length === 0) return [{ kind: 'empty' }];

  const names = new Set<string>();
  if (hasCode) {
    names.add(limits.entry_file);
    const size = utf8Bytes(code);
    if (size > limits.max_file_bytes) {
      problems.push({ kind: 'tooLarge', filename: limits.entry_file, size, max: limits.max_file_bytes });
    }
  }
  for (const file of files) {
    if (!FileName.safeParse(file.name).success) {
      problems.push({ kind: 'badName', filename: file.name });
    } else if (file.name === DRIVER_FILE || attachmentNames.includes(file.name)) {
      problems.push({ kind: 'reserved', filename: file.name });
    } else if (!isAllowedName(file.name, limits)) {
      problems.push({ kind: 'extension', filename: file.name, allowed: limits.allowed_extensions });
    }
    if (file.size > limits.max_file_bytes) {
      problems.push({ kind: 'tooLarge', filename: file.name, size: file.size, max: limits.max_file_bytes });
    }
    if (names.has(file.name)) problems.push({ kind: 'duplicate', filename: file.name });
    names.add(file.name);
  }
  const count = files.length + (hasCode ? 1 : 0);
  if (count > limits.max_files) problems.push({ kind: 'tooMany', count, max: limits.max_files });
  for (const required of [limits.entry_file, ...limits.required_files]) {
    if (!names.has(required)) problems.push({ kind: 'missing', filename: required });
  }
  return problems;
}

/**
 * Only a file that decodes as UTF-8 and passes the text rule of every request (contracts'
 * `textProblem`: no NUL or other control characters but tab and line breaks) is sent as text; anything
 * else as base64, its bytes kept exactly (a form feed in old source code, a binary data file).
 */
export async function readSubmittedFile(file: File): Promise<SubmittedFileInput> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!bytes.includes(0)) {
    try {
      const content = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      if (textProblem(content) === undefined) return { filename: file.name, content, encoding: 'utf-8' };
    } catch {
      // Not UTF-8: sent as base64 below.
    }
  }
  let binary = '';
  const chunk = 0x8000;
  for (let offset = 0; offset < bytes.length; offset += chunk) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + chunk));
  }
  return { filename: file.name, content: btoa(binary), encoding: 'base64' };
}
