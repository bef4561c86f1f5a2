import { canonicalTimeZone } from '@kadai/contracts';

/*
 * The digest's clock: a person's local date and the moment of their digest that day, in their own time
 * zone. Computed here with the engine's zone data (Intl), the same data the contracts check zones with,
 * rather than by the database, whose zone list may differ and would fail a whole query for one name.
 */

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClock(at: Date, zone: string): WallClock {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(at)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The zone a person's digest follows: theirs when the engine knows it, else the server's default. */
export function zoneOf(saved: string | null | undefined, defaultZone: string): string {
  return (saved && canonicalTimeZone(saved)) || defaultZone;
}

/** The local date at `at` in `zone`, as `YYYY-MM-DD` (what notification_profiles.last_digest_on holds). */
export function localDate(at: Date, zone: string): string {
  const wall = wallClock(at, zone);
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
}

/** How far `zone` is ahead of UTC at `ms`, in milliseconds. */
function offsetAt(ms: number, zone: string): number {
  const wall = wallClock(new Date(ms), zone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

const HALF_DAY_MS = 12 * 3600 * 1000;

/**
 * The instant of `hour`:00 on the local `date` in `zone`. Of an hour a fall-back repeats, the first;
 * an hour a spring-forward skips becomes the instant of the change (02:00 → 03:00).
 */
export function zonedInstant(date: string, hour: number, zone: string): Date {
  const [year, month, day] = date.split('-').map(Number);
  const wall = Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1, hour);
  // The offsets half a day before and after bracket the change of offset on that date, when there is one.
  const candidates = [wall - offsetAt(wall - HALF_DAY_MS, zone), wall - offsetAt(wall + HALF_DAY_MS, zone)];
  const exact = candidates.filter((instant) => instant + offsetAt(instant, zone) === wall);
  return new Date(exact.length > 0 ? Math.min(...exact) : Math.max(...candidates));
}

export interface DigestSlot {
  /** The person's local date at `now`. */
  date: string;
  /** When that day's digest is due. */
  at: Date;
}

/** Today's digest slot for a person (their zone and hour). */
export function digestSlot(now: Date, zone: string, hour: number): DigestSlot {
  const date = localDate(now, zone);
  return { date, at: zonedInstant(date, hour, zone) };
}

/**
 * Whether a person's digest is due: their local time has reached their hour today, today's has not
 * gone yet, and something waiting for it happened before that hour (later events wait for tomorrow's).
 */
export function isDigestDue(
  now: Date,
  slot: DigestSlot,
  lastDigestOn: string | null,
  oldestWaiting: Date | null,
): boolean {
  if (now.getTime() < slot.at.getTime()) return false;
  if (lastDigestOn !== null && lastDigestOn >= slot.date) return false;
  return oldestWaiting !== null && oldestWaiting.getTime() <= slot.at.getTime();
}
