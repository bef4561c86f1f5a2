import {
  MAX_OUTPUT_TEXT,
  MAX_OUTPUTS_PER_CELL,
  NotebookOutput,
  type InternalKernelLimits,
} from '@kadai/contracts';
import { headOf, type KernelLimits, type KernelOutput } from '@kadai/sandbox';
import { HttpError } from '../../lib/errors.ts';

/** What a kernel host answers with, wherever the call came from (this process or another instance). */

const MB = 1024 * 1024;

export const capacity = () =>
  new HttpError(
    429,
    'workbook_capacity',
    'The server is running as many workbooks as it can. Try again in a few minutes.',
    undefined,
    { 'retry-after': '60' },
  );

export const sandboxDown = () =>
  new HttpError(
    503,
    'sandbox_unavailable',
    'Workbooks cannot run code on this server: the sandbox is not available.',
  );

/** No kernel host took the session's kernel after several tries (hosts dying one after another). */
export const noKernelHost = () =>
  new HttpError(
    503,
    'kernel_host_unreachable',
    'No server could take this notebook’s kernel just now. Try again in a moment.',
    undefined,
    { 'retry-after': '5' },
  );

/** A host shutting down starts no kernel; the caller takes it as gone and moves the session. */
export const stopping = () =>
  new HttpError(503, 'kernel_host_stopping', 'This kernel host is shutting down.', undefined, {
    'retry-after': '1',
  });

export const kernelLimits = (limits: InternalKernelLimits): Partial<KernelLimits> => ({
  memoryBytes: limits.memory_mb * MB,
  cpuSeconds: limits.cpu_seconds,
  outputBytes: MAX_OUTPUT_TEXT,
});

/**
 * Outputs as the notebook stores them: each checked against the contract, text cut to its limit at a
 * whole character. The kernel's texts arrive with NUL and half characters already replaced by U+FFFD
 * (the sandbox's kernel protocol): the contract refuses both, and would drop such an output.
 */
export function toOutputs(outputs: KernelOutput[]): NotebookOutput[] {
  const cut = (text: string) =>
    text.length > MAX_OUTPUT_TEXT ? `${headOf(text, MAX_OUTPUT_TEXT - 20)}\n[output truncated]` : text;
  return outputs.slice(0, MAX_OUTPUTS_PER_CELL).flatMap((output) => {
    const shaped =
      output.output_type === 'stream'
        ? { ...output, text: cut(output.text) }
        : output.output_type === 'error'
          ? { ...output, evalue: cut(output.evalue), traceback: output.traceback.slice(0, 200).map(cut) }
          : output;
    const parsed = NotebookOutput.safeParse(shaped);
    return parsed.success ? [parsed.data] : [];
  });
}
