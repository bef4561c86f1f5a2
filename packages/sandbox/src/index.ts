export { probeSandbox, type ProbeOptions, type SandboxStatus } from './probe.ts';
export { runSandboxed } from './run.ts';
export {
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
