import { Placeholder, sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * `column = SOME($1::int[])` (SQL's array comparison under its other standard name, the same
 * operator and plan): the ids travel as one array parameter, so one prepared statement serves every
 * number of them (drizzle's `inArray` writes one parameter per id, a new statement per length).
 * `ids` is the array itself or a placeholder that will hold it.
 */
export function inIntArray(column: SQLWrapper, ids: readonly number[] | Placeholder): SQL {
  return sql`${column} = SOME(${ids instanceof Placeholder ? ids : sql.param(ids)}::int[])`;
}
