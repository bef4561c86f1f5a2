/** The public shapes of a kernel: one long-lived, sandboxed Python process of a notebook session. */

/** Limits of one kernel. The rlimits hold for its whole life; `outputBytes` for each execution. */
export interface KernelLimits {
  /** RLIMIT_AS (address space, not RSS). numpy + pandas + matplotlib take about 300 MiB of it. */
  memoryBytes: number;
  /** RLIMIT_CPU of the kernel over its whole life: SIGXCPU, then SIGKILL one second later. */
  cpuSeconds: number;
  /** RLIMIT_NPROC, counted per kernel (each has its own user namespace); threads count too. */
  processes: number;
  /** RLIMIT_FSIZE: the largest file the code may write. */
  fileSizeBytes: number;
  /** RLIMIT_NOFILE. */
  openFiles: number;
  /** Size of the /tmp tmpfs, and of the writable /job tmpfs (the working directory). */
  tmpBytes: number;
  /**
   * All the output of one execution together: UTF-8 text and base64 images. What does not fit is
   * dropped behind a visible "[output truncated]" marker and the result's limit is 'output'.
   */
  outputBytes: number;
}

export const DEFAULT_KERNEL_LIMITS: KernelLimits = Object.freeze({
  memoryBytes: 1024 * 1024 * 1024,
  cpuSeconds: 600,
  processes: 32,
  fileSizeBytes: 16 * 1024 * 1024,
  openFiles: 128,
  tmpBytes: 32 * 1024 * 1024,
  outputBytes: 1024 * 1024,
});

/** Outputs of one execution at most (as nbformat cells in the LMS allow); errors always fit. */
export const KERNEL_MAX_OUTPUTS = 50;
/** Per-execution time limit unless `execute` is given one. */
export const DEFAULT_KERNEL_TIMEOUT_MS = 30_000;
/** The longest source `execute` takes, in UTF-16 code units. */
export const KERNEL_MAX_CODE_LENGTH = 1_000_000;

export interface KernelOptions {
  limits?: Partial<KernelLimits>;
  /** How long the kernel may take to start (default 15 s). */
  startTimeoutMs?: number;
  /**
   * How long past an execution's time limit the host waits for the kernel to interrupt the code and
   * answer, before it kills the whole tree (default 2 s).
   */
  graceMs?: number;
}

/** A representation of a value, keyed by MIME type; images are base64 without line breaks. */
export interface KernelMimeBundle {
  'text/plain'?: string;
  'text/html'?: string;
  'image/png'?: string;
}

/** One output in the shape of nbformat 4. */
export type KernelOutput =
  | { output_type: 'stream'; name: 'stdout' | 'stderr'; text: string }
  | { output_type: 'execute_result'; execution_count: number | null; data: KernelMimeBundle }
  | { output_type: 'display_data'; data: KernelMimeBundle }
  | { output_type: 'error'; ename: string; evalue: string; traceback: string[] };

/** The limit an execution ran into ('output': truncated, the kernel lives on). */
export type KernelLimitHit = 'memory' | 'cpu' | 'wall' | 'output' | null;

export interface KernelResult {
  /** 'error': the code raised; 'dead': the kernel ended during this execution, or had already. */
  status: 'ok' | 'error' | 'dead';
  /** The kernel's count for this execution; null when the kernel could not say. */
  executionCount: number | null;
  outputs: KernelOutput[];
  /** For 'dead', why the kernel ended, when that was a limit; null when it had ended before. */
  limit: KernelLimitHit;
  /** From handing the code to the kernel to its answer (time spent waiting in the queue excluded). */
  timeMs: number;
}

export interface KernelExecuteOptions {
  /** The code is interrupted after this (default DEFAULT_KERNEL_TIMEOUT_MS); the kernel stays alive. */
  timeoutMs?: number;
}

/**
 * - 'shutdown': `shutdown()` was called.
 * - 'memory', 'cpu': a limit ended it. 'wall': an execution did not stop when interrupted.
 * - 'output': it flooded its diagnostic channel. 'protocol': it sent a malformed or oversized frame.
 * - 'exited': it ended on its own (`os._exit`, a crash), or could not start.
 */
export type KernelExitReason = 'shutdown' | 'memory' | 'cpu' | 'wall' | 'output' | 'protocol' | 'exited';

export interface KernelExit {
  reason: KernelExitReason;
  /** bwrap's exit status, decoded: a signal of the Python process shows up in `signal`. */
  exitCode: number | null;
  signal: string | null;
  /** CPU time of the whole tree; null when the host killed it (the launcher could not report). */
  cpuMs: number | null;
  /** What the sandbox printed outside the protocol (bwrap's errors, a faulthandler dump), capped. */
  detail: string;
}

export interface Kernel {
  /** Host pid of bwrap (the process group the kernel runs in). */
  readonly pid: number;
  readonly alive: boolean;
  /**
   * Runs `code`; calls are queued and run one at a time, in order. A kernel that has ended gives a
   * 'dead' result at once; only bad arguments reject (SandboxRequestError).
   */
  execute(code: string, options?: KernelExecuteOptions): Promise<KernelResult>;
  /**
   * Interrupts the execution running now, as Jupyter's interrupt does: KeyboardInterrupt is raised in
   * the code (again every half second, a few times, should the code swallow it), the execution answers
   * with it as an error, and the kernel keeps its state. True when an execution was running and was
   * signalled; false when none was (queued executions are not touched).
   */
  interrupt(): Promise<boolean>;
  /** Called once when the kernel has ended (at once, if it already has); returns an unsubscribe. */
  onExit(listener: (exit: KernelExit) => void): () => void;
  /** Kills the whole tree; resolves once it is gone. */
  shutdown(): Promise<void>;
  /** Resident memory of the kernel's Python process in KiB, from the host's /proc; null once ended. */
  memoryKb(): Promise<number | null>;
}
