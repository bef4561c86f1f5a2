import { describe, expect, it } from 'vitest';
import { extensionChoices, isEndingSoon } from './session-time.ts';

describe('session time', () => {
  it('offers the extensions that fit what remains', () => {
    expect(extensionChoices({ extended_minutes: 0, max_extension_minutes: 60 })).toEqual([15, 30, 60]);
    expect(extensionChoices({ extended_minutes: 20, max_extension_minutes: 60 })).toEqual([15, 30]);
    expect(extensionChoices({ extended_minutes: 50, max_extension_minutes: 60 })).toEqual([10]);
    expect(extensionChoices({ extended_minutes: 60, max_extension_minutes: 60 })).toEqual([]);
    expect(extensionChoices({ extended_minutes: 0, max_extension_minutes: 0 })).toEqual([]);
  });

  it('warns in the last five minutes only', () => {
    expect(isEndingSoon(6 * 60_000)).toBe(false);
    expect(isEndingSoon(5 * 60_000)).toBe(true);
    expect(isEndingSoon(0)).toBe(false);
  });
});
