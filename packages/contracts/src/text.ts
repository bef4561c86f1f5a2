import { z } from 'zod';

/**
 * What a text field of a request accepts, decided once for every route (docs/development.md, "Input"):
 * - any Unicode text, tab, line feed and carriage return included;
 * - not NUL, the other C0 control characters or DEL (PostgreSQL refuses NUL; the rest are never typed
 *   and break CSV exports, terminals and e-mail headers);
 * - not an unpaired UTF-16 surrogate (half a character: it cannot be stored as UTF-8).
 * A value that breaks the rule is refused with 400 naming the field; nothing is removed silently.
 * Names that are compared with others (people, titles, skills, file names, answers) are also
 * normalised to NFC, so "が" typed on a Mac and on Windows is one name.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this rule is about
const FORBIDDEN_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const UNPAIRED_SURROGATE = /\p{Cs}/u;

/** Why `value` is not acceptable text, or undefined when it is. */
export function textProblem(value: string): string | undefined {
  const control = FORBIDDEN_CONTROL.exec(value);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    return `Control characters (U+${code}) are not allowed.`;
  }
  if (UNPAIRED_SURROGATE.test(value)) return 'Contains an unpaired surrogate: not valid Unicode text.';
  return undefined;
}

/**
 * The check every request string carries. The API refuses at start-up a route whose request schema has
 * a string without it (apps/api/src/lib/validation.ts), so a new field cannot forget the rule.
 */
export const plainTextCheck = z.superRefine<string>((value, ctx) => {
  const problem = textProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
});

/** A string of a request, as written (code, passwords, tokens): the text rule and nothing else. */
export function str() {
  return z.string().check(plainTextCheck);
}

/** The check of output text (a notebook's streams and tracebacks): only what cannot be stored is refused. */
export const storableTextCheck = z.superRefine<string>((value, ctx) => {
  const problem = unstorableString(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
});

/**
 * Program output as a kernel wrote it, up to `max` characters: terminal colour codes (ESC) are kept
 * for the page to render; NUL and unpaired surrogates are refused (kernels replace them before storing).
 */
export function outputText(max: number) {
  return z.string().check(storableTextCheck).max(max);
}

/** Markdown or code as written, up to `max` characters (pages render Markdown sanitised). */
export function markdown(max: number) {
  return str().max(max);
}

/** A name or title: trimmed, NFC, non-empty, at most `max` characters. */
export function text(max: number) {
  return str().trim().normalize('NFC').min(1).max(max);
}

/** Like `text` but may be empty (optional names, locations). */
export function optionalText(max: number) {
  return str().trim().normalize('NFC').max(max);
}

/** A search box: trimmed and NFC, so it matches names stored the same way. */
export function searchText(max = 100) {
  return optionalText(max);
}

// eslint-disable-next-line no-control-regex -- NUL is what PostgreSQL cannot store
const NUL = /\u0000/;

/** The first string inside a JSON value that PostgreSQL cannot store (NUL, unpaired surrogate). */
function unstorableString(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') {
    if (NUL.test(value)) return 'NUL characters (U+0000) are not allowed.';
    if (UNPAIRED_SURROGATE.test(value)) return 'Contains an unpaired surrogate: not valid Unicode text.';
    return undefined;
  }
  if (typeof value !== 'object' || value === null || depth > 64) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const problem = unstorableString(key, depth + 1) ?? unstorableString(item, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

/** The check of a whole JSON document read by its handler (an uploaded notebook). */
export const storableJsonCheck = z.superRefine<unknown>((value, ctx) => {
  const problem = unstorableString(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
});

/**
 * A JSON document as uploaded, checked by its handler. Files keep what they hold (ANSI colours in a
 * notebook's tracebacks), so only what cannot be stored is refused: NUL and unpaired surrogates.
 */
export function uploadedJson() {
  return z.unknown().check(storableJsonCheck);
}
