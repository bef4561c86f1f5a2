import { launcherArgs } from './launcher.ts';
import { supervisorArgs } from './supervisor.ts';
import type { ConfinementLimits } from './types.ts';

export interface ResolvedOptions {
  bwrapPath: string;
  setprivPath: string;
  prlimitPath: string;
  pythonPath: string;
  jobBase: string;
  uid: number;
  gid: number;
}

/** A writable run's /job: a tmpfs that bwrap fills from pipes (`--file FD`) before the program starts. */
export interface WritableJob {
  /** Bytes the files take on a tmpfs (page-rounded); the tmpfs gets this plus tmpBytes. */
  bytes: number;
  /** Sub-directories to create, parents first. */
  dirs: string[];
  /** Each file and the descriptor number (in the child) its content arrives on. */
  files: { path: string; fd: number }[];
}

export interface CommandInput {
  options: ResolvedOptions;
  limits: ConfinementLimits;
  /** Host dir bound read-only at /job, or the files of a writable /job. */
  job: { hostDir: string } | WritableJob;
  argv: string[];
  /** Files the launcher hands out after the run (may be empty: it always reports the usage). */
  collect: string[];
  collectMaxFiles: number;
  collectMaxBytes: number;
  mounts: { hostPath: string; sandboxPath: string }[];
  /**
   * PID 1 of the sandbox: the launcher (one program, measured once it ends; the default) or the
   * supervisor (a paired run's worker, started and killed on request: supervisor.ts), or the program
   * itself (a paired run's trusted main program that collects no files: bwrap's --as-pid-1 hands it
   * PID 1, and its CPU is counted by the host when bwrap is waited for). Only the launcher collects files.
   */
  init?: 'launcher' | 'supervisor' | 'program';
  /** The launcher's wall limit on the program's own time (absent: none; the host's timer alone). */
  wallMs?: number;
}

/** /dev/shm holds multiprocessing's semaphores; it needs little, and it is RAM. */
const SHM_BYTES = 1024 * 1024;

/**
 * setpriv → bwrap → launcher → prlimit → python, following PLATFORM.md. Deviations, each for a reason:
 * - `--unshare-user` is spelled out: bwrap 0.8 refuses `--disable-userns` without it.
 * - `--no-new-privs` and `--inh-caps=-all` on setpriv: setuid binaries under /usr gain nothing.
 * - `/` (bwrap's own tmpfs) and `/dev` are remounted read-only at the end: both are unbounded tmpfs
 *   a program could otherwise fill; /dev/shm gets a small tmpfs of its own instead.
 * - The CPU hard limit is one second above the soft one, so a runaway gets SIGXCPU (reported as 'cpu')
 *   rather than an anonymous SIGKILL.
 * - The launcher (`--as-pid-1`, in place of bwrap's own reaper) measures CPU time and memory with
 *   `wait4`: Node's child_process does not expose the rusage of the processes it reaps.
 */
export function buildCommand(input: CommandInput): { file: string; args: string[] } {
  const { options, limits, job } = input;
  const program = [
    options.prlimitPath,
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`,
    `--as=${limits.memoryBytes}`,
    // The launcher (PID 1) counts, as bwrap's own reaper would in its place: the program gets the rest.
    `--nproc=${limits.processes}`,
    `--fsize=${limits.fileSizeBytes}`,
    `--nofile=${limits.openFiles}`,
    '--core=0',
    '--',
    options.pythonPath,
    '-I',
    ...input.argv,
  ];
  const jobArgs =
    'hostDir' in job
      ? ['--ro-bind', job.hostDir, '/job']
      : [
          ...['--size', String(job.bytes + limits.tmpBytes), '--tmpfs', '/job'],
          ...job.dirs.flatMap((dir) => ['--dir', `/job/${dir}`]),
          ...job.files.flatMap((file) => ['--perms', '0644', '--file', String(file.fd), `/job/${file.path}`]),
        ];
  const mounts = input.mounts.flatMap((mount) => ['--ro-bind', mount.hostPath, mount.sandboxPath]);
  const command =
    input.init === 'supervisor'
      ? supervisorArgs(options.pythonPath, program)
      : input.init === 'program'
        ? program
        : launcherArgs(
            options.pythonPath,
            input.wallMs ?? 0,
            input.collect,
            input.collectMaxFiles,
            input.collectMaxBytes,
            program,
          );
  // prettier-ignore
  const args = [
    `--reuid=${options.uid}`, `--regid=${options.gid}`, '--clear-groups', '--inh-caps=-all', '--no-new-privs',
    options.bwrapPath,
    // --die-with-parent also applies to bwrap's monitor: a grader that crashes takes every sandbox with it.
    '--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--new-session',
    // The launcher is PID 1: nothing inside can signal it, and every orphan comes to it to be measured.
    '--as-pid-1',
    '--clearenv', '--hostname', 'sandbox',
    '--ro-bind', '/usr', '/usr',
    '--symlink', 'usr/bin', '/bin', '--symlink', 'usr/lib', '/lib', '--symlink', 'usr/lib64', '/lib64',
    // Debian's library alternatives (numpy's libblas.so.3 is a link through /etc/alternatives) and the
    // time zone: symlinks and public data. Nothing else of /etc is visible.
    '--ro-bind-try', '/etc/alternatives', '/etc/alternatives', '--ro-bind-try', '/etc/localtime', '/etc/localtime',
    '--proc', '/proc', '--dev', '/dev',
    '--size', String(SHM_BYTES), '--tmpfs', '/dev/shm',
    '--size', String(limits.tmpBytes), '--tmpfs', '/tmp',
    ...jobArgs,
    ...mounts,
    '--remount-ro', '/dev', '--remount-ro', '/',
    '--chdir', '/job',
    '--setenv', 'PATH', '/usr/bin', '--setenv', 'HOME', '/tmp', '--setenv', 'LANG', 'C.UTF-8',
    // BLAS thread pools would otherwise size themselves to the host and trip RLIMIT_NPROC / RLIMIT_AS.
    '--setenv', 'OPENBLAS_NUM_THREADS', '1', '--setenv', 'OMP_NUM_THREADS', '1',
    '--',
    ...command,
  ];
  return { file: options.setprivPath, args };
}
