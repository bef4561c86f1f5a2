// The restore drill (issue 41, docs/deploy.md "Backups"): an API and a grader on PostgreSQL with the
// local file store; a world of users, courses, assignments with attached files, forum files and graded
// submissions; `npm run backup` taken while the grader grades a burst of submissions and more
// submissions and uploads keep arriving; `npm run restore` into a fresh database and a fresh file
// folder; then every table's row count and every file's checksum compared with the manifest, every row
// that names a file checked against the restored store, and an API started on the restored database
// serving the same grades and files. Also: the same world backed up with STORAGE=postgres (files in the
// dump) restores with the same checksums; a restore into a database that is not empty is refused; a
// backup with a tampered file is refused before anything is written. Needs a PostgreSQL server
// (TEST_DATABASE_URL's, or 127.0.0.1:5432); without one it is skipped, saying so.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_S3_CREDENTIALS, startTestS3Server } from '@kadai/storage/testing';
import { STORAGE_KEY_COLUMNS } from '../../src/lib/storage-migrate.ts';
import {
  api,
  createDatabase,
  dropDatabase,
  freePort,
  query,
  ROOT,
  serverReachable,
  startService,
  stopAll,
  started,
  waitFor,
  type Service,
} from './processes.ts';

const reachable = await serverReachable();
if (!reachable)
  console.warn('backup drill skipped: no PostgreSQL server on 127.0.0.1:5432 or TEST_DATABASE_URL');

const PASSWORD = 'demo-password-2026';
const SECRET = randomBytes(32).toString('hex');
const STUDENTS = ['student1@example.com', 'student2@example.com', 'student3@example.com'];
/** Each test case sleeps, so a burst keeps the grader busy through the backup (2 runs at a time). */
const SLOW = 'import time\ntime.sleep(0.7)\n';
const BURST = 18;

interface Manifest {
  schema: { migration: string };
  database: { driver: string; file: string };
  tables: Record<string, number>;
  storage: { kind: string; files: string; referencedKeys: string[] };
  files: { key: string; size: number; sha256: string }[];
}

interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** `node scripts/<script> ...args` as an operator runs it (`npm run backup -- …` runs the same). */
function runCommand(script: string, args: string[], env: Record<string, string>): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Every file under `root`, by key, with its bytes' SHA-256. */
function filesUnder(root: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.set(path.relative(root, full).split(path.sep).join('/'), sha256(readFileSync(full)));
  }
  return files;
}

/** Every storage key the rows of the database at `url` name. */
async function referencedKeys(url: string): Promise<string[]> {
  const keys: string[] = [];
  for (const column of STORAGE_KEY_COLUMNS) {
    const rows = await query<{ key: string }>(
      url,
      `SELECT ${column.key} AS key FROM ${column.table} WHERE ${column.key} IS NOT NULL`,
    );
    keys.push(...rows.map((row) => row.key));
  }
  return keys.sort();
}

/** Row counts of the tables the manifest lists, counted here (ONLY: a partition's rows once). */
async function countTables(url: string, names: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of names) {
    const [schema, table] = name.split('.') as [string, string];
    const [row] = await query<{ n: string }>(
      url,
      `SELECT count(*)::text AS n FROM ONLY "${schema}"."${table}"`,
    );
    counts[name] = Number(row?.n);
  }
  return counts;
}

/** The tables of a database, as `schema.table`. */
async function tablesOf(url: string): Promise<string[]> {
  const rows = await query<{ name: string }>(
    url,
    `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
      ORDER BY 1`,
  );
  return rows.map((row) => row.name);
}

describe.skipIf(!reachable)(
  'the restore drill: backed up while grading, restored into a fresh database',
  () => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'kadai-backup-drill-'));
    const logDir = path.join(work, 'logs');
    mkdirSync(logDir);
    const databases: string[] = [];
    const dir = (name: string) => path.join(work, name);
    let source = '';
    let sourceApi = '';
    let grader: Service;
    let course = 0;
    const assignments: { id: number; title: string }[] = [];
    const tokens = new Map<string, string>();
    /** Bytes of every file uploaded, by file name. */
    const uploads = new Map<string, Buffer>();
    let backupDir = '';
    let manifest: Manifest;
    let restored = '';

    const newDatabase = async (label: string) => {
      const name = `kadai_backup_${label}_${process.pid}_${randomBytes(3).toString('hex')}`;
      databases.push(name);
      return createDatabase(name);
    };
    const envOf = (url: string, files: string, store = 'local'): Record<string, string> => ({
      DATABASE_URL: url,
      DATA_DIR: mkdtempSync(path.join(work, 'data-')),
      STORAGE: store,
      STORAGE_DIR: files,
      JWT_SECRET: SECRET,
    });
    const startApi = async (name: string, url: string, files: string) => {
      const port = await freePort();
      startService(
        name,
        'scripts/start.mjs',
        {
          ...envOf(url, files),
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          RUN_GRADER: 'false',
          SKIP_WEB_BUILD: 'true',
          INSTALL_SYSTEM_PACKAGES: 'false',
          WORKBOOK_MAX_KERNELS: '0',
        },
        logDir,
      );
      const base = `http://127.0.0.1:${port}`;
      await waitFor(
        `${name} healthy`,
        async () => ((await api(base, 'GET', '/api/health')).status === 200 ? true : undefined),
        90_000,
        500,
      );
      return base;
    };
    const signIn = async (base: string, email: string) => {
      const reply = await api(base, 'POST', '/api/Auth/Token/', { body: { email, password: PASSWORD } });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return (reply.body as { access: string }).access;
    };
    const submit = async (email: string, assignment: { id: number; title: string }) => {
      const code =
        SLOW +
        (assignment.title === 'Hello, world'
          ? 'print("Hello, world!")\n'
          : 'a, b = map(int, input().split())\nprint(a + b)\n');
      return api(sourceApi, 'POST', '/api/Submission/Submit/', {
        token: tokens.get(email)!,
        body: { assignment_id: assignment.id, course_id: course, code },
      });
    };
    const upload = async (url: string, token: string, name: string, size: number) => {
      const bytes = randomBytes(size);
      const form = new FormData();
      form.append('file', new Blob([bytes]), name);
      const reply = await api(sourceApi, 'POST', url, { token, form });
      if (reply.status === 201) uploads.set(name, bytes);
      return reply.status;
    };

    beforeAll(async () => {
      source = await newDatabase('source');
      const files = dir('files-source');
      sourceApi = await startApi('source-api', source, files);
      grader = startService(
        'source-grader',
        'scripts/grader.mjs',
        {
          ...envOf(source, files),
          GRADER_CONCURRENCY: '2',
          GRADER_HEARTBEAT_SECONDS: '1',
          GRADER_ID: 'drill',
        },
        logDir,
      );
      await waitFor(
        'the grader ready',
        async () => {
          const rows = await query<{ ok: boolean }>(source, `SELECT sandbox_ok AS ok FROM grader_hosts`);
          return rows.some((r) => r.ok) ? true : undefined;
        },
        60_000,
        500,
      );
      for (const email of [...STUDENTS, 'editor@example.com'])
        tokens.set(email, await signIn(sourceApi, email));
      const courses = await api(sourceApi, 'GET', '/api/Course/', { token: tokens.get(STUDENTS[0]!)! });
      const listed = (courses.body as { results: { id: number; title: string }[] }).results;
      course = listed.find((c) => c.title.startsWith('Introduction'))!.id;
      const list = await api(sourceApi, 'GET', `/api/Assignment/CourseSpecific/?course_id=${course}`, {
        token: tokens.get(STUDENTS[0]!)!,
      });
      for (const a of (list.body as { results: { id: number; title: string }[] }).results) {
        if (a.title === 'Hello, world' || a.title === 'Sum of two numbers') assignments.push(a);
      }
      expect(assignments).toHaveLength(2);
      // Attachments of both assignments, of several sizes (one past a 512 KiB chunk of the postgres store).
      const editor = tokens.get('editor@example.com')!;
      for (const [i, a] of assignments.entries()) {
        for (const size of [10, 70_000, 600_000]) {
          const status = await upload(
            `/api/Assignment/${a.id}/${course}/FileUpload/`,
            editor,
            `a${i}-${size}.bin`,
            size,
          );
          expect(status).toBe(201);
        }
      }
      // A first round of graded submissions.
      const first: number[] = [];
      for (const email of STUDENTS) {
        for (const a of assignments) {
          const reply = await submit(email, a);
          expect(reply.status, JSON.stringify(reply.body)).toBe(201);
          first.push((reply.body as { id: number }).id);
        }
      }
      await waitFor(
        'the first submissions graded',
        async () => {
          const rows = await query<{ n: number }>(
            source,
            `SELECT count(*)::int AS n FROM submissions WHERE id IN (SELECT unnest($1::int[])) AND status = 'Completed'`,
            [first],
          );
          return rows[0]?.n === first.length ? true : undefined;
        },
        180_000,
        1000,
      );
    }, 600_000);

    // A failure keeps every process's log and prints the end of each.
    let failed = false;
    afterEach((context) => {
      if (context.task.result?.state !== 'fail') return;
      failed = true;
      for (const service of started()) {
        const tail = service.log().split('\n').slice(-25).join('\n');
        console.error(`--- ${service.name} (${service.logFile}) ---\n${tail}`);
      }
    });

    afterAll(async () => {
      await stopAll();
      for (const name of databases) await dropDatabase(name).catch(() => {});
      if (!failed) rmSync(work, { recursive: true, force: true });
      else console.error(`backup drill: files and logs kept in ${work}`);
    }, 120_000);

    it('backs up while the grader grades and submissions and uploads keep arriving', async () => {
      // A burst the grader needs many seconds for.
      const burst: number[] = [];
      for (let i = 0; i < BURST; i++) {
        const reply = await submit(STUDENTS[i % 3]!, assignments[Math.floor(i / 3) % 2]!);
        expect(reply.status, JSON.stringify(reply.body)).toBe(201);
        burst.push((reply.body as { id: number }).id);
      }
      // Writers for as long as the backup runs: forum files into each student's tray, and submissions.
      let writing = true;
      let writes = 0;
      const writer = (async () => {
        for (let round = 0; writing; round++) {
          const email = STUDENTS[round % 3]!;
          if (
            (await upload(
              `/api/Forum/ForumFileUpload/${course}/`,
              tokens.get(email)!,
              `f${round}.bin`,
              40_000,
            )) === 201
          )
            writes++;
          if (round % 4 === 0 && (await submit(email, assignments[round % 2]!)).status === 201) writes++;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      })();
      backupDir = dir('backup');
      const result = await runCommand(
        'scripts/backup.mjs',
        ['--to', backupDir],
        envOf(source, dir('files-source')),
      );
      writing = false;
      await writer;
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
      expect(writes, 'writes during the backup').toBeGreaterThan(0);
      manifest = JSON.parse(readFileSync(path.join(backupDir, 'manifest.json'), 'utf8')) as Manifest;
      expect(manifest.database).toMatchObject({ driver: 'postgres', file: 'database.dump' });
      expect(manifest.storage).toMatchObject({ kind: 'local', files: 'copied' });
      // Consistent: every file a row of the dump names is in the backup, with the bytes uploaded.
      const inBackup = new Map(manifest.files.map((file) => [file.key, file]));
      expect(manifest.storage.referencedKeys.filter((key) => !inBackup.has(key))).toEqual([]);
      const copies = filesUnder(path.join(backupDir, 'files'));
      expect(copies.size).toBe(manifest.files.length);
      for (const file of manifest.files) expect(copies.get(file.key), file.key).toBe(file.sha256);
      const uploaded = new Set([...uploads.values()].map(sha256));
      for (const file of manifest.files) expect(uploaded.has(file.sha256), file.key).toBe(true);
      // The snapshot caught grading under way: submissions graded and submissions still waiting.
      const submissions = manifest.tables['public.submissions'] ?? 0;
      expect(submissions).toBeGreaterThan(6);
      console.warn(
        `backup drill: ${writes} writes during the backup; ${Object.keys(manifest.tables).length} tables, ` +
          `${submissions} submissions, ${manifest.files.length} files`,
      );
      await waitFor(
        'the burst graded',
        async () => {
          const rows = await query<{ n: number }>(
            source,
            `SELECT count(*)::int AS n FROM submissions WHERE status IN ('Pending', 'Scheduled', 'Executing')`,
          );
          return rows[0]?.n === 0 ? true : undefined;
        },
        240_000,
        1000,
      );
      expect(grader.running()).toBe(true);
    }, 400_000);

    it('restores into a fresh database and file folder: every row count and file checksum as the manifest says', async () => {
      restored = await newDatabase('restored');
      const files = dir('files-restored');
      const result = await runCommand('scripts/restore.mjs', ['--from', backupDir], envOf(restored, files));
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
      expect(result.stdout).toContain('match the backup');
      // Counted here, independently of the command: the same tables, the same rows.
      expect(await tablesOf(restored)).toEqual(Object.keys(manifest.tables).sort());
      expect(await countTables(restored, Object.keys(manifest.tables))).toEqual(manifest.tables);
      // Every file, byte for byte; every row that names a file finds it.
      const written = filesUnder(files);
      expect(Object.fromEntries(written)).toEqual(
        Object.fromEntries(manifest.files.map((f) => [f.key, f.sha256])),
      );
      expect((await referencedKeys(restored)).filter((key) => !written.has(key))).toEqual([]);
      // The snapshot was taken while the grader worked: some submissions graded, some not yet.
      const states = await query<{ done: number; waiting: number }>(
        restored,
        `SELECT count(*) FILTER (WHERE status = 'Completed')::int AS done,
              count(*) FILTER (WHERE status IN ('Pending', 'Scheduled', 'Executing'))::int AS waiting
         FROM submissions`,
      );
      console.warn(
        `backup drill: at the snapshot ${states[0]?.done} submissions graded, ${states[0]?.waiting} waiting`,
      );
      expect(states[0]?.done).toBeGreaterThan(0);
      expect(states[0]?.waiting).toBeGreaterThan(0);
    }, 120_000);

    it('starts an API on the restored database that serves the same grades and files', async () => {
      const base = await startApi('restored-api', restored, dir('files-restored'));
      // Graded submissions are final: the restored site shows each as the running one does.
      const graded = await query<{ id: number; score: number | null; max_score: number | null }>(
        restored,
        `SELECT id, score, max_score FROM submissions WHERE status = 'Completed' ORDER BY id`,
      );
      const now = await query<{ id: number; score: number | null; max_score: number | null }>(
        source,
        `SELECT id, score, max_score FROM submissions WHERE id IN (SELECT unnest($1::int[])) ORDER BY id`,
        [graded.map((row) => row.id)],
      );
      expect(graded).toEqual(now);
      const student = await signIn(base, STUDENTS[0]!);
      const mine = await query<{ id: number; score: number }>(
        restored,
        `SELECT s.id, s.score FROM submissions s JOIN users u ON u.id = s.user_id
        WHERE u.email = $1 AND s.status = 'Completed' ORDER BY s.id LIMIT 1`,
        [STUDENTS[0]],
      );
      const shown = await api(base, 'GET', `/api/Submission/${mine[0]!.id}/`, { token: student });
      expect(shown.status, JSON.stringify(shown.body)).toBe(200);
      expect(shown.body).toMatchObject({ id: mine[0]!.id, status: 'Completed', score: mine[0]!.score });
      // An attachment downloaded through the restored API has the uploaded bytes.
      const editor = await signIn(base, 'editor@example.com');
      const a = assignments[1]!;
      const listed = await api(base, 'GET', `/api/Assignment/${a.id}/${course}/FileUpload/`, {
        token: editor,
      });
      const file = (listed.body as { filename: string; url: string }[]).find(
        (f) => f.filename === 'a1-600000.bin',
      )!;
      const download = await fetch(new URL(file.url, base));
      expect(download.status).toBe(200);
      expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(uploads.get('a1-600000.bin')!));
    }, 180_000);

    it('backs up the same world with STORAGE=postgres (files in the dump) and restores the same checksums', async () => {
      const env = envOf(restored, dir('files-restored'));
      const moved = await runCommand(
        'scripts/storage-migrate.mjs',
        ['--from', 'local', '--to', 'postgres'],
        env,
      );
      expect(moved.code, `${moved.stdout}\n${moved.stderr}`).toBe(0);
      const inDump = dir('backup-postgres-store');
      const backup = await runCommand('scripts/backup.mjs', ['--to', inDump], {
        ...env,
        STORAGE: 'postgres',
      });
      expect(backup.code, `${backup.stdout}\n${backup.stderr}`).toBe(0);
      const second = JSON.parse(readFileSync(path.join(inDump, 'manifest.json'), 'utf8')) as Manifest;
      expect(second.storage.files).toBe('in-database');
      expect(readdirSync(path.join(inDump, 'files'))).toEqual([]);
      // Hashed inside the dump's snapshot: the same bytes as the copies of the first backup.
      const firstSums = new Map(manifest.files.map((f) => [f.key, f.sha256]));
      for (const file of second.files) expect(file.sha256, file.key).toBe(firstSums.get(file.key));
      expect(second.files.length).toBe(manifest.files.length);
      const target = await newDatabase('instore');
      const result = await runCommand('scripts/restore.mjs', ['--from', inDump], {
        ...envOf(target, dir('files-unused')),
        STORAGE: 'postgres',
      });
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
      expect(await countTables(target, Object.keys(second.tables))).toEqual(second.tables);
      // And the first (local) backup restored straight into STORAGE=postgres: its files become rows.
      const intoDatabase = await newDatabase('intodb');
      const direct = await runCommand('scripts/restore.mjs', ['--from', backupDir], {
        ...envOf(intoDatabase, dir('files-unused-intodb')),
        STORAGE: 'postgres',
      });
      expect(direct.code, `${direct.stdout}\n${direct.stderr}`).toBe(0);
      const stored = await query<{ n: number }>(
        intoDatabase,
        `SELECT count(*)::int AS n FROM stored_files WHERE complete`,
      );
      expect(stored[0]?.n).toBe(manifest.files.length);
    }, 180_000);

    it('restores a local backup into S3, and backs S3 up as a note or with --copy-s3', async () => {
      const s3 = await startTestS3Server('kadai-backup-drill');
      try {
        const bucket = (prefix: string): Record<string, string> => ({
          STORAGE: 's3',
          S3_BUCKET: s3.bucket,
          S3_ENDPOINT: s3.endpoint,
          S3_FORCE_PATH_STYLE: 'true',
          S3_PREFIX: prefix,
          AWS_ACCESS_KEY_ID: TEST_S3_CREDENTIALS.accessKeyId,
          AWS_SECRET_ACCESS_KEY: TEST_S3_CREDENTIALS.secretAccessKey,
        });
        // The files of a local backup go into whichever store STORAGE names.
        const onS3 = await newDatabase('s3');
        const env = { ...envOf(onS3, dir('files-unused-s3')), ...bucket('site') };
        const restoredToS3 = await runCommand('scripts/restore.mjs', ['--from', backupDir], env);
        expect(restoredToS3.code, `${restoredToS3.stdout}\n${restoredToS3.stderr}`).toBe(0);
        // Not copied by default: the manifest names the keys, and a restore checks the bucket for them.
        const noted = dir('backup-s3-note');
        const note = await runCommand('scripts/backup.mjs', ['--to', noted], env);
        expect(note.code, `${note.stdout}\n${note.stderr}`).toBe(0);
        const third = JSON.parse(readFileSync(path.join(noted, 'manifest.json'), 'utf8')) as Manifest;
        expect(third.storage).toMatchObject({ kind: 's3', files: 'not-copied' });
        expect(third.files).toEqual([]);
        expect(third.storage.referencedKeys).toEqual(manifest.storage.referencedKeys);
        const again = await newDatabase('s3again');
        const checked = await runCommand('scripts/restore.mjs', ['--from', noted], {
          ...envOf(again, dir('files-unused-s3again')),
          ...bucket('site'),
        });
        expect(checked.code, `${checked.stdout}\n${checked.stderr}`).toBe(0);
        expect(checked.stdout).toContain(
          `holds every one of the ${third.storage.referencedKeys.length} files`,
        );
        // With --copy-s3 the objects come into the backup, with the checksums of the first one.
        const copied = dir('backup-s3-copy');
        const copy = await runCommand('scripts/backup.mjs', ['--to', copied, '--copy-s3'], env);
        expect(copy.code, `${copy.stdout}\n${copy.stderr}`).toBe(0);
        const fourth = JSON.parse(readFileSync(path.join(copied, 'manifest.json'), 'utf8')) as Manifest;
        expect(fourth.storage.files).toBe('copied');
        expect(fourth.files).toEqual(manifest.files);
      } finally {
        await s3.close();
      }
    }, 180_000);

    it('refuses to restore into a database that is not empty, writing nothing', async () => {
      const files = dir('files-refused');
      const result = await runCommand('scripts/restore.mjs', ['--from', backupDir], envOf(restored, files));
      expect(result.code, result.stderr).toBe(3);
      expect(result.stderr).toMatch(/The database is not empty .* nothing was written/);
      expect(() => readdirSync(files)).toThrow();
    }, 60_000);

    it('refuses a backup whose file was changed, before anything is written', async () => {
      const tampered = dir('backup-tampered');
      cpSync(backupDir, tampered, { recursive: true });
      const victim = manifest.files.find((file) => file.size > 1000)!;
      const target = path.join(tampered, 'files', victim.key);
      const bytes = readFileSync(target);
      bytes[500] = (bytes[500]! + 1) % 256;
      writeFileSync(target, bytes);
      const empty = await newDatabase('tampered');
      const files = dir('files-tampered');
      const result = await runCommand('scripts/restore.mjs', ['--from', tampered], envOf(empty, files));
      expect(result.code, result.stderr).toBe(4);
      expect(result.stderr).toContain(`files/${victim.key} does not match its checksum`);
      expect(await tablesOf(empty)).toEqual([]);
    }, 60_000);
  },
);
