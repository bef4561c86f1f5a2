export { startKernel } from './kernel.ts';
export {
  DEFAULT_KERNEL_LIMITS,
  DEFAULT_KERNEL_TIMEOUT_MS,
  KERNEL_MAX_CODE_LENGTH,
  KERNEL_MAX_OUTPUTS,
  type Kernel,
  type KernelExecuteOptions,
  type KernelExit,
  type KernelExitReason,
  type KernelLimitHit,
  type KernelLimits,
  type KernelMimeBundle,
  type KernelOptions,
  type KernelOutput,
  type KernelResult,
} from './kernel-types.ts';
export { headOf, storableText } from './output-text.ts';
export { probeSandbox, type ProbeOptions, type SandboxStatus } from './probe.ts';
export { runSandboxed } from './run.ts';
export {
  PAIR_CONTROL_FD,
  PAIR_DATA_FD,
  WORKER_DATA_FD,
  runPaired,
  type PairedRequest,
  type PairedResult,
  type WorkerRequest,
  type WorkerResult,
} from './pair.ts';
export { RESULT_FD } from './launcher.ts';
export {
  CHANNEL_MAX_BYTES,
  COLLECT_MAX_BYTES,
  COLLECT_MAX_FILES,
  DEFAULT_LIMITS,
  SandboxRequestError,
  SandboxUnavailableError,
  type LimitHit,
  type SandboxCollectedFile,
  type SandboxFile,
  type SandboxLimits,
  type SandboxOptions,
  type SandboxReadOnlyDir,
  type SandboxReadOnlyFiles,
  type SandboxRequest,
  type SandboxResult,
} from './types.ts';
