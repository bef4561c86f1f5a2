import { useCallback, type RefObject } from 'react';

/** Frames to wait for a cell's editor to appear (CodeMirror loads on demand). */
const MAX_FRAMES = 60;

/**
 * Moves the keyboard into a cell's editor once it is on the page — a cell just added, or the next one
 * after Shift+Enter — falling back on the cell itself.
 */
export function useCellFocus(root: RefObject<HTMLElement | null>) {
  return useCallback(
    (cellId: string) => {
      let frames = 0;
      const attempt = () => {
        const cell = root.current?.querySelector<HTMLElement>(`[data-cell-id="${cellId}"]`);
        const input = cell?.querySelector<HTMLElement>(
          '[data-cell-input] .cm-content, [data-cell-input] textarea',
        );
        if (input) {
          input.focus();
        } else if (cell?.querySelector('[data-cell-preview]')) {
          cell.focus();
        } else if (frames < MAX_FRAMES) {
          frames += 1;
          window.requestAnimationFrame(attempt);
        } else {
          cell?.focus();
        }
      };
      window.requestAnimationFrame(attempt);
    },
    [root],
  );
}
