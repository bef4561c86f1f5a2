import type { Chunk } from '@codemirror/merge';
import type { Text } from '@codemirror/state';

/** How two texts differ, in lines: as the merge view marks them. */
export interface LineChanges {
  /** Lines only on the right (new or rewritten). */
  added: number;
  /** Lines only on the left (dropped or rewritten). */
  removed: number;
  /** Rows of the diff that differ: a rewritten line counts once, though it is both added and removed. */
  changed: number;
}

function linesOf(doc: Text, from: number, to: number, end: number): number {
  // A chunk that is empty on one side covers no line there (`to` equals `from`); nor does an empty
  // document (a file only on the other side), though CodeMirror gives it one empty line.
  if (to === from || doc.length === 0) return 0;
  return doc.lineAt(end).number - doc.lineAt(from).number + 1;
}

/** Counts the lines of the merge view's chunks (`MergeView.chunks`) of documents `a` (left) and `b` (right). */
export function countLineChanges(chunks: readonly Chunk[], a: Text, b: Text): LineChanges {
  let added = 0;
  let removed = 0;
  let changed = 0;
  for (const chunk of chunks) {
    const inA = linesOf(a, chunk.fromA, chunk.toA, chunk.endA);
    const inB = linesOf(b, chunk.fromB, chunk.toB, chunk.endB);
    removed += inA;
    added += inB;
    changed += Math.max(inA, inB);
  }
  return { added, removed, changed };
}
