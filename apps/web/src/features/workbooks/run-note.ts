import type { WorkbookExecution } from '@kadai/contracts';

/** What the page says under a cell about how its last run ended, beyond the outputs. */
export type RunNote =
  /** The kernel is gone: by its memory or CPU limit, an unstoppable cell, too much output, or unknown. */
  | { kind: 'dead'; limit: WorkbookExecution['limit'] }
  /** The cell hit its time limit and was interrupted; the kernel and its variables are still there. */
  | { kind: 'interrupted' }
  /** The cell printed more than a cell keeps; the rest was dropped. */
  | { kind: 'truncated' }
  /**
   * The kernel was gone before this run (its server stopped, or it had died) and a fresh one ran it:
   * variables of earlier runs are lost, the notebook is kept.
   */
  | { kind: 'restarted' };

export function runNoteOf(
  execution: Pick<WorkbookExecution, 'status' | 'limit' | 'kernel_restarted'>,
): RunNote | null {
  if (execution.status === 'dead') return { kind: 'dead', limit: execution.limit };
  if (execution.kernel_restarted) return { kind: 'restarted' };
  if (execution.limit === 'wall') return { kind: 'interrupted' };
  if (execution.limit === 'output') return { kind: 'truncated' };
  return null;
}
