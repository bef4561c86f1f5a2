/** Starting, killing and reading the exit of a bubblewrap command: shared by runs and kernels. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { constants as osConstants } from 'node:os';
import { assertAvailable, forgetAvailability } from './availability.ts';
import type { ResolvedOptions } from './command.ts';
import type { LeakedDescriptors } from './fds.ts';
import { SandboxUnavailableError } from './types.ts';

/** A program writing more than this many times its cap is killed: it is flooding, not answering. */
export const FLOOD_FACTOR = 4;

/**
 * Spawns `command` (from buildCommand) with an empty environment, stdin/stdout/stderr and each of
 * `pipes` as pipes, `shared` streams on their descriptors, and /dev/null on every descriptor this process
 * leaked (see fds.ts). Synchronous, so that the caller attaches its listeners before the first event.
 */
export function spawnSandbox(
  command: { file: string; args: string[] },
  pipes: number[],
  leaked: LeakedDescriptors,
  shared?: Map<number, Readable | Writable>,
): ChildProcess {
  const stdio: ('pipe' | 'ignore' | number | Readable | Writable)[] = ['pipe', 'pipe', 'pipe'];
  const put = (fd: number, how: 'pipe' | number | Readable | Writable): void => {
    while (stdio.length <= fd) stdio.push('ignore');
    stdio[fd] = how;
  };
  for (const fd of leaked.fds) put(fd, leaked.devNull!.fd);
  for (const fd of pipes) put(fd, 'pipe');
  for (const [fd, stream] of shared ?? []) put(fd, stream);
  // detached: its own process group, so one kill reaches bwrap; bwrap's --die-with-parent and the
  // PID namespace then take every process inside with it, double-forked daemons included.
  return spawn(command.file, command.args, { env: {}, stdio, detached: true });
}

/** False once Node has reaped bwrap: from then on its pid (and process group id) may be someone else's. */
/**
 * Whether the sandbox still runs. Node learns of an exit on a later turn of its event loop than the
 * kernel's: a timer that comes due in the same turn (a busy loop) must find an ended process ended, so
 * an exited process not reaped yet (a zombie, state Z) counts as ended too.
 */
export function isRunning(child: ChildProcess): boolean {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return false;
  try {
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false; // gone from /proc: reaped already
  }
}

/** SIGKILLs bwrap's process group, which takes the whole sandbox with it. */
export function killSandbox(child: ChildProcess): void {
  if (!isRunning(child)) return;
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** The 'error' event of a spawn: a missing setpriv means no sandbox, not a failed program. */
export function spawnFailure(file: string, error: NodeJS.ErrnoException): Error {
  if (error.code === 'ENOENT' || error.code === 'EACCES') {
    return new SandboxUnavailableError(`Sandbox unavailable: cannot start ${file}: ${error.message}`);
  }
  return error;
}

/**
 * python3 (bwrap's execvp) or prlimit (the launcher's) vanished under /usr since the last check: throws
 * SandboxUnavailableError saying so, instead of blaming the program.
 */
export async function recheckAfterFailure(
  exitCode: number | null,
  stderr: string,
  options: ResolvedOptions,
): Promise<void> {
  if (
    (exitCode === 1 && stderr.startsWith('bwrap: execvp ')) ||
    (exitCode === 127 && stderr.startsWith('launcher: cannot run '))
  ) {
    forgetAvailability(options);
    await assertAvailable(options);
  }
}

const SIGNAL_NAMES = new Map<number, string>(
  Object.entries(osConstants.signals).map(([name, number]) => [number, name]),
);

/** bwrap exits with 128 + n when the program died of signal n; the host's kill shows up as bwrap's own. */
export function decodeExit(
  code: number | null,
  signal: string | null,
): { exitCode: number | null; signal: string | null } {
  if (code !== null && code > 128 && code < 160 && SIGNAL_NAMES.has(code - 128)) {
    return { exitCode: null, signal: SIGNAL_NAMES.get(code - 128)! };
  }
  return { exitCode: code, signal };
}
