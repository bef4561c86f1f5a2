import { lazy, type LazyExoticComponent } from 'react';

// What React.lazy accepts as the loaded component (its own constraint, any props).
type LoadedComponent = Awaited<ReturnType<Parameters<typeof lazy>[0]>>['default'];

// Every on-demand load that has started and not yet settled.
const inFlight = new Set<Promise<unknown>>();

/**
 * React.lazy that remembers its load while it is under way, so a test can wait for it to settle
 * (`settleLazyLoads`) instead of ending with an import half done.
 */
export function lazyComponent<T extends LoadedComponent>(
  load: () => Promise<{ default: T }>,
): LazyExoticComponent<T> {
  return lazy(() => trackedImport(load));
}

/** A dynamic import remembered while it is under way, like `lazyComponent`'s (for loads outside React.lazy). */
export function trackedImport<T>(load: () => Promise<T>): Promise<T> {
  const loading = load();
  inFlight.add(loading);
  const forget = () => inFlight.delete(loading);
  loading.then(forget, forget);
  return loading;
}

/**
 * Resolves when no on-demand load is under way (a settled load may start another, hence the loop).
 * The web tests share one module cache per worker: an import cut off by the end of one test file
 * stays broken for every later file of that worker.
 */
export async function settleLazyLoads(): Promise<void> {
  while (inFlight.size > 0) {
    await Promise.allSettled([...inFlight]);
  }
}
