/**
 * PostgreSQL's own client programs, `pg_dump` and `pg_restore`, as `npm run backup` and `npm run restore`
 * use them (docs/deploy.md, "Backups"). Debian installs each major version's programs side by side under
 * /usr/lib/postgresql/<major>/bin (package postgresql-client-<major>), with /usr/bin/pg_dump a wrapper
 * that picks one of them: the version that runs is chosen here, by the server's version, and said.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { BackupRefusal, EXIT } from './backup-manifest.ts';

export type PgToolName = 'pg_dump' | 'pg_restore';

export interface PgTool {
  name: PgToolName;
  path: string;
  /** What `--version` printed: `pg_dump (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)`. */
  version: string;
  major: number;
}

/** The major version in `pg_dump (PostgreSQL) 15.20 (…)` or a server's `15.20 (Debian …)`; null when none. */
export function parsePgMajor(text: string): number | null {
  const match = /^(?:\S+ \(PostgreSQL\) )?(\d+)/.exec(text.trim());
  return match ? Number(match[1]) : null;
}

/** The major of `server_version_num` (150020 → 15; 90624 → 9). */
export function serverMajorOf(versionNum: number): number {
  return Math.floor(versionNum / 10_000);
}

/** Where a program may be: an explicit folder, Debian's per-version folders (newest first), then PATH. */
export function pgToolCandidates(
  name: PgToolName,
  binDir?: string,
  debianRoot = '/usr/lib/postgresql',
): string[] {
  if (binDir) return [path.join(binDir, name)];
  const versioned = existsSync(debianRoot)
    ? readdirSync(debianRoot)
        .filter((entry) => /^\d+$/.test(entry))
        .sort((a, b) => Number(b) - Number(a))
        .map((entry) => path.join(debianRoot, entry, 'bin', name))
        .filter((file) => existsSync(file))
    : [];
  return [...versioned, name];
}

/** Runs a program to its end; its exit code, stdout and stderr. */
export function runProgram(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr }));
  });
}

async function probe(name: PgToolName, file: string): Promise<PgTool | null> {
  try {
    const { code, stdout } = await runProgram(file, ['--version']);
    const major = parsePgMajor(stdout);
    if (code !== 0 || major === null) return null;
    return { name, path: file, version: stdout.trim(), major };
  } catch {
    return null;
  }
}

/**
 * The program to use with a server of major version `serverMajor`: one of that very major if it is
 * installed, else the newest newer one (pg_dump reads older servers, never newer ones; pg_restore reads
 * archives of its own major or older). Refuses, saying what to install, when only older ones exist.
 */
export async function findPgTool(
  name: PgToolName,
  options: { minMajor: number; for: string; binDir?: string },
): Promise<PgTool> {
  const found: PgTool[] = [];
  for (const file of pgToolCandidates(name, options.binDir)) {
    const tool = await probe(name, file);
    if (tool && !found.some((t) => t.path === tool.path)) found.push(tool);
  }
  const usable = found.filter((tool) => tool.major >= options.minMajor);
  const exact = usable.find((tool) => tool.major === options.minMajor);
  const chosen = exact ?? usable.sort((a, b) => b.major - a.major)[0];
  if (chosen) return chosen;
  const seen = found.map((tool) => `${tool.path}: ${tool.version}`).join('; ');
  throw new BackupRefusal(
    EXIT.version,
    `${name} ${options.minMajor} or newer is needed for ${options.for}, ` +
      (found.length === 0 ? `and no ${name} was found` : `and only older ones were found (${seen})`) +
      `. ${name} must be of the server's major version or newer (${name} ${found[0]?.major ?? '?'} cannot ` +
      `read a PostgreSQL ${options.minMajor} server or archive). Install postgresql-client-${options.minMajor} ` +
      `(Debian: from apt.postgresql.org when the release has no such package), or pass --pg-bin with the ` +
      `folder that holds it.`,
  );
}

/**
 * How to hand a connection URL to a libpq program without its password on the command line (where
 * every user of the machine could read it in `ps`): the URL without the password, and PGPASSWORD.
 */
export function libpqConnection(url: string): { dsn: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (password) env.PGPASSWORD = password;
  return { dsn: parsed.toString(), env };
}
