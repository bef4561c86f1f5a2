import { gt, sql, type AnyColumn } from 'drizzle-orm';

/**
 * A rate limit's window over rows stamped `createdAt`: the columns to select (how many rows are in
 * the last `windowSeconds`, and in how many seconds the oldest of them leaves it) and the condition
 * that keeps only those rows.
 */
export function recentWindow(createdAt: AnyColumn, windowSeconds: number) {
  const window = sql`make_interval(secs => ${windowSeconds}::float8)`;
  return {
    columns: {
      count: sql<number>`count(*)::int`.mapWith(Number),
      retryAfterSeconds:
        sql<number>`coalesce(ceil(extract(epoch from min(${createdAt}) + ${window} - now())), 0)::int`.mapWith(
          Number,
        ),
    },
    inWindow: gt(createdAt, sql`now() - ${window}`),
  };
}
