/** A file of the job: `path` is relative to the job dir (`main.py`, `data/in.csv`). */
export interface SandboxFile {
  path: string;
  content: string | Uint8Array;
}

export interface SandboxLimits {
  /** RLIMIT_CPU soft limit (SIGXCPU); the hard limit, one second later, is SIGKILL. */
  cpuSeconds: number;
  /** Wall clock: the whole process tree is SIGKILLed when it runs out. */
  wallMs: number;
  /** RLIMIT_AS (address space, not RSS): there is no cgroup memory controller to use instead. */
  memoryBytes: number;
  /** RLIMIT_NPROC, counted per sandbox (each run has its own user namespace); threads count too. */
  processes: number;
  /** RLIMIT_FSIZE: the largest file the program may write. */
  fileSizeBytes: number;
  /** RLIMIT_NOFILE. */
  openFiles: number;
  /** Cap for stdout and for stderr each; the tree is killed once either passes 4× this. */
  outputBytes: number;
  /** Size of the /tmp tmpfs, and what a `writable` run may add to /job (a tmpfs of its own). */
  tmpBytes: number;
}

/** What bubblewrap and the rlimits enforce themselves: shared by one-off runs and kernels. */
export type ConfinementLimits = Omit<SandboxLimits, 'wallMs' | 'outputBytes'>;

export const DEFAULT_LIMITS: SandboxLimits = Object.freeze({
  cpuSeconds: 2,
  wallMs: 5000,
  memoryBytes: 256 * 1024 * 1024,
  processes: 32,
  fileSizeBytes: 1024 * 1024,
  openFiles: 64,
  outputBytes: 64 * 1024,
  tmpBytes: 16 * 1024 * 1024,
});

export type LimitHit = 'cpu' | 'wall' | 'memory' | 'output' | 'file_size' | null;

/** A host directory bound read-only into the sandbox (e.g. another run's output for a checker). */
export interface SandboxReadOnlyDir {
  hostPath: string;
  /** `/data`, `/judge` or a path below one of them. */
  sandboxPath: string;
}

/** Files written to a fresh host directory of their own and bound read-only at `sandboxPath`. */
export interface SandboxReadOnlyFiles {
  /** `/data`, `/judge` or a path below one of them. */
  sandboxPath: string;
  files: SandboxFile[];
}

export interface SandboxRequest {
  /** Written to a fresh private job dir on the host, mounted at /job (the working directory). */
  files: SandboxFile[];
  /** Arguments after `/usr/bin/python3 -I`; default `['main.py']`. */
  argv?: string[];
  stdin?: string | Uint8Array;
  limits?: Partial<SandboxLimits>;
  /** false (default): /job is read-only. true: /job is a writable tmpfs copy of the files. */
  writable?: boolean;
  /** With `writable`: relative paths or simple globs (`*`, `?` within one path segment) to return. */
  collect?: string[];
  readOnlyDirs?: SandboxReadOnlyDir[];
  /** Like `readOnlyDirs`, but from contents: e.g. a student's collected files for a checker run. */
  readOnlyFiles?: SandboxReadOnlyFiles[];
  /**
   * Open a pipe on descriptor 4 for the program (a test harness) to report on; what it wrote comes back
   * as `channel`. Any code in the program's process can write to it too: it is not stdout, nothing more.
   */
  resultChannel?: boolean;
  /** Aborting kills the tree; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface SandboxCollectedFile {
  path: string;
  content: Uint8Array;
}

export interface SandboxResult {
  /** The program's exit code; null when it was killed by a signal. */
  exitCode: number | null;
  /** e.g. 'SIGKILL', 'SIGXCPU', 'SIGSEGV'. */
  signal: string | null;
  /** Wall time from spawning the sandbox to its exit (includes ~15 ms of sandbox and launcher set-up). */
  timeMs: number;
  /**
   * User + system CPU time of the whole tree (every process the program started, leftovers included),
   * measured by the launcher; null only when the host killed the tree (wall, output, abort) first.
   */
  cpuMs: number | null;
  /** Peak RSS in KiB of the largest process of the tree; null when `cpuMs` is. */
  memoryKb: number | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  limit: LimitHit;
  /** Collected files (only with `writable` and `collect`), at most 20 files and 1 MiB in all. */
  files: SandboxCollectedFile[];
  /** Collected files that matched but were left out (too many, too large, not a regular file). */
  filesSkipped?: string[];
  /** With `resultChannel`: what was written to descriptor 4, at most CHANNEL_MAX_BYTES. */
  channel?: Uint8Array;
  /** With `resultChannel`: more than CHANNEL_MAX_BYTES was written (the rest was dropped). */
  channelTruncated?: boolean;
}

/** Where the programs are and which uid runs the code; tests inject these, production keeps defaults. */
export interface SandboxOptions {
  bwrapPath?: string;
  setprivPath?: string;
  /** Runs inside the sandbox, so it must live under /usr. */
  prlimitPath?: string;
  /** Runs inside the sandbox, so it must live under /usr. */
  pythonPath?: string;
  /** Parent of the per-run job dirs (default os.tmpdir()); uid 65534 must be able to traverse it. */
  jobBase?: string;
  uid?: number;
  gid?: number;
}

/** runSandboxed throws this instead of ever running code without the sandbox. */
export class SandboxUnavailableError extends Error {
  override name = 'SandboxUnavailableError';
}

/** The request itself is unsafe or malformed (bad file name, bad mount point, bad limit). */
export class SandboxRequestError extends Error {
  override name = 'SandboxRequestError';
}

export const COLLECT_MAX_FILES = 20;
/** The most kept of a run's result channel. */
export const CHANNEL_MAX_BYTES = 4 * 1024 * 1024;
export const COLLECT_MAX_BYTES = 1024 * 1024;
