/**
 * Runs `body` with the process's local time zone set to `zone` (Node reads TZ again on every change),
 * then puts the zone back: what a page computes in "the browser's zone" is tested in several.
 */
export function inZone(zone: string, body: () => void): void {
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    body();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}
