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

/**
 * Whether `error` means the database is unreachable for now rather than that the statement was wrong:
 * such a request answers 503 with Retry-After, never 500. Shared with the grader, which holds its
 * results until the database takes them.
 */
export { isDatabaseUnavailable } from '@kadai/grader/backoff';
