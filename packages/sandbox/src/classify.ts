import type { LimitHit, SandboxLimits } from './types.ts';

export interface Outcome {
  /** Why the host killed the tree itself, if it did. */
  killedFor: 'wall' | 'output' | null;
  signal: string | null;
  stderr: string;
  timeMs: number;
  truncated: boolean;
  limits: Pick<SandboxLimits, 'cpuSeconds'>;
  /**
   * CPU time of the tree when known (a kernel lives far longer than its CPU limit, so its wall time says
   * nothing); without it the wall time stands in, as a run's is close to its CPU time.
   */
  cpuMs?: number | null;
}

const MEMORY_TEXT = /MemoryError\b|Cannot allocate memory|out of memory|std::bad_alloc/i;
const FILE_SIZE_TEXT = /\[Errno 27\] File too large/;

/**
 * Which limit ended the run. The host's own kills are certain; the rest is read from how the program
 * died, so a program can make itself look limited (printing "MemoryError", exiting with 152) — that
 * only ever hurts its own result, never makes a failure look like success.
 */
export function classifyLimit(outcome: Outcome): LimitHit {
  const { killedFor, signal, stderr, timeMs, limits } = outcome;
  const spentMs = outcome.cpuMs ?? timeMs;
  if (killedFor) return killedFor;
  if (signal === 'SIGXCPU') return 'cpu';
  if (signal === 'SIGXFSZ') return 'file_size';
  // The hard RLIMIT_CPU (one second after SIGXCPU, for programs that catch it) is a plain SIGKILL.
  if (signal === 'SIGKILL' && spentMs >= limits.cpuSeconds * 1000) return 'cpu';
  // Under RLIMIT_AS, CPython raises MemoryError; C code that does not check malloc crashes instead.
  if (signal === 'SIGSEGV' || signal === 'SIGBUS' || MEMORY_TEXT.test(stderr)) return 'memory';
  // CPython ignores SIGXFSZ, so RLIMIT_FSIZE shows up as EFBIG.
  if (FILE_SIZE_TEXT.test(stderr)) return 'file_size';
  if (outcome.truncated) return 'output';
  return null;
}
