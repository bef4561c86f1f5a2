import { str } from './text.ts';

let known: ReadonlySet<string> | null = null;

/** Engines list every IANA zone but UTC itself (V8's list has no `UTC`), so it is added. */
function knownZones(): ReadonlySet<string> {
  known ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
  return known;
}

/**
 * The time zones a course may have: this engine's IANA zones (`Intl.supportedValuesOf('timeZone')`)
 * and `UTC`, in alphabetical order. The web app offers the browser's list, the API checks against its own.
 */
export function supportedTimeZones(): string[] {
  return [...knownZones()].sort();
}

/**
 * The zone as the list spells it, or null when it is none. Another name of a listed zone, or another
 * case, becomes the listed name: browsers differ in which of two aliases they list (Firefox offers
 * `Asia/Kolkata` where V8 lists `Asia/Calcutta`), and a zone picked in one must be accepted by the other.
 */
export function canonicalTimeZone(value: string): string | null {
  const zones = knownZones();
  if (zones.has(value)) return value;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
    return zones.has(resolved) ? resolved : null;
  } catch {
    return null;
  }
}

export const TIME_ZONE_MESSAGE = 'Not a known time zone: give an IANA name such as Asia/Tokyo, or UTC.';

/** An IANA time zone name in a request (`Asia/Tokyo`), stored as the list spells it. */
export function timeZone() {
  return str()
    .trim()
    .max(64)
    .overwrite((value) => canonicalTimeZone(value) ?? value)
    .refine((value) => knownZones().has(value), { message: TIME_ZONE_MESSAGE });
}
