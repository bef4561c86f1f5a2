import { headOf, storableText } from '@kadai/sandbox';

/** What is kept of a program's output in the database. */
export const STORED_OUTPUT_CHARS = 64 * 1024;

/**
 * Output as it is stored and answered: NUL and half characters as U+FFFD (PostgreSQL refuses NUL in
 * text and JSON), cut after `max` characters at a whole character (docs/grading.md, "Output").
 */
export function storedText(text: string, max = STORED_OUTPUT_CHARS): string {
  const clean = storableText(text);
  return clean.length > max ? `${headOf(clean, max)}\n… (truncated)` : clean;
}
