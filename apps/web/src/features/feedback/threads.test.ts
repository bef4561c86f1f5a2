import { describe, expect, it } from 'vitest';
import { comment } from './feedback-fixtures.ts';
import { linesOf, segmentsOf, threadsOf } from './threads.ts';

describe('threads on a file', () => {
  it('gathers replies under their comment, by file and line', () => {
    const threads = threadsOf([
      comment(3, { line_start: 5, line_end: 6 }),
      comment(4, { parent_id: 1 }),
      comment(1, { line_start: 1, line_end: 2 }),
      comment(2, { filename: 'a.py' }),
    ]);
    expect(threads.map((thread) => thread.root.id)).toEqual([2, 1, 3]);
    expect(threads[1]!.replies.map((reply) => reply.id)).toEqual([4]);
  });

  it('cuts the file after each line a thread ends on; a thread past the end follows the last line', () => {
    const threads = threadsOf([
      comment(1, { line_start: 1, line_end: 2 }),
      comment(2, { line_start: 2, line_end: 2 }),
      comment(3, { line_start: 9, line_end: 12 }),
    ]);
    const segments = segmentsOf(6, threads).map(({ from, to, threads: at }) => ({
      from,
      to,
      ids: at.map((thread) => thread.root.id),
    }));
    expect(segments).toEqual([
      { from: 1, to: 2, ids: [1, 2] },
      { from: 3, to: 6, ids: [3] },
    ]);
    expect(segmentsOf(3, [])).toEqual([{ from: 1, to: 3, threads: [] }]);
  });

  it('reads a final newline as the end of the last line', () => {
    expect(linesOf('a\nb\n')).toEqual(['a', 'b']);
    expect(linesOf('a\r\n\r\nb')).toEqual(['a', '', 'b']);
    expect(linesOf('')).toEqual(['']);
  });
});
