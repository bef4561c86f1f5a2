import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { tmpdir } from 'node:os';
import type { ResolvedOptions } from './command.ts';
import { SandboxUnavailableError, type SandboxOptions } from './types.ts';

export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  return {
    bwrapPath: options.bwrapPath ?? '/usr/bin/bwrap',
    setprivPath: options.setprivPath ?? '/usr/bin/setpriv',
    prlimitPath: options.prlimitPath ?? '/usr/bin/prlimit',
    pythonPath: options.pythonPath ?? '/usr/bin/python3',
    jobBase: options.jobBase ?? tmpdir(),
    uid: options.uid ?? 65534,
    gid: options.gid ?? 65534,
  };
}

const PACKAGES: Record<string, string> = {
  bwrapPath: 'bubblewrap',
  setprivPath: 'util-linux',
  prlimitPath: 'util-linux',
  pythonPath: 'python3',
};

/** Only successes are remembered: a missing binary is looked for again on the next run. */
const verified = new Set<string>();

/** Throws SandboxUnavailableError unless every piece is there; cheap after the first success. */
export async function assertAvailable(options: ResolvedOptions): Promise<void> {
  const key = JSON.stringify(options);
  if (verified.has(key)) return;
  const problems = await findProblems(options);
  if (problems.length > 0) throw new SandboxUnavailableError(`Sandbox unavailable: ${problems.join('; ')}`);
  verified.add(key);
}

export function forgetAvailability(options: ResolvedOptions): void {
  verified.delete(JSON.stringify(options));
}

async function findProblems(options: ResolvedOptions): Promise<string[]> {
  const problems: string[] = [];
  if (process.platform !== 'linux') problems.push('bubblewrap needs Linux');
  // Only root can drop to uid 65534 before bwrap, and without that RLIMIT_NPROC means nothing.
  if (process.getuid?.() !== 0) problems.push('the grader must run as root to drop to an unprivileged uid');
  const missing = new Set<string>();
  for (const key of ['bwrapPath', 'setprivPath', 'prlimitPath', 'pythonPath'] as const) {
    try {
      await access(options[key], constants.X_OK);
    } catch {
      missing.add(PACKAGES[key]!);
    }
  }
  if (missing.size > 0) {
    const list = [...missing].join(' ');
    problems.push(`missing ${[...missing].join(', ')} (apt-get install -y ${list})`);
  }
  for (const key of ['prlimitPath', 'pythonPath'] as const) {
    if (!options[key].startsWith('/usr/')) problems.push(`${key} must be under /usr (only /usr is mounted)`);
  }
  const blocked = await unreachable(options.jobBase, options.uid, options.gid, false);
  if (blocked) problems.push(`job base ${options.jobBase}: uid ${options.uid} cannot traverse ${blocked}`);
  return problems;
}

/**
 * The first directory on the way to `dir` (or `dir` itself, which with `list` must also be readable)
 * that the sandbox's uid may not search: bwrap binds as that uid, so it must reach every source.
 */
export async function unreachable(
  dir: string,
  uid: number,
  gid: number,
  list: boolean,
): Promise<string | null> {
  for (let current = path.resolve(dir), first = true; ; current = path.dirname(current), first = false) {
    const info = await stat(current).catch(() => null);
    if (!info?.isDirectory()) return `${current} (not a directory)`;
    const shift = info.uid === uid ? 6 : info.gid === gid ? 3 : 0;
    const needed = list && first ? 0o5 : 0o1;
    if (((info.mode >> shift) & needed) !== needed) return current;
    if (current === path.dirname(current)) return null;
  }
}
