import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { useEffect, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { CodeEditor, type CodeMirrorEditorProps } from './CodeEditor.tsx';

// CodeMirror needs layout APIs jsdom lacks: a marked text area stands in, showing what it was given.
// What it was handed over is read after the commit, as CodeMirror does when it makes its view.
vi.mock('./CodeMirrorEditor.tsx', () => ({
  default: function StandInForCodeMirror(props: CodeMirrorEditorProps) {
    const [carried, setCarried] = useState('');
    useEffect(() => setCarried(JSON.stringify(props.carry?.current ?? null)), [props.carry]);
    return (
      <textarea
        data-codemirror=""
        data-carried={carried}
        aria-label={props.label}
        value={props.value}
        readOnly={props.readOnly}
        onChange={(event) => props.onChange?.(event.currentTarget.value)}
      />
    );
  },
}));

function Editor({ readOnly = false }: { readOnly?: boolean }) {
  const [code, setCode] = useState('print(1)\n');
  return (
    <MantineProvider>
      <CodeEditor label="Code (main.py)" value={code} onChange={setCode} readOnly={readOnly} />
      <output aria-label="code">{code}</output>
    </MantineProvider>
  );
}

describe('CodeEditor', () => {
  it('starts an editable editor as a text area that already takes typing', () => {
    render(<Editor />);
    const area = screen.getByRole('textbox', { name: 'Code (main.py)' });
    expect(area.hasAttribute('data-codemirror')).toBe(false);
    fireEvent.change(area, { target: { value: 'print(2)\n' } });
    expect(screen.getByLabelText('code').textContent).toBe('print(2)\n');
  });

  it('becomes CodeMirror on focus, keeping the text, focus and selection', async () => {
    render(<Editor />);
    const area = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Code (main.py)' });
    fireEvent.change(area, { target: { value: 'print(3)\n' } });
    area.focus();
    area.setSelectionRange(2, 5);
    fireEvent.focus(area);
    const editor = await waitFor(() => {
      const current = screen.getByRole('textbox', { name: 'Code (main.py)' });
      expect(current.hasAttribute('data-codemirror')).toBe(true);
      return current;
    });
    expect((editor as HTMLTextAreaElement).value).toBe('print(3)\n');
    await waitFor(() =>
      expect(JSON.parse(editor.getAttribute('data-carried')!)).toEqual({ anchor: 2, head: 5 }),
    );
  });

  it('shows read-only code in CodeMirror without waiting for a pointer', async () => {
    render(<Editor readOnly />);
    const editor = await screen.findByRole('textbox', { name: 'Code (main.py)' });
    expect(editor.hasAttribute('data-codemirror')).toBe(true);
  });
});
