import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { tags } from '@lezer/highlight';

// The code editor's look, shared by the editor (CodeMirrorEditor.tsx) and the side-by-side diff
// (CodeMergeView.tsx), so code reads the same wherever it is shown.

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

/** Colours of the light or dark scheme: background, gutter, selection and tokens. */
export function schemeTheme(dark: boolean): Extension {
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

/** Size, border, font and focus ring, the same in both schemes. */
export const baseTheme = EditorView.theme({
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
