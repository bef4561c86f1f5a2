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
