import type { Extension } from '@codemirror/state';
import type { RefObject } from 'react';

// The props of the code editor, apart from CodeEditor.tsx: CodeMirrorEditor.tsx (which CodeEditor.tsx
// loads on first use) needs them too, and a type import back would close an import circle.

export interface CodeEditorProps {
  value: string;
  onChange?: (value: string) => void;
  /** The accessible name of the editing area. */
  label: string;
  readOnly?: boolean;
  language?: 'python' | 'plain';
  minHeight?: number;
  maxHeight?: number;
  placeholder?: string;
  /** Id of an element describing the editor (limits, keyboard hint). */
  describedBy?: string;
  /**
   * More CodeMirror extensions (gutter handlers, line decorations); changed ones are swapped in without
   * remaking the view. Keep the array stable (useMemo) while nothing in it changes.
   */
  extensions?: Extension[];
}

/** Where the text cursor was in the stand-in when CodeMirror took over (it keeps focus and selection). */
export interface CarriedSelection {
  anchor: number;
  head: number;
}

export interface CodeMirrorEditorProps extends CodeEditorProps {
  /** Set by the stand-in as it leaves, when it had focus: CodeMirror takes focus and selection over. */
  carry?: RefObject<CarriedSelection | undefined>;
}
