/**
 * What every long-running Kadai process (API, grader, kernel host) does around its own work: stop on
 * SIGTERM/SIGINT within a grace period, and survive a rejection nobody awaited (docs/deploy.md).
 */

/**
 * On the first SIGTERM or SIGINT: `announce(signal)`, then `close()`, then exit 0 — or exit 1 when
 * closing fails or takes longer than `graceMs`.
 */
export function stopOnSignals(
  graceMs: number,
  announce: (signal: string) => void,
  close: () => Promise<void>,
): void {
  let closing = false;
  const stop = async (signal: string) => {
    if (closing) return;
    closing = true;
    announce(signal);
    const timer = setTimeout(() => {
      console.error('shutdown took too long; exiting');
      process.exit(1);
    }, graceMs);
    timer.unref();
    try {
      await close();
      process.exit(0);
    } catch (error) {
      console.error('error during shutdown', error);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/**
 * Runs the process's `main`; a failure of start-up ends the process with its message. A rejection
 * nobody awaited is a bug (the tests fail on one, the cluster test on this `BUG` line); in a running
 * service it is logged rather than allowed to end every request and job in the process.
 */
export function runService(
  main: () => Promise<void>,
  logBug: (message: string) => void = console.error,
): void {
  process.on('unhandledRejection', (reason) => {
    logBug(
      `BUG unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
    );
  });
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
