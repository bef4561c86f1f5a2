import { Column, is, SQL, sql, type Placeholder, type Query } from 'drizzle-orm';
import type { Executor } from './client.ts';

/**
 * Hot reads are prepared once per executor (named statements on PostgreSQL): on routes that run on
 * nearly every page, building the query with drizzle and planning it each time cost more than running
 * it. `nameOf` gives each variant its own statement name (at most 63 characters). Selects are built
 * with prepareSelect, writes with drizzle's `.prepare(name)`.
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

/** How a selected field's value is read from the driver: the column's decoder, or the expression's. */
function decoderOf(name: string, field: unknown): (value: unknown) => unknown {
  if (is(field, Column)) return (value) => field.mapFromDriverValue(value);
  const expression = is(field, SQL.Aliased) ? field.sql : is(field, SQL) ? field : null;
  if (!expression) throw new Error(`prepareSelect: "${name}" is not a column or an expression (nested?)`);
  // drizzle keeps an expression's decoder (mapWith) on the SQL object without typing it.
  const decoder: unknown = Reflect.get(expression, 'decoder');
  if (typeof decoder === 'object' && decoder !== null && 'mapFromDriverValue' in decoder) {
    const map: unknown = decoder.mapFromDriverValue;
    if (typeof map === 'function') return (value) => map.call(decoder, value);
  }
  return (value) => value;
}

/**
 * A select prepared under `name`, its rows decoded by a mapper built once from its (flat) selection —
 * each field's own decoder, looked up once — instead of drizzle's row mapper, which asks every field of
 * every row what kind it is (walking prototype chains): 0.12 ms of API CPU for a forum page of 21 rows
 * with 31 fields, a sixth of the request. Same rows, same types (prepared.test.ts compares them); every
 * statementCache select is prepared with it. A nested selection (`{ user: users }`) is refused: select
 * the columns flat and build the object after.
 */
export function prepareSelect<TRow extends Record<string, unknown>>(
  db: Executor,
  query: { toSQL(): Query; _: { config: { fields: Record<string, unknown> } } } & PromiseLike<TRow[]>,
  name: string,
) {
  const fields = Object.entries(query._.config.fields).map(
    ([key, field]) => [key, decoderOf(key, field)] as const,
  );
  const mapRows = (rows: unknown[][]): TRow[] =>
    rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < fields.length; i += 1) {
        const value = row[i];
        const [key, decode] = fields[i]!;
        out[key] = value === null ? null : decode(value);
      }
      // The row has exactly the selection's keys, decoded as drizzle would (prepared.test.ts).
      return out as TRow;
    });
  return db._.session.prepareQuery<{ execute: TRow[]; all: unknown; values: unknown }>(
    query.toSQL(),
    undefined,
    name,
    true,
    mapRows,
  );
}
