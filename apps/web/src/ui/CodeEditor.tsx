import { Skeleton } from '@mantine/core';
import { Suspense } from 'react';
import { lazyComponent } from './lazyComponent.ts';

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
}

// CodeMirror is about 400 kB: only the pages that show code download it, when they first do.
const CodeMirrorEditor = lazyComponent(() => import('./CodeMirrorEditor.tsx'));

/** A code editor (CodeMirror 6, Python), loaded on demand. */
export function CodeEditor(props: CodeEditorProps) {
  return (
    <Suspense fallback={<Skeleton height={props.minHeight ?? 160} radius="md" aria-busy="true" />}>
      <CodeMirrorEditor {...props} />
    </Suspense>
  );
}
