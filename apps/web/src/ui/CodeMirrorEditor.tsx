import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { python } from '@codemirror/lang-python';
import { HighlightStyle, bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language';
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
import { tags } from '@lezer/highlight';
import { useEffect, useRef } from 'react';
import { useSession } from '../features/auth/session.ts';
import type { CodeMirrorEditorProps } from './code-editor-props.ts';

/*
 * Token colours chosen for at least 4.5:1 against the editor background in each scheme (axe checks the
 * text inside the editor too): CodeMirror's default and One Dark comment colours fall short.
 */
const lightHighlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.operatorKeyword, tags.controlKeyword], color: '#7a1f8f' },
  { tag: [tags.string, tags.special(tags.string)], color: '#1f6b2c' },
  { tag: [tags.number, tags.bool, tags.null], color: '#9a3412' },
  { tag: tags.comment, color: '#495057', fontStyle: 'italic' },
  { tag: [tags.function(tags.variableName), tags.definition(tags.variableName)], color: '#1c4f9c' },
  { tag: [tags.className, tags.definition(tags.className)], color: '#8a4b00' },
  { tag: tags.invalid, color: '#a61e1e' },
]);

const darkHighlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.operatorKeyword, tags.controlKeyword], color: '#e599f7' },
  { tag: [tags.string, tags.special(tags.string)], color: '#8ce99a' },
  { tag: [tags.number, tags.bool, tags.null], color: '#ffc078' },
  { tag: tags.comment, color: '#ced4da', fontStyle: 'italic' },
  { tag: [tags.function(tags.variableName), tags.definition(tags.variableName)], color: '#a5d8ff' },
  { tag: [tags.className, tags.definition(tags.className)], color: '#ffd8a8' },
  { tag: tags.invalid, color: '#ffa8a8' },
]);

function schemeTheme(dark: boolean): Extension {
  const background = dark ? 'var(--mantine-color-dark-7)' : 'var(--mantine-color-white)';
  const text = dark ? 'var(--mantine-color-dark-0)' : 'var(--mantine-color-black)';
  const gutterText = dark ? 'var(--mantine-color-dark-1)' : 'var(--mantine-color-gray-7)';
  return [
    EditorView.theme(
      {
        '&': { backgroundColor: background, color: text },
        '.cm-content': { caretColor: text },
        '.cm-cursor, .cm-dropCursor': { borderLeftColor: text },
        '.cm-gutters': {
          backgroundColor: dark ? 'var(--mantine-color-dark-6)' : 'var(--mantine-color-gray-0)',
          color: gutterText,
          borderRight: '1px solid var(--mantine-color-default-border)',
        },
        '.cm-activeLine': { backgroundColor: dark ? '#ffffff0d' : '#228be60d' },
        '.cm-activeLineGutter': { backgroundColor: dark ? '#ffffff14' : '#228be614' },
        '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': {
          backgroundColor: dark ? '#1c7ed666' : '#a5d8ff',
        },
        '.cm-placeholder': { color: gutterText },
      },
      { dark },
    ),
    syntaxHighlighting(dark ? darkHighlight : lightHighlight),
  ];
}

const baseTheme = EditorView.theme({
  '&': {
    fontSize: '14px',
    border: '1px solid var(--mantine-color-default-border)',
    borderRadius: 'var(--mantine-radius-md)',
    overflow: 'hidden',
  },
  '&.cm-focused': { outline: '2px solid var(--mantine-primary-color-filled)', outlineOffset: '1px' },
  '.cm-scroller': {
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Noto Sans Mono CJK JP", monospace',
    lineHeight: '1.5',
  },
});

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
}: CodeMirrorEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  const latestValue = useRef(value);
  const isDark = useSession((s) => s.isDarkMode);
  const theme = useRef(new Compartment());
  const attributes = useRef(new Compartment());
  // Only the first view takes over from the stand-in (a later one, remade for new options, does not).
  const tookOver = useRef(false);

  useEffect(() => {
    onChangeRef.current = onChange;
    latestValue.current = value;
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
    const editor = view.current;
    if (!editor) return;
    const current = editor.state.doc.toString();
    if (current !== value) editor.dispatch({ changes: { from: 0, to: current.length, insert: value } });
  }, [value]);

  return <div ref={host} data-testid="code-editor" />;
}
