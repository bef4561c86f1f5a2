import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { SESSION_DEFAULTS, useSession } from '../features/auth/session.ts';
import enUS from '../i18n/en-US.json';
import { addDictionary, i18n } from '../i18n/index.ts';
import ja from '../i18n/ja.json';
import { settleLazyLoads } from '../ui/lazyComponent.ts';
import { mediaQueryList } from './media.ts';

// findBy*/waitFor default to 1 s; lazy pages on a busy 2-core CI box can take longer than that to load
// (5 s was seen to run out in full runs beside the sandbox's unit tests); under the 15 s test timeout.
configure({ asyncUtilTimeout: 10_000 });

// jsdom lacks the layout APIs Mantine asks for; these stand-ins answer "nothing matches, nothing moved".
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => mediaQueryList(query, false),
  });
}
if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}
Element.prototype.scrollIntoView ??= () => undefined;
// jsdom has no FontFaceSet; Mantine's autosizing textarea listens to it.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });
}

// The app downloads one language's texts at a time (i18n/index.ts); tests switch freely between both.
addDictionary('ja', ja);
addDictionary('en-US', enUS);

// The files of a worker share its modules (isolate: false in vitest.config.ts): each file starts from
// the session and language a fresh page load has, as it did in a process of its own.
beforeAll(async () => {
  localStorage.clear();
  sessionStorage.clear();
  useSession.setState(SESSION_DEFAULTS);
  await i18n.changeLanguage(SESSION_DEFAULTS.displayLang);
});

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(async () => {
  // Mantine keeps notifications in a module-level store: without this they leak into the next test.
  notifications.clean();
  cleanup();
  // A page the router or a Suspense boundary began to load finishes loading before the test ends: the
  // files of a worker share its modules, and an import cut off by the end of a file stays broken for
  // every later file of the worker (vitest: "Cannot load … after the environment was torn down").
  await settleLazyLoads();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
