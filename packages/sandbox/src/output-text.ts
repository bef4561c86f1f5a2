/*
 * Program output as text that every store and reader takes. A program may write anything: NUL
 * characters (`print('\0')`), bytes that are not UTF-8 (`sys.stdout.buffer.write(b'\xff')`), or a
 * Python string with half a surrogate pair. Bytes are decoded as UTF-8 with U+FFFD for what is not
 * UTF-8 (capture.ts, the kernel's driver); what is left that PostgreSQL refuses in text and JSON (NUL)
 * or that is not Unicode text at all (an unpaired surrogate) is replaced here with U+FFFD as well, so
 * one symbol stands for "a character that cannot be shown", whatever the program wrote.
 *
 * The sandbox's own results keep NUL (an io comparison and a check script see what the program
 * printed); whoever stores or answers output passes it through `storableText` first.
 */

// Matches NUL, and, with the `u` flag, a surrogate only when it is not half of a pair.
// eslint-disable-next-line no-control-regex -- NUL is what is replaced
const UNSTORABLE = /[\u0000\p{Cs}]/gu;

/** `text` with NUL and unpaired surrogates replaced by U+FFFD (the same length in UTF-16 units). */
export function storableText(text: string): string {
  UNSTORABLE.lastIndex = 0;
  return UNSTORABLE.test(text) ? text.replace(UNSTORABLE, '\uFFFD') : text;
}

/** The first `max` UTF-16 units of `text`, one fewer when the cut would fall inside a surrogate pair. */
export function headOf(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  const isHighSurrogate = last >= 0xd800 && last <= 0xdbff;
  return text.slice(0, isHighSurrogate ? max - 1 : max);
}
