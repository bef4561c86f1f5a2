import { renderHook } from '@testing-library/react';
import type { SubmissionStatus } from '@kadai/contracts';
import { describe, expect, it, vi } from 'vitest';
import { useWhenSettled } from './useWhenSettled.ts';

type Row = { id: number; status: SubmissionStatus };

function setup(initial: Row[] | undefined) {
  const onSettled = vi.fn();
  const hook = renderHook(({ rows }: { rows: Row[] | undefined }) => useWhenSettled(rows, onSettled), {
    initialProps: { rows: initial },
  });
  return { onSettled, show: (rows: Row[] | undefined) => hook.rerender({ rows }) };
}

describe('useWhenSettled', () => {
  it('does nothing for the results already there when the page opens', () => {
    const { onSettled, show } = setup(undefined);
    show([{ id: 1, status: 'Completed' }]);
    show([{ id: 1, status: 'Completed' }]);
    expect(onSettled).not.toHaveBeenCalled();
  });

  it('fires when a submission seen in progress finishes', () => {
    const { onSettled, show } = setup([{ id: 1, status: 'Scheduled' }]);
    show([{ id: 1, status: 'Executing' }]);
    expect(onSettled).not.toHaveBeenCalled();
    show([{ id: 1, status: 'Completed' }]);
    expect(onSettled).toHaveBeenCalledTimes(1);
  });

  it('fires when a new submission first appears already graded (a grader faster than the poll)', () => {
    const { onSettled, show } = setup([{ id: 1, status: 'Completed' }]);
    show([
      { id: 2, status: 'Completed' },
      { id: 1, status: 'Completed' },
    ]);
    expect(onSettled).toHaveBeenCalledTimes(1);
  });

  it('does not fire for a new submission that is still waiting', () => {
    const { onSettled, show } = setup([{ id: 1, status: 'Completed' }]);
    show([
      { id: 2, status: 'Pending' },
      { id: 1, status: 'Completed' },
    ]);
    expect(onSettled).not.toHaveBeenCalled();
  });
});
