// The embedded database's backup (issue 41, docs/deploy.md "Backups"): a world on a PGlite data
// directory with files in the local store, backed up once the database is closed, refused while it is
// open, restored into a new DATA_DIR, and compared row for row and file for file. The PostgreSQL drill,
// with processes and a grader, is apps/api/test/cluster/backup.test.ts.
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, openAsBlob, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { newStorageKey } from '@kadai/storage';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness.ts';
import { createCourse, createUser } from '../../test/factories.ts';
import { TEMPLATE_DUMP } from '../../test/paths.ts';
import { insertAssignment, insertSubmission } from '../features/assignments/testing.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { BackupRefusal, countRows, EXIT, readManifest } from './backup-manifest.ts';
import { createBackup } from './backup.ts';
import { restoreBackup } from './restore.ts';
import { storageRoot } from './storage.ts';

const SECRET = 'a-server-secret-for-the-embedded-backup-test-0123456789';
const work = mkdtempSync(path.join(os.tmpdir(), 'kadai-backup-embedded-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const configFor = (dataDir: string) =>
  loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET, STORAGE: 'local', LOG_LEVEL: 'silent' });
const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('backup and restore of the embedded database', () => {
  it('backs up a closed data directory with its files, refuses an open one, and restores both whole', async () => {
    const source = path.join(work, 'source');
    const sourceDir = path.join(source, 'pglite');
    mkdirSync(sourceDir, { recursive: true });
    const pglite = await PGlite.create({ dataDir: sourceDir, loadDataDir: await openAsBlob(TEMPLATE_DUMP) });
    const database = await openDatabase({ pglite });
    // A world through the app's own factories, on this data directory.
    const t = await createTestApp({
      env: { STORAGE: 'local' },
      sameDatabaseAs: { database, databaseUrl: undefined },
    });
    const files = new Map<string, Buffer>();
    try {
      const course = await createCourse(t);
      const student = await createUser(t);
      const assignment = await insertAssignment(t, { courses: [{ courseId: course.id }] });
      await insertSubmission(t, {
        assignmentId: assignment.id,
        courseId: course.id,
        userId: student.id,
        score: 7,
      });
      for (const size of [5, 600_000]) {
        const key = newStorageKey(`assignments/${assignment.id}`);
        const bytes = randomBytes(size);
        await t.ctx.storage.put(key, bytes, 'application/octet-stream');
        await database.query(
          `INSERT INTO assignment_files (assignment_id, filename, storage_key, size, content_type)
           VALUES ($1, $2, $3, $4, 'application/octet-stream')`,
          [assignment.id, `f${size}.bin`, key, size],
        );
        files.set(key, bytes);
      }
      cpSync(storageRoot(t.config), path.join(source, 'files'), { recursive: true });
    } finally {
      await t.close();
    }

    // Open (the API running): refused, and nothing is left in the folder.
    const refused = path.join(work, 'refused');
    const error = await createBackup({ to: refused, config: configFor(source), log: () => {} }).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(BackupRefusal);
    expect(error instanceof BackupRefusal && error.exitCode).toBe(EXIT.target);
    expect(String(error)).toContain('Stop the API first');
    await pglite.close();

    const backup = path.join(work, 'backup');
    const { manifest } = await createBackup({ to: backup, config: configFor(source), log: () => {} });
    expect(readManifest(backup)).toEqual(manifest);
    expect(manifest.database).toMatchObject({ driver: 'pglite', format: 'pglite-datadir' });
    expect(manifest.tables['public.submissions']).toBe(1);
    expect(Object.fromEntries(manifest.files.map((f) => [f.key, f.sha256]))).toEqual(
      Object.fromEntries([...files].map(([key, bytes]) => [key, digest(bytes)])),
    );

    const target = path.join(work, 'target');
    const logged: string[] = [];
    const result = await restoreBackup({
      from: backup,
      config: configFor(target),
      log: (l) => logged.push(l),
    });
    expect(result.pendingMigrations).toBe(0);
    expect(logged.join('\n')).not.toContain('JWT_SECRET');
    for (const [key, bytes] of files) {
      expect(digest(readFileSync(path.join(target, 'files', key)))).toBe(digest(bytes));
    }
    const restored = await PGlite.create({ dataDir: path.join(target, 'pglite') });
    try {
      const query = async (text: string) => ({
        rows: (await restored.query<Record<string, unknown>>(text)).rows,
      });
      expect(await countRows(query)).toEqual(manifest.tables);
      expect((await restored.query<{ score: number }>('SELECT score FROM submissions')).rows).toEqual([
        { score: 7 },
      ]);
    } finally {
      await restored.close();
    }

    // A second restore into the same DATA_DIR: refused, the database there untouched.
    const again = await restoreBackup({ from: backup, config: configFor(target), log: () => {} }).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(again instanceof BackupRefusal && again.exitCode).toBe(EXIT.target);
  }, 120_000);
});
