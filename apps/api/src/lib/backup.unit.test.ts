// The parts of `npm run backup` and `npm run restore` that need no database: choosing pg_dump by the
// server's major version (and saying what to install when only older ones exist), the arguments, the
// manifest's refusals and the schema's migration list. The drill itself is apps/api/test/cluster/backup.test.ts.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../db/migrate.ts';
import { BackupRefusal, codeMigrations, EXIT, readManifest, secretFingerprint } from './backup-manifest.ts';
import { BackupUsageError, parseBackupArgs, parseRestoreArgs } from './backup-args.ts';
import { findPgTool, libpqConnection, parsePgMajor, pgToolCandidates } from './pg-tools.ts';

const work = mkdtempSync(path.join(os.tmpdir(), 'kadai-backup-unit-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A stand-in program that prints `version` for `--version`, as pg_dump does. */
function fakeTool(dir: string, name: string, version: string): void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, `#!/bin/sh\necho '${name} (PostgreSQL) ${version}'\n`);
  chmodSync(file, 0o755);
}

async function refusal(promise: Promise<unknown>): Promise<BackupRefusal> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof BackupRefusal)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe('PostgreSQL programs', () => {
  it('reads the major version of a program and of a server', () => {
    expect(parsePgMajor('pg_dump (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)')).toBe(15);
    expect(parsePgMajor('pg_restore (PostgreSQL) 17beta1')).toBe(17);
    expect(parsePgMajor('16.4 (Ubuntu 16.4-1.pgdg22.04+1)')).toBe(16);
    expect(parsePgMajor('18.6')).toBe(18);
    expect(parsePgMajor('not a version')).toBeNull();
  });

  it("looks in Debian's per-version folders newest first, then on PATH", () => {
    const root = path.join(work, 'debian');
    fakeTool(path.join(root, '15/bin'), 'pg_dump', '15.20');
    fakeTool(path.join(root, '17/bin'), 'pg_dump', '17.2');
    mkdirSync(path.join(root, '16/bin'), { recursive: true }); // the server without its client
    expect(pgToolCandidates('pg_dump', undefined, root)).toEqual([
      path.join(root, '17/bin/pg_dump'),
      path.join(root, '15/bin/pg_dump'),
      'pg_dump',
    ]);
    expect(pgToolCandidates('pg_dump', '/opt/pg/bin', root)).toEqual(['/opt/pg/bin/pg_dump']);
  });

  it('takes a pg_dump of the server’s major version, or a newer one', async () => {
    const bin = path.join(work, 'same');
    fakeTool(bin, 'pg_dump', '16.4');
    const tool = await findPgTool('pg_dump', { minMajor: 16, for: 'the server', binDir: bin });
    expect(tool).toMatchObject({ major: 16, path: path.join(bin, 'pg_dump') });
    expect(await findPgTool('pg_dump', { minMajor: 15, for: 'the server', binDir: bin })).toMatchObject({
      major: 16,
    });
  });

  it('refuses an older pg_dump, naming both versions and what to install', async () => {
    const bin = path.join(work, 'older');
    fakeTool(bin, 'pg_dump', '15.20');
    const error = await refusal(
      findPgTool('pg_dump', { minMajor: 17, for: 'the PostgreSQL 17.2 server', binDir: bin }),
    );
    expect(error.exitCode).toBe(EXIT.version);
    expect(error.message).toContain('pg_dump 17 or newer is needed for the PostgreSQL 17.2 server');
    expect(error.message).toContain('pg_dump (PostgreSQL) 15.20');
    expect(error.message).toContain('postgresql-client-17');
    expect(error.message).toContain('--pg-bin');
  });

  it('refuses when there is no such program at all', async () => {
    const error = await refusal(
      findPgTool('pg_restore', { minMajor: 15, for: 'the archive', binDir: path.join(work, 'none') }),
    );
    expect(error.message).toContain('no pg_restore was found');
  });

  it('keeps the password off the command line', () => {
    const { dsn, env } = libpqConnection('postgres://kadai:s%3Acret@db.example:5433/lms?sslmode=require');
    expect(dsn).toBe('postgres://kadai@db.example:5433/lms?sslmode=require');
    expect(env.PGPASSWORD).toBe('s:cret');
  });
});

describe('arguments', () => {
  it('reads --to, --from, --pg-bin and --copy-s3', () => {
    expect(parseBackupArgs(['--to', 'b'])).toEqual({ to: 'b', pgBinDir: undefined, copyS3: false });
    expect(parseBackupArgs(['--to=b', '--copy-s3', '--pg-bin', '/x'])).toEqual({
      to: 'b',
      pgBinDir: '/x',
      copyS3: true,
    });
    expect(parseRestoreArgs(['--from', 'b'])).toEqual({ from: 'b', pgBinDir: undefined });
  });

  it('refuses what it does not know, and a missing folder', () => {
    expect(() => parseBackupArgs([])).toThrow(BackupUsageError);
    expect(() => parseBackupArgs(['--to'])).toThrow('--to needs a value');
    expect(() => parseBackupArgs(['--to', 'b', '--from', 'c'])).toThrow('Unknown option: --from');
    expect(() => parseRestoreArgs(['b'])).toThrow('Unknown argument: b');
    expect(() => parseRestoreArgs(['--copy-s3'])).toThrow(BackupUsageError);
  });
});

describe('the manifest', () => {
  it('calls a folder without one, or with a broken one, a damaged backup', () => {
    const empty = path.join(work, 'no-manifest');
    mkdirSync(empty);
    expect(() => readManifest(empty)).toThrow(/manifest.json is missing/);
    const broken = path.join(work, 'broken');
    mkdirSync(broken);
    writeFileSync(path.join(broken, 'manifest.json'), '{"format": "kadai-backup", "formatVersion": 1}');
    let error: unknown = null;
    try {
      readManifest(broken);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(BackupRefusal);
    expect(error instanceof BackupRefusal && error.exitCode).toBe(EXIT.damaged);
  });

  it("lists this code's migrations in the order of the migrations folder", () => {
    const tags = codeMigrations().map((m) => m.tag);
    const files = readdirSync(MIGRATIONS_DIR)
      .filter((f) => f.endsWith('.sql'))
      .map((f) => f.replace(/\.sql$/, ''))
      .sort();
    expect(tags).toEqual(files);
  });

  it('records a fingerprint of the server secret, never the secret', () => {
    const secret = 'a-server-secret-that-is-long-enough-0123456789';
    expect(secretFingerprint(secret)).toMatch(/^[0-9a-f]{16}$/);
    expect(secretFingerprint(secret)).not.toContain(secret.slice(0, 8));
    expect(secretFingerprint(`${secret}x`)).not.toBe(secretFingerprint(secret));
  });
});
