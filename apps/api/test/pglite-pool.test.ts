import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { createCourseWorld } from './factories.ts';
import { createTestApp } from './harness.ts';
import { TEMPLATE_DUMP } from './paths.ts';
import { fingerprint, poolStats } from './pglite-pool.ts';

// The embedded database only: PostgreSQL runs copy a template database per app instead.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('the PGlite pool of a test worker', () => {
  it('hands the next test app a database in exactly the template state', async () => {
    const fresh = await PGlite.create({ loadDataDir: new Blob([readFileSync(TEMPLATE_DUMP)]) });
    const expected = await fingerprint((text) => fresh.query(text));
    await fresh.close();

    // A test app that writes rows, starts the queue (pg-boss adds partitions), makes a table of its
    // own and leaves session state behind.
    const first = await createTestApp({ jobs: true });
    await createCourseWorld(first);
    await first.ctx.jobs.send('pool-test', { n: 1 });
    await first.database.query('CREATE TABLE public.stray (id int)');
    await first.database.query(`SET TIME ZONE 'Asia/Tokyo'`);
    await first.database.query('SELECT pg_advisory_lock(42)');
    expect(await fingerprint(first.database.query)).not.toEqual(expected);
    await first.close();

    const reusedBefore = poolStats.reused;
    const next = await createTestApp();
    try {
      expect(poolStats.reused).toBe(reusedBefore + 1);
      // An app announces itself as a workbook kernel host when it starts: the only row it may find is
      // its own, never one the first app left.
      const ownRowOnly = (print: string) =>
        print.replace(/public\.kernel_hosts: \[.*\]/, 'public.kernel_hosts: []');
      const hosts = await next.database.query('SELECT id FROM kernel_hosts');
      expect(hosts.rows.map((r) => r.id)).toEqual([next.app.kernelHost.id]);
      expect(ownRowOnly(await fingerprint(next.database.query))).toEqual(ownRowOnly(expected));
      const zone = await next.database.query('SHOW TimeZone');
      expect(zone.rows[0]).toEqual({ TimeZone: 'UTC' });
      const locks = await next.database.query(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'`,
      );
      expect(locks.rows[0]).toEqual({ n: 0 });
    } finally {
      await next.close();
    }
  });
});
