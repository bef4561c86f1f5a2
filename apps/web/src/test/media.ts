import { vi } from 'vitest';

/** A MediaQueryList as jsdom lacks it: `matches` as given, listeners accepted and never called. */
export function mediaQueryList(query: string, matches: boolean): MediaQueryList {
  return {
    matches,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  };
}

/** For this test, a screen on which `query` (and no other media query) matches, e.g. a phone's. */
export function stubScreenMatching(query: string): void {
  vi.stubGlobal('matchMedia', (asked: string) => mediaQueryList(asked, asked === query));
}
