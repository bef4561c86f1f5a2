import { sql, type Placeholder } from 'drizzle-orm';
import type { Executor } from './client.ts';

/**
 * Hot reads are prepared once per executor (named statements on PostgreSQL): on routes that run on
 * nearly every page, building the query with drizzle and planning it each time cost more than running
 * it. `nameOf` gives each variant its own statement name (at most 63 characters).
 */
export function statementCache<K, T>(
  nameOf: (key: K) => string,
  build: (db: Executor, key: K, name: string) => T,
) {
  const cache = new WeakMap<Executor, Map<string, T>>();
  return (db: Executor, key: K): T => {
    const name = nameOf(key);
    let byName = cache.get(db);
    if (!byName) cache.set(db, (byName = new Map()));
    let statement = byName.get(name);
    if (!statement) byName.set(name, (statement = build(db, key, name)));
    return statement;
  };
}

/**
 * A LIMIT written into a prepared statement instead of bound to it. PostgreSQL re-plans a prepared
 * statement on every execution until its one-time ("generic") plan looks as cheap, and it estimates a
 * bound LIMIT as a tenth of the rows: a page of 21 topics was planned anew each time (0.5 ms, more than
 * running it), or, forced generic, hash-joined the whole table. With the number in the text the
 * statement is planned once. Give each limit its own statement name.
 */
export function literalLimit(rows: number): Placeholder {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new Error(`Not a row count: ${rows}`);
  // drizzle writes every object given to limit() into the statement as it is (its dialect's
  // buildSelectQuery); its signature names Placeholder only.
  return sql.raw(String(rows)) as unknown as Placeholder;
}
