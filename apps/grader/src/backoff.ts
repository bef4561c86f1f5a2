/**
 * Start-up that waits for the database instead of exiting (docs/deploy.md, "Faults"): a service
 * started before PostgreSQL, or during an outage, logs why it waits and goes on once it can.
 */

export interface BackoffLog {
  warn(message: string): void;
}

/** Delays between attempts: 1 s doubling up to 30 s. */
export const BACKOFF_MS = { first: 1000, max: 30_000 };

/**
 * Runs `fn` until it resolves, waiting longer after each failure. `isFatal` errors are thrown at once
 * (a wrong password does not fix itself); every other failure is logged with `what` and retried.
 */
export async function untilItWorks<T>(
  what: string,
  fn: () => Promise<T>,
  log: BackoffLog,
  options: { isFatal?: (error: unknown) => boolean; delays?: { first: number; max: number } } = {},
): Promise<T> {
  const delays = options.delays ?? BACKOFF_MS;
  let delay = delays.first;
  for (;;) {
    try {
      return await fn();
    } catch (error) {
      if (options.isFatal?.(error)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      log.warn(`${what} failed (${message}); trying again in ${Math.round(delay / 1000)} s`);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, delays.max);
    }
  }
}

/** PostgreSQL refusals that waiting will not cure: bad credentials, no such database or role. */
export function isConfigurationError(error: unknown): boolean {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  // 28P01 wrong password, 28000 no pg_hba entry / role, 3D000 no such database.
  return code === '28P01' || code === '28000' || code === '3D000';
}
