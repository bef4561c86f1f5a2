/** PostgreSQL for the services that run against a server: the pool every one of them opens, and the grader's `SqlClient` over it. */
import pg from 'pg';
import type { SqlClient } from './types.ts';

/**
 * A `pg.Pool` whose connections cannot crash the process. pg-pool listens for a connection's `'error'`
 * only while it is idle and removes that listener on checkout, so a connection that dies while checked
 * out — a backend terminated or the server gone in the middle of a transaction — emits `'error'` to
 * nobody, and Node exits on it. Every connection gets a listener of its own when it is opened: the error
 * is logged, the query that was running (or the next one) fails, and the pool drops the connection when
 * it is released. Every pool of the API, the grader and the kernel host is opened here.
 */
export function openPool(config: pg.PoolConfig, onError: (error: Error) => void): pg.Pool {
  const pool = new pg.Pool(config);
  // An idle connection's error reaches the pool too; the connection's own listener has logged it.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', onError));
  return pool;
}

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
