import { describe, expect, it } from 'vitest';
import { HINT_MS, MAX_HINTS, probeFellShort, rememberShortProbe } from './search-hints.ts';

describe('search hints (probes that came up short)', () => {
  it('are remembered per database handle, for HINT_MS', () => {
    const db = {};
    const other = {};
    expect(probeFellShort(db, 'q', 1_000)).toBe(false);
    rememberShortProbe(db, 'q', 1_000);
    expect(probeFellShort(db, 'q', 1_000 + HINT_MS - 1)).toBe(true);
    expect(probeFellShort(other, 'q', 1_000)).toBe(false);
    expect(probeFellShort(db, 'other query', 1_000)).toBe(false);
    expect(probeFellShort(db, 'q', 1_000 + HINT_MS)).toBe(false);
    // Expired hints are gone, not revived.
    expect(probeFellShort(db, 'q', 1_000)).toBe(false);
  });

  it('keep at most MAX_HINTS, dropping the one remembered longest ago', () => {
    const db = {};
    for (let i = 0; i < MAX_HINTS; i += 1) rememberShortProbe(db, `q${i}`, 5_000);
    rememberShortProbe(db, 'q0', 5_001); // remembered again: now the newest
    rememberShortProbe(db, 'new', 5_002);
    expect(probeFellShort(db, 'q0', 5_003)).toBe(true);
    expect(probeFellShort(db, 'q1', 5_003)).toBe(false);
    expect(probeFellShort(db, 'q2', 5_003)).toBe(true);
    expect(probeFellShort(db, 'new', 5_003)).toBe(true);
  });
});
