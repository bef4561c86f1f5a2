import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { python } from '@codemirror/lang-python';
import { bracketMatching, indentOnInput } from '@codemirror/language';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import {
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  placeholder as placeholderExtension,
} from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { useSession } from '../features/auth/session.ts';
import type { CodeMirrorEditorProps } from './code-editor-props.ts';
import { baseTheme, schemeTheme } from './code-theme.ts';

/** CodeMirror 6 with Python highlighting; loaded on demand through CodeEditor. */
export default function CodeMirrorEditor({
  value,
  onChange,
  label,
  readOnly = false,
  language = 'python',
  minHeight = 160,
  maxHeight = 560,
  placeholder,
  describedBy,
  carry,
  extensions: extra,
}: CodeMirrorEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  const latestValue = useRef(value);
  const isDark = useSession((s) => s.isDarkMode);
  const theme = useRef(new Compartment());
  const attributes = useRef(new Compartment());
  const added = useRef(new Compartment());
  const latestExtra = useRef(extra);
  // Only the first view takes over from the stand-in (a later one, remade for new options, does not).
  const tookOver = useRef(false);

  useEffect(() => {
    onChangeRef.current = onChange;
    latestValue.current = value;
    latestExtra.current = extra;
  });

  // The view is made once; later changes of value, scheme and label are dispatched into it.
  useEffect(() => {
    if (!host.current) return undefined;
    const extensions: Extension[] = [
      lineNumbers(),
      highlightActiveLineGutter(),
      history(),
      drawSelection(),
      indentOnInput(),
      bracketMatching(),
      highlightActiveLine(),
      // Tab indents; Escape then Tab leaves the editor (CodeMirror's documented keyboard escape).
      keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
      EditorState.tabSize.of(4),
      EditorState.readOnly.of(readOnly),
      EditorView.editable.of(!readOnly),
      // The content is a tab stop, read-only too, and says so: a long module scrolls inside the editor,
      // and a scrolling region needs something a keyboard can focus (axe: scrollable-region-focusable).
      EditorView.contentAttributes.of({ tabindex: '0' }),
      baseTheme,
      EditorView.theme({
        '.cm-content, .cm-gutter': { minHeight: `${minHeight}px` },
        '.cm-scroller': { maxHeight: `${maxHeight}px`, overflow: 'auto' },
      }),
      theme.current.of(schemeTheme(useSession.getState().isDarkMode)),
      attributes.current.of([]),
      added.current.of(latestExtra.current ?? []),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) onChangeRef.current?.(update.state.doc.toString());
      }),
    ];
    if (language === 'python') extensions.push(python());
    if (placeholder) extensions.push(placeholderExtension(placeholder));
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({ doc: latestValue.current, extensions }),
    });
    view.current = editor;
    // Taking over from the text area that stood in (CodeEditor): focus and selection stay where they were.
    const selection = tookOver.current ? undefined : carry?.current;
    tookOver.current = true;
    if (selection) {
      const length = editor.state.doc.length;
      editor.dispatch({
        selection: { anchor: Math.min(selection.anchor, length), head: Math.min(selection.head, length) },
      });
      editor.focus();
    }
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, [readOnly, language, minHeight, maxHeight, placeholder, carry]);

  useEffect(() => {
    view.current?.dispatch({
      effects: attributes.current.reconfigure(
        EditorView.contentAttributes.of({
          'aria-label': label,
          ...(describedBy ? { 'aria-describedby': describedBy } : {}),
          // Read-only code is still reachable by keyboard, to scroll it and select from it.
          ...(readOnly ? { tabindex: '0' } : {}),
        }),
      ),
    });
  }, [label, describedBy, readOnly]);

  useEffect(() => {
    view.current?.dispatch({ effects: theme.current.reconfigure(schemeTheme(isDark)) });
  }, [isDark]);

  useEffect(() => {
    view.current?.dispatch({ effects: added.current.reconfigure(extra ?? []) });
  }, [extra]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const current = editor.state.doc.toString();
    if (current !== value) editor.dispatch({ changes: { from: 0, to: current.length, insert: value } });
  }, [value]);

  return <div ref={host} data-testid="code-editor" />;
}
