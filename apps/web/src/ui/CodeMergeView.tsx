import { python } from '@codemirror/lang-python';
import { MergeView } from '@codemirror/merge';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { useSession } from '../features/auth/session.ts';
import type { CodeDiffProps } from './code-diff-props.ts';
import { baseTheme, schemeTheme } from './code-theme.ts';
import { countLineChanges } from './line-changes.ts';

// The box around both sides draws the border (CodeDiff.module.css), not each side.
const sideTheme = EditorView.theme({
  '&': { border: 'none', borderRadius: '0' },
});

function sideExtensions(label: string, language: 'python' | 'plain', dark: boolean): Extension[] {
  return [
    lineNumbers(),
    EditorState.tabSize.of(4),
    EditorState.readOnly.of(true),
    EditorView.editable.of(false),
    // Read-only code is still reachable by keyboard, to scroll it and select from it.
    EditorView.contentAttributes.of({ tabindex: '0', 'aria-label': label }),
    baseTheme,
    sideTheme,
    schemeTheme(dark),
    language === 'python' ? python() : [],
  ];
}

/** Two texts side by side, read-only, their differences marked and long equal stretches folded. */
export default function CodeMergeView({ left, right, language = 'python', onChanges }: CodeDiffProps) {
  const host = useRef<HTMLDivElement>(null);
  const isDark = useSession((s) => s.isDarkMode);
  const onChangesRef = useRef(onChanges);

  useEffect(() => {
    onChangesRef.current = onChanges;
  });

  // Nothing here is edited: a new text, label or scheme makes a new view (cheap for files of this size).
  useEffect(() => {
    if (!host.current) return undefined;
    const view = new MergeView({
      a: { doc: left.text, extensions: sideExtensions(left.label, language, isDark) },
      b: { doc: right.text, extensions: sideExtensions(right.label, language, isDark) },
      parent: host.current,
      collapseUnchanged: { margin: 3, minSize: 4 },
      gutter: true,
      highlightChanges: true,
    });
    onChangesRef.current?.(countLineChanges(view.chunks, view.a.state.doc, view.b.state.doc));
    return () => view.destroy();
  }, [left.text, left.label, right.text, right.label, language, isDark]);

  return <div ref={host} data-testid="code-merge-view" />;
}
