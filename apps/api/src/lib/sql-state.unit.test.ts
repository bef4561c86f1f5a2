import net from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, sqlStateOf } from './sql-state.ts';

const coded = (code: string, message = 'refused') => Object.assign(new Error(message), { code });

/** A port on loopback that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('isDatabaseUnavailable', () => {
  it('knows a server that is not there from a statement that is wrong', async () => {
    const pool = new pg.Pool({ connectionString: `postgres://u@127.0.0.1:${await closedPort()}/x` });
    const refused = await pool.query('SELECT 1').catch((error: unknown) => error);
    await pool.end();
    expect(isDatabaseUnavailable(refused)).toBe(true);
    // Wrapped as drizzle wraps it.
    expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: refused }))).toBe(true);
  });

  it('takes shutdowns, connection exceptions and a database closed to connections', () => {
    for (const code of ['57P01', '57P03', '08006', '08001', '53300']) {
      expect(isDatabaseUnavailable(coded(code)), code).toBe(true);
    }
    const closed = coded('55000', 'database "kadai" is not currently accepting connections');
    expect(isDatabaseUnavailable(closed)).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('leaves every other failure a bug (500) or a conflict', () => {
    for (const code of ['23505', '42P01', '22P02', '40P01', '55000']) {
      expect(isDatabaseUnavailable(coded(code)), code).toBe(false);
    }
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable('a string')).toBe(false);
    expect(sqlStateOf(coded('23505'))).toBe('23505');
  });
});
