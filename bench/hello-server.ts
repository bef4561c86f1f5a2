// The machine's ceilings: the same Fastify with no auth and one JSON route (`/hello`), and, when
// BENCH_PG_URL is set, a route (`/db`) that sends one prepared query through a pg.Pool of BENCH_PG_POOL
// connections (default 10; bench:api gives it the API's pool size) — the most a route
// reading PostgreSQL can do here, whatever the application does around it.
import Fastify from 'fastify';
import pg from 'pg';

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
const pool = process.env.BENCH_PG_URL
  ? new pg.Pool({ connectionString: process.env.BENCH_PG_URL, max: Number(process.env.BENCH_PG_POOL ?? 10) })
  : null;
if (pool) {
  app.get('/db', async () => {
    const result = await pool.query({
      name: 'ceiling',
      text: 'SELECT $1::int AS id, now() AS at',
      values: [1],
    });
    return result.rows[0];
  });
}
await app.listen({ port: Number(process.env.BENCH_PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
console.log(JSON.stringify({ ready: true, port }));
