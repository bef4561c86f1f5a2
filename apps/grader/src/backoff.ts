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

/**
 * Waits until every table of `tables` exists. The API owns the schema (it migrates when it starts): a
 * grader or kernel host started beside it on an empty database, or during an outage, waits for it
 * rather than exit; a wrong password or a missing database still stops it.
 */
export async function untilTablesExist(
  query: (text: string) => Promise<{ rows: Record<string, unknown>[] }>,
  tables: string[],
  log: BackoffLog,
  delays: { first: number; max: number } = BACKOFF_MS,
): Promise<void> {
  const checks = tables.map((table) => `to_regclass('${table.replace(/[^a-z_.]/g, '')}') IS NOT NULL`);
  await untilItWorks(
    'waiting for the database and its Kadai tables',
    async () => {
      const { rows } = await query(`SELECT ${checks.join(' AND ')} AS ok`);
      if (rows[0]?.ok !== true) throw new Error('no Kadai tables yet: the API migrates them when it starts');
    },
    log,
    { isFatal: isConfigurationError, delays },
  );
}

/** PostgreSQL refusals that waiting will not cure: bad credentials, no such database or role. */
export function isConfigurationError(error: unknown): boolean {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  // 28P01 wrong password, 28000 no pg_hba entry / role, 3D000 no such database.
  return code === '28P01' || code === '28000' || code === '3D000';
}

/** Node's network errors: the server is not there (yet, or any more). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres's own messages when a connection breaks or cannot be had. */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Cannot use a pool after calling end',
  'is not currently accepting connections',
  'the database system is starting up',
  'the database system is shutting down',
];

/**
 * Whether `error` means the database is unreachable for now (a restart, a failover, a network cut, too
 * many connections) rather than that the statement was wrong: such a request answers 503 with
 * Retry-After, never 500. Looks through drizzle's wrapper and AggregateError (pg tries each address).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen: unknown[] = [error];
  for (let i = 0; i < seen.length && i < 10; i++) {
    const current = seen[i];
    if (!(current instanceof Error)) continue;
    const code = 'code' in current && typeof current.code === 'string' ? current.code : '';
    // Class 08: connection exception; 57P01–57P03: shutdown, crash, cannot connect now; 53300: too many
    // connections; 55000 with "not accepting connections": ALLOW_CONNECTIONS false.
    if (code.startsWith('08') || /^57P0[123]$/.test(code) || code === '53300') return true;
    if (NETWORK_CODES.has(code)) return true;
    if (DRIVER_MESSAGES.some((message) => current.message.includes(message))) return true;
    if (current.cause !== undefined) seen.push(current.cause);
    if (current instanceof AggregateError) seen.push(...current.errors);
  }
  return false;
}

/**
 * Runs `fn`, and again while it fails because the database is away, waiting longer each time, for at
 * most `maxMs` or until `signal` aborts; any other failure, or the database away past that, is thrown. For the writes that
 * finish or hand back work a process already did (a grade, a release): losing them would strand it.
 */
export async function whileDatabaseAway<T>(
  what: string,
  fn: () => Promise<T>,
  log: BackoffLog,
  options: { maxMs: number; signal?: AbortSignal; delays?: { first: number; max: number } },
): Promise<T> {
  const giveUpAt = Date.now() + options.maxMs;
  const delays = options.delays ?? { first: 500, max: 5000 };
  let delay = delays.first;
  for (;;) {
    try {
      return await fn();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() + delay > giveUpAt || options.signal?.aborted)
        throw error;
      log.warn(`${what}: the database is away; trying again in ${Math.round(delay / 100) / 10} s`);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, delays.max);
    }
  }
}
