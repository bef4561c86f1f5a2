import type { WorkbookExecution } from '@kadai/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { executeCell } from './workbooks.api.ts';

interface RunnerCallbacks {
  /** The code of a cell as it is now, or null when it is no longer a code cell. */
  readSource: (cellId: string) => string | null;
  onExecuted: (execution: WorkbookExecution) => void;
  onFailed: (error: unknown) => void;
}

/**
 * Runs cells one at a time, in the order asked, as a Jupyter kernel does: a run that raises or kills the
 * kernel drops the runs queued behind it (so "Run all" stops at the first error). `reset` (a kernel
 * restart) empties the queue and ignores the answer of a run that was still going.
 */
export function useCellRunner(workbookId: number, callbacks: RunnerCallbacks) {
  const queue = useRef<string[]>([]);
  const draining = useRef(false);
  const generation = useRef(0);
  const [pending, setPending] = useState<readonly string[]>([]);
  const [running, setRunning] = useState<string | null>(null);
  const latest = useRef(callbacks);
  useEffect(() => {
    latest.current = callbacks;
  });

  const drain = useCallback(async () => {
    if (draining.current) return;
    draining.current = true;
    const publish = () => setPending([...queue.current]);
    try {
      while (queue.current.length > 0) {
        const cellId = queue.current[0]!;
        const code = latest.current.readSource(cellId);
        if (code === null) {
          queue.current.shift();
          publish();
          continue;
        }
        const startedIn = generation.current;
        setRunning(cellId);
        let execution: WorkbookExecution;
        try {
          execution = await executeCell(workbookId, { cell_id: cellId, code });
        } catch (error) {
          if (generation.current !== startedIn) continue;
          queue.current = [];
          publish();
          latest.current.onFailed(error);
          break;
        }
        // A restart while it ran: the answer is from the old kernel, and the queue holds what came after.
        if (generation.current !== startedIn) continue;
        queue.current.shift();
        if (execution.status !== 'ok') queue.current = [];
        publish();
        latest.current.onExecuted(execution);
      }
    } finally {
      draining.current = false;
      setRunning(null);
    }
  }, [workbookId]);

  const enqueue = useCallback(
    (cellIds: readonly string[]) => {
      const waiting = new Set(draining.current ? queue.current.slice(1) : queue.current);
      const added = cellIds.filter((id) => !waiting.has(id));
      if (added.length === 0) return;
      queue.current = [...queue.current, ...added];
      setPending([...queue.current]);
      void drain();
    },
    [drain],
  );

  const reset = useCallback(() => {
    generation.current += 1;
    queue.current = [];
    setPending([]);
  }, []);

  return { enqueue, reset, pending, running };
}
