import type { TestApp } from '../../../test/harness.ts';

/* Reading the whole database for the privacy tests: references to users, rows naming a person, text. */

/** Every column that references users.id, from the database's own constraints. */
export async function userReferences(t: TestApp): Promise<{ table: string; column: string }[]> {
  const { rows } = await t.database.query(
    `SELECT c.conrelid::regclass::text AS table_name, a.attname AS column_name
       FROM pg_constraint c
       JOIN unnest(c.conkey) AS k(attnum) ON true
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
      WHERE c.contype = 'f' AND c.confrelid = 'public.users'::regclass
      ORDER BY 1, 2`,
  );
  return rows.map((row) => ({ table: String(row.table_name), column: String(row.column_name) }));
}

/** Rows of `table` whose `column` is the user. */
export async function countNaming(
  t: TestApp,
  table: string,
  column: string,
  userId: number,
): Promise<number> {
  const { rows } = await t.database.query(
    `SELECT count(*)::int AS n FROM "${table}" WHERE "${column}" = $1`,
    [userId],
  );
  return Number(rows[0]?.n);
}

/**
 * Tables of the public schema whose rows contain `needle` (case-insensitively, as text, or as the bytes
 * of a bytea column, which a row's text writes in hex), with their counts.
 */
export async function tablesContaining(t: TestApp, needle: string): Promise<Record<string, number>> {
  const { rows } = await t.database.query(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY 1`,
  );
  const found: Record<string, number> = {};
  for (const row of rows) {
    const name = String(row.name);
    const hit = await t.database.query(
      `SELECT count(*)::int AS n FROM ONLY public."${name}" t
        WHERE t::text ILIKE '%' || $1 || '%' OR t::text ILIKE '%' || encode(convert_to($1, 'UTF8'), 'hex') || '%'`,
      [needle],
    );
    const n = Number(hit.rows[0]?.n);
    if (n > 0) found[name] = n;
  }
  return found;
}
