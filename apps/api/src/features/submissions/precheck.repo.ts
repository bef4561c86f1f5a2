import { and, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { recentWindow } from '../../db/recent.ts';
import { precheckRuns } from '../../db/schema-submissions.ts';

/**
 * How many prechecks the user ran on the assignment within the last `windowSeconds`, and in how many
 * seconds the oldest of them leaves the window.
 */
export async function countRecentPrechecks(
  db: Executor,
  key: { assignmentId: number; userId: number },
  windowSeconds: number,
): Promise<{ count: number; retryAfterSeconds: number }> {
  const recent = recentWindow(precheckRuns.createdAt, windowSeconds);
  const [row] = await db
    .select(recent.columns)
    .from(precheckRuns)
    .where(
      and(
        eq(precheckRuns.userId, key.userId),
        eq(precheckRuns.assignmentId, key.assignmentId),
        recent.inWindow,
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
