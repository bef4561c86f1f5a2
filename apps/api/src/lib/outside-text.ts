/*
 * Text that comes from outside (an identity provider's attributes, an LMS's claims and rosters): control
 * characters dropped, trimmed and capped; an e-mail that is not one counts as none.
 */

// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed here
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function cleanText(value: string | null | undefined, max: number): string {
  return (value ?? '').replace(CONTROL, '').trim().slice(0, max);
}

/** The address lower-cased, or null when it is not an e-mail address. */
export function emailOrNull(value: string | null | undefined): string | null {
  const email = cleanText(value, 254).toLowerCase();
  return EMAIL.test(email) ? email : null;
}
