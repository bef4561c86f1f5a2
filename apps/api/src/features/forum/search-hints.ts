/*
 * Searches whose probe came up short lately (docs/forum.md, "Search"). The probe walks the newest
 * topics for a search's first 101 matches; a rarer word has fewer there, and the walk (about 3 ms for
 * 2,000 topics) was wasted before the search index answered. Remembered, the same search — its next
 * page, another student's identical query — goes to the index at once.
 *
 * A hint picks the way to the answer, never the answer: both ways give the same pages, so a word that
 * has become common since is answered correctly all the same (by the index, a little slower) until its
 * hint expires. Kept per database handle (each process its own), at most MAX_HINTS, each for HINT_MS.
 */

export const HINT_MS = 10 * 60_000;
export const MAX_HINTS = 1000;

/** Per database handle: search key → when its probe came up short (ms since the epoch). */
const shortProbes = new WeakMap<object, Map<string, number>>();

/** Whether the probe of this search came up short within HINT_MS. */
export function probeFellShort(db: object, key: string, now = Date.now()): boolean {
  const hints = shortProbes.get(db);
  const at = hints?.get(key);
  if (at === undefined) return false;
  if (now - at < HINT_MS) return true;
  hints?.delete(key);
  return false;
}

/** Remembers that the probe of this search came up short (the oldest hint goes beyond MAX_HINTS). */
export function rememberShortProbe(db: object, key: string, now = Date.now()): void {
  let hints = shortProbes.get(db);
  if (!hints) shortProbes.set(db, (hints = new Map()));
  hints.delete(key); // re-inserted last: the Map's order is the order of remembering
  hints.set(key, now);
  if (hints.size > MAX_HINTS) {
    const oldest = hints.keys().next();
    if (!oldest.done) hints.delete(oldest.value);
  }
}
