/*
 * PostgreSQL's error codes (SQLSTATE), for services that turn a refused statement into an answer (a
 * duplicate name is a 409). Pure: it reads an error, it never touches the database, so services may
 * import it.
 */

/** The PostgreSQL error code (SQLSTATE) of a failed statement, looking through drizzle's wrapper. */
export function sqlStateOf(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if ('code' in current && typeof current.code === 'string' && /^[0-9A-Z]{5}$/.test(current.code)) {
      return current.code;
    }
    current = current.cause;
  }
  return null;
}

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';

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
