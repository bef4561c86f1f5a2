import type { CodeMirrorEditorProps } from '../ui/code-editor-props.ts';

/**
 * What CodeEditor.tsx loads in place of CodeMirror in the web tests (vitest.config.ts aliases
 * `./CodeMirrorEditor.tsx` to this file): CodeMirror measures text, which jsdom does not lay out, so a
 * text area with the same props stands in. Tests type into it with `fireEvent.change` and read its
 * value; whether CodeMirror itself works is the journeys' business (Chromium).
 */
export default function CodeMirrorStandIn(props: CodeMirrorEditorProps) {
  return (
    <textarea
      data-codemirror-stand-in=""
      aria-label={props.label}
      aria-describedby={props.describedBy}
      value={props.value}
      readOnly={props.readOnly}
      onChange={(event) => props.onChange?.(event.currentTarget.value)}
    />
  );
}
