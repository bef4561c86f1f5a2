import type { LineChanges } from './line-changes.ts';

// The props of the side-by-side diff, apart from CodeDiff.tsx: CodeMergeView.tsx (which CodeDiff.tsx
// loads on first use) needs them too, and a type import back would close an import circle.

export interface DiffSide {
  text: string;
  /** The accessible name of this side's code. */
  label: string;
}

export interface CodeDiffProps {
  left: DiffSide;
  right: DiffSide;
  language?: 'python' | 'plain';
  /** Told the line counts each time the two texts have been compared. */
  onChanges?: (changes: LineChanges) => void;
}
