import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { TEMPLATE_DUMP } from './paths.ts';

/**
 * The PGlite databases of one test worker. Loading the migrated template into a new PGlite costs
 * 1.4–2 s of CPU (unpacking 43 MB and starting PostgreSQL), about half of the API project's CPU when
 * each of its ~90 test apps did it. A test app's database goes back here when the app closes, is put
 * back to exactly the template's state (about 0.1 s), and the next test app of the worker takes it.
 *
 * "Exactly the template's state": the template's tables only (tables a test made, such as pg-boss's
 * queue partitions, are dropped), with the template's rows (migrations ledger, pg-boss's version and
 * queue), every sequence where the template left it, and a fresh session (DISCARD ALL: settings,
 * prepared statements, temporary tables, LISTENs, advisory locks). `fingerprint` below is what the
 * pool's own test compares between a reused and a fresh database.
 */

interface TableState {
  /** schema.table, quoted. */
  name: string;
  /** Columns a row can be written to (not generated), quoted and comma-separated. */
  columns: string;
  /** The template's rows as JSON text, or null when the table is empty. */
  rows: string | null;
}

interface TemplateState {
  tables: TableState[];
  sequences: { name: string; lastValue: string | null }[];
}

const USER_SCHEMAS = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'`;

/** At most this many idle databases per worker (each holds up to ~0.9 GB): files use one or two. */
const IDLE_LIMIT = 2;
const idle: PGlite[] = [];
let template: TemplateState | null = null;
export const poolStats = { created: 0, reused: 0 };

type Query = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

/** The user tables (plain and partitioned), as quoted schema.table names. */
async function tableNames(query: Query): Promise<string[]> {
  const { rows } = await query(
    `SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p') AND ${USER_SCHEMAS}
      ORDER BY 1`,
  );
  return rows.map((r) => String(r.name));
}

async function readTemplate(pglite: PGlite): Promise<TemplateState> {
  const tables: TableState[] = [];
  for (const name of await tableNames((text) => pglite.query(text))) {
    const { rows: cols } = await pglite.query<{ columns: string }>(
      `SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) AS columns
         FROM pg_attribute
        WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''`,
      [name],
    );
    const { rows } = await pglite.query<{ rows: string | null }>(
      `SELECT json_agg(t)::text AS rows FROM ONLY ${name} t`,
    );
    tables.push({ name, columns: cols[0]?.columns ?? '', rows: rows[0]?.rows ?? null });
  }
  const { rows: sequences } = await pglite.query<{ name: string; lastValue: string | null }>(
    `SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) AS name,
            last_value::text AS "lastValue"
       FROM pg_sequences ORDER BY 1`,
  );
  return { tables, sequences };
}

async function resetToTemplate(pglite: PGlite, state: TemplateState): Promise<void> {
  if (pglite.isInTransaction()) await pglite.exec('ROLLBACK');
  await pglite.exec('DISCARD ALL');
  const known = new Set(state.tables.map((t) => t.name));
  const extra = (await tableNames((text) => pglite.query(text))).filter((name) => !known.has(name));
  if (extra.length > 0) await pglite.exec(`DROP TABLE IF EXISTS ${extra.join(', ')} CASCADE`);
  await pglite.transaction(async (tx) => {
    await tx.exec(`TRUNCATE ${state.tables.map((t) => t.name).join(', ')} RESTART IDENTITY CASCADE`);
    for (const table of state.tables) {
      if (table.rows === null) continue;
      await tx.query(
        `INSERT INTO ${table.name} (${table.columns}) OVERRIDING SYSTEM VALUE
         SELECT ${table.columns} FROM json_populate_recordset(NULL::${table.name}, $1)`,
        [table.rows],
      );
    }
    for (const seq of state.sequences) {
      await tx.exec(
        seq.lastValue === null
          ? `ALTER SEQUENCE ${seq.name} RESTART`
          : `SELECT setval('${seq.name.replaceAll("'", "''")}', ${BigInt(seq.lastValue)}, true)`,
      );
    }
  });
}

/** A database in the template's state: an idle one of this worker, or a new one from the dump. */
export async function takePglite(): Promise<PGlite> {
  const reused = idle.pop();
  if (reused) {
    poolStats.reused += 1;
    return reused;
  }
  const pglite = await PGlite.create({ loadDataDir: new Blob([readFileSync(TEMPLATE_DUMP)]) });
  template ??= await readTemplate(pglite);
  poolStats.created += 1;
  return pglite;
}

/** Takes a test app's database back: reset for the next app, or closed when not reusable. */
export async function givePgliteBack(pglite: PGlite): Promise<void> {
  if (pglite.closed) return;
  if (template !== null && idle.length < IDLE_LIMIT) {
    try {
      await resetToTemplate(pglite, template);
      idle.push(pglite);
      return;
    } catch {
      // A database a test left unusable is closed, never handed on.
    }
  }
  await pglite.close();
}

/**
 * Every table's rows and every sequence's position: what a reused database must share with a fresh
 * one (the pool's test compares the two).
 */
export async function fingerprint(query: Query): Promise<string> {
  const parts: string[] = [];
  for (const name of await tableNames(query)) {
    const { rows } = await query(`SELECT json_agg(t ORDER BY t::text)::text AS rows FROM ONLY ${name} t`);
    parts.push(`${name}: ${String(rows[0]?.rows ?? '[]')}`);
  }
  const { rows } = await query(
    `SELECT sequencename || '=' || coalesce(last_value::text, 'start') AS s FROM pg_sequences ORDER BY 1`,
  );
  parts.push(...rows.map((r) => String(r.s)));
  return parts.join('\n');
}
