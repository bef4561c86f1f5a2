// Graders read assignment files through the store the API wrote them to (docs/storage.md): here the
// `postgres` store, read by the grader's own code (apps/grader/src/attachments.ts, as `npm run
// grader` builds it from STORAGE=postgres) over this file's database (a pg.Pool on PostgreSQL runs).
import pg from 'pg';
import { createAttachmentReader } from '@kadai/grader/attachments';
import { createPgSql } from '@kadai/grader/pg-sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueGrading } from '../src/features/submissions/grading.ts';
import { createGradingWorld, createSubmission, waitForSubmission } from './grading-fixtures.ts';
import { createTestApp, type TestApp } from './harness.ts';

describe('a grader with STORAGE=postgres', () => {
  let t: TestApp;
  let pool: pg.Pool | null = null;
  let readAttachment: ((key: string) => Promise<Uint8Array>) | null = null;
  const reads: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      env: { STORAGE: 'postgres' },
      grader: {
        readAttachment: (key) => {
          reads.push(key);
          return readAttachment!(key);
        },
      },
    });
    // As apps/grader/src/main.ts: its own pool on the API's database, where PostgreSQL is a server.
    pool = t.databaseUrl ? new pg.Pool({ connectionString: t.databaseUrl, max: 2 }) : null;
    readAttachment = createAttachmentReader({ STORAGE: 'postgres' }, pool ? createPgSql(pool) : t.database);
  });
  afterAll(async () => {
    // The pool first: closing the app drops this file's database, ending every connection to it.
    await pool?.end();
    await t?.close();
  });

  it('gives the program an attachment stored in the database', async () => {
    expect(t.ctx.storage.kind).toBe('postgres');
    const world = await createGradingWorld(t, [{ expected_stdout: '6' }]);
    const key = `assignments/${world.assignmentId}/numbers`;
    await t.ctx.storage.put(key, Buffer.from('1\n2\n3\n'), 'text/plain');
    const { rows } = await t.database.query('SELECT count(*)::int AS n FROM stored_files WHERE key = $1', [
      key,
    ]);
    expect(rows[0]?.n).toBe(1);
    await t.database.query(
      `INSERT INTO assignment_files (assignment_id, filename, storage_key, size, content_type)
       VALUES ($1, 'numbers.txt', $2, 6, 'text/plain')`,
      [world.assignmentId, key],
    );
    const id = await createSubmission(t, world, {
      'main.py': 'print(sum(int(line) for line in open("numbers.txt")))\n',
    });
    await enqueueGrading(t.ctx, [id]);
    expect(await waitForSubmission(t, id)).toMatchObject({ status: 'Completed', score: 1 });
    expect(reads).toEqual([key]);
  });
});
