/** The grader's `SqlClient` over a `pg.Pool`, for `npm run grader` on its own host. */
import type pg from 'pg';
import type { SqlClient } from './types.ts';

export function createPgSql(pool: pg.Pool): SqlClient {
  return {
    async query(text, values) {
      const result = await pool.query<Record<string, unknown>>(text, values);
      return { rows: result.rows };
    },
    async transaction(fn) {
      const conn = await pool.connect();
      try {
        await conn.query('BEGIN');
        const result = await fn(async (text, values) => ({
          rows: (await conn.query<Record<string, unknown>>(text, values)).rows,
        }));
        await conn.query('COMMIT');
        return result;
      } catch (error) {
        await conn.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        conn.release();
      }
    },
  };
}
