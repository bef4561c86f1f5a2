// A database connection that dies while it is checked out of the pool — its backend terminated in the
// middle of a transaction — fails that transaction and nothing else: the process lives on (issue 36,
// item 1: before openPool, pg emitted 'error' with no listener and Node exited) and the pool's next
// transaction works. Every way a connection is checked out is tried: the grader's SqlClient, the API's
// raw transaction, its drizzle transaction and its advisory lock.
import { setTimeout as sleep } from 'node:timers/promises';
import { createPgSql, openPool } from '@kadai/grader/pg-sql';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { createDatabase, dropDatabase, query, serverReachable } from './processes.ts';

const reachable = await serverReachable();

const NAME = `kadai_connections_${process.pid}`;
let url = '';

/** Ends the backend `pid` from another connection, then lets its end reach the client as an event. */
async function terminate(pid: number): Promise<void> {
  await query(url, 'SELECT pg_terminate_backend($1)', [pid]);
  await sleep(200);
}

const backendPid = (rows: Record<string, unknown>[]) => Number(rows[0]!.pid);

describe.skipIf(!reachable)('a connection that dies mid-transaction', () => {
  const logged: Error[] = [];
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  let pool: pg.Pool;
  let database: Database;

  beforeAll(async () => {
    // Seen here as well as by vitest: the test says what went wrong, not only that the run had errors.
    process.prependListener('uncaughtException', onUncaught);
    // The API's pool logs each lost connection with its stack: expected here, and only noise.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await dropDatabase(NAME);
    url = await createDatabase(NAME);
    pool = openPool({ connectionString: url, max: 2 }, (error) => logged.push(error));
    database = await openDatabase({ databaseUrl: url, poolSize: 2 });
  });
  afterAll(async () => {
    process.removeListener('uncaughtException', onUncaught);
    vi.restoreAllMocks();
    await pool.end();
    await database.close();
    await dropDatabase(NAME);
  });
  afterEach(() => {
    expect(uncaught).toEqual([]);
  });

  it("fails the grader's transaction, logs the error, and the next transaction works", async () => {
    const sqlClient = createPgSql(pool);
    await expect(
      sqlClient.transaction(async (q) => {
        await terminate(backendPid((await q('SELECT pg_backend_pid() AS pid')).rows));
        return q('SELECT 1');
      }),
    ).rejects.toThrow();
    expect(logged.map((e) => e.message).join('\n')).toMatch(/terminat/);
    const again = await sqlClient.transaction((q) => q('SELECT 2 AS two'));
    expect(again.rows).toEqual([{ two: 2 }]);
  });

  it("fails the API's raw transaction and its drizzle transaction; the pool recovers", async () => {
    await expect(
      database.transaction(async (q) => {
        await terminate(backendPid((await q('SELECT pg_backend_pid() AS pid')).rows));
        return q('SELECT 1');
      }),
    ).rejects.toThrow();
    await expect(
      database.db.transaction(async (tx) => {
        const result = await tx.execute(sql`SELECT pg_backend_pid() AS pid`);
        await terminate(
          z.object({ rows: z.array(z.object({ pid: z.number() })) }).parse(result).rows[0]!.pid,
        );
        await tx.execute(sql`SELECT 1`);
      }),
    ).rejects.toThrow();
    expect((await database.query('SELECT 3 AS three')).rows).toEqual([{ three: 3 }]);
  });

  it('fails work under an advisory lock whose connection dies; the lock is gone with it', async () => {
    const key = 360_001;
    await expect(
      database.withAdvisoryLock(key, async () => {
        const holders = await query(
          url,
          `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND granted`,
          [key],
        );
        await terminate(Number(holders[0]!.pid));
      }),
    ).rejects.toThrow();
    let ran = false;
    await database.withAdvisoryLock(key, async () => {
      ran = true;
    });
    expect(ran).toBe(true);
  });

  it('lives through the server ending every connection while transactions are open', async () => {
    const sqlClient = createPgSql(pool);
    const open = [0, 1].map(() =>
      sqlClient.transaction(async (q) => {
        await q('SELECT 1');
        await sleep(400);
        return q('SELECT 1');
      }),
    );
    await sleep(150);
    await query(
      url,
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'idle in transaction'`,
    );
    const settled = await Promise.allSettled(open);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect((await sqlClient.query('SELECT 4 AS four')).rows).toEqual([{ four: 4 }]);
  });
});
