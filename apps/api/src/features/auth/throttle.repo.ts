import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { loginThrottle } from '../../db/schema.ts';

/**
 * Counts one attempt against `key` in its fixed window, unless the window already holds `max`.
 * Returns false when the key is over its limit. One statement: the conflict takes the row lock, so
 * concurrent attempts cannot all slip past the limit before any of them is counted.
 */
export async function reserveAttempt(
  db: Executor,
  key: string,
  max: number,
  windowSeconds: number,
): Promise<boolean> {
  const expired = sql`${loginThrottle.windowStartedAt} <= now() - make_interval(secs => ${windowSeconds})`;
  const rows = await db
    .insert(loginThrottle)
    .values({ key, failures: 1, windowStartedAt: sql`now()` })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: sql`CASE WHEN ${expired} THEN 1 ELSE ${loginThrottle.failures} + 1 END`,
        windowStartedAt: sql`CASE WHEN ${expired} THEN now() ELSE ${loginThrottle.windowStartedAt} END`,
      },
      setWhere: sql`${loginThrottle.failures} < ${max} OR ${expired}`,
    })
    .returning({ failures: loginThrottle.failures });
  return rows.length > 0;
}

/** Gives back an attempt that turned out not to be a failure. */
export async function releaseAttempt(db: Executor, key: string): Promise<void> {
  await db
    .update(loginThrottle)
    .set({ failures: sql`greatest(${loginThrottle.failures} - 1, 0)` })
    .where(eq(loginThrottle.key, key));
}

export async function clearAttempts(db: Executor, key: string): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, key));
}

/** Whole seconds until the key's window ends (at least 1). */
export async function secondsUntilWindowEnds(
  db: Executor,
  key: string,
  windowSeconds: number,
): Promise<number> {
  const rows = await db
    .select({
      seconds: sql<number>`greatest(1, ceil(extract(epoch from (${loginThrottle.windowStartedAt} + make_interval(secs => ${windowSeconds})) - now())))::int`,
    })
    .from(loginThrottle)
    .where(eq(loginThrottle.key, key));
  return Number(rows[0]?.seconds ?? windowSeconds);
}

/** Forgets counters whose window has closed (they would restart at 1 anyway); returns how many. */
export async function deleteClosedWindows(db: Executor, windowSeconds: number): Promise<number> {
  const rows = await db
    .delete(loginThrottle)
    .where(sql`${loginThrottle.windowStartedAt} <= now() - make_interval(secs => ${windowSeconds})`)
    .returning({ key: loginThrottle.key });
  return rows.length;
}
