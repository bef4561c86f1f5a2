import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { precheckRuns } from '../../db/schema.ts';

/**
 * How many prechecks the user ran on the assignment within the last `windowSeconds`, and in how many
 * seconds the oldest of them leaves the window.
 */
export async function countRecentPrechecks(
  db: Executor,
  key: { assignmentId: number; userId: number },
  windowSeconds: number,
): Promise<{ count: number; retryAfterSeconds: number }> {
  const window = sql`make_interval(secs => ${windowSeconds}::float8)`;
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`.mapWith(Number),
      retryAfterSeconds:
        sql<number>`coalesce(ceil(extract(epoch from min(${precheckRuns.createdAt}) + ${window} - now())), 0)::int`.mapWith(
          Number,
        ),
    })
    .from(precheckRuns)
    .where(
      and(
        eq(precheckRuns.userId, key.userId),
        eq(precheckRuns.assignmentId, key.assignmentId),
        gt(precheckRuns.createdAt, sql`now() - ${window}`),
      ),
    );
  return row ?? { count: 0, retryAfterSeconds: 0 };
}

/** Records a precheck, and forgets the user's that are more than an hour old. */
export async function recordPrecheck(
  db: Executor,
  key: { assignmentId: number; userId: number },
): Promise<void> {
  await db
    .delete(precheckRuns)
    .where(
      and(eq(precheckRuns.userId, key.userId), lt(precheckRuns.createdAt, sql`now() - interval '1 hour'`)),
    );
  await db.insert(precheckRuns).values(key);
}
