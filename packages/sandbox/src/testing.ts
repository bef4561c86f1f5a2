/** Helpers of the sandbox tests (not exported from the package). */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { runSandboxed } from './run.ts';
import type { SandboxRequest } from './types.ts';

export const python = (code: string, extra: Partial<SandboxRequest> = {}) =>
  runSandboxed({ files: [{ path: 'main.py', content: code }], ...extra });

/** Lines the program printed as `key=value`. */
export function report(stdout: string): Record<string, string> {
  const entries: [string, string][] = [];
  for (const line of stdout.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) entries.push([line.slice(0, at), line.slice(at + 1)]);
  }
  return Object.fromEntries(entries);
}

async function listOrphans(): Promise<string[]> {
  const { stdout } = await promisify(execFile)('ps', ['-e', '-o', 'pid=,ppid=,uid=,comm=']);
  const processes = new Map<string, { parent: string; uid: string; command: string }>();
  for (const line of stdout.trim().split('\n')) {
    const [pid, parent, uid, command] = line.trim().split(/\s+/);
    if (pid && parent && uid && command) processes.set(pid, { parent, uid, command });
  }
  const inSandbox = (pid: string): boolean => {
    for (let current = processes.get(pid); current; current = processes.get(current.parent)) {
      if (current.command === 'bwrap') return true;
    }
    return false;
  };
  return [...processes]
    .filter(([pid, p]) => p.uid === '65534' && p.command !== 'bwrap' && !inSandbox(pid))
    .map(([pid, p]) => `${pid} ${p.command}`);
}

/**
 * Processes of uid 65534 that belong to no running sandbox (no bwrap among their ancestors) and stay
 * that way: whatever escaped the tree kill. Other sandboxes of concurrently running tests are alive
 * legitimately, and one of them being torn down shows its last process without bwrap for a moment, so
 * only processes still there after `settleMs` count.
 */
export async function orphanedSandboxProcesses(settleMs = 3000): Promise<string[]> {
  const deadline = Date.now() + settleMs;
  let orphans = await listOrphans();
  while (orphans.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = new Set(await listOrphans());
    orphans = orphans.filter((orphan) => again.has(orphan));
  }
  return orphans;
}

/** PIDs of uid 65534 whose command line contains `marker` (pgrep exits 1 when there are none). */
export async function sandboxProcesses(marker: string): Promise<string[]> {
  try {
    const { stdout } = await promisify(execFile)('pgrep', ['-u', '65534', '-f', marker]);
    return stdout.trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** Python prelude: `attempt(name, action)` prints `name=ok` or `name=<errno name>`. */
export const TRY = `
import errno, os, socket, sys
def attempt(name, action):
    try:
        action()
        print(f"{name}=ok")
    except OSError as e:
        print(f"{name}={errno.errorcode.get(e.errno, type(e).__name__)}")
`;
