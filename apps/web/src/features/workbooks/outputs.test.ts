import { describe, expect, it } from 'vitest';
import { chooseRepresentation, mergeStreams, sanitizeOutputHtml } from './outputs.ts';
import { runNoteOf } from './run-note.ts';

describe('output representation', () => {
  const png = 'iVBORw0KGgo=';
  const html = '<table><tr><td>1</td></tr></table>';

  it('prefers a figure, then HTML, then plain text', () => {
    expect(chooseRepresentation({ 'image/png': png, 'text/html': html, 'text/plain': 'x' })).toEqual({
      kind: 'png',
      base64: png,
    });
    expect(chooseRepresentation({ 'text/html': html, 'text/plain': 'x' })).toMatchObject({ kind: 'html' });
    expect(chooseRepresentation({ 'text/plain': '\u001b[1mx\u001b[0m' })).toEqual({
      kind: 'text',
      text: 'x',
    });
    expect(chooseRepresentation({})).toEqual({ kind: 'empty' });
    // HTML that sanitises to nothing falls back on the text.
    expect(chooseRepresentation({ 'text/html': '<script>alert(1)</script>', 'text/plain': 'x' })).toEqual({
      kind: 'text',
      text: 'x',
    });
  });

  it('sanitises HTML output: no script, no handlers, no javascript: links, no styles', () => {
    const clean = sanitizeOutputHtml(
      '<style>td{color:red}</style><table border="1" class="dataframe"><tr><td onclick="x()">1</td></tr></table>' +
        '<img src=x onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">a</a><svg onload="alert(4)"></svg>',
    );
    const root = document.createElement('div');
    root.innerHTML = clean;
    expect(root.querySelector('script, style')).toBeNull();
    const attributes = [...root.querySelectorAll('*')].flatMap((element) => element.getAttributeNames());
    expect(attributes.filter((name) => name.startsWith('on'))).toEqual([]);
    expect(root.querySelector('a')?.getAttribute('href') ?? null).toBeNull();
    expect(root.querySelector('table.dataframe td')?.textContent).toBe('1');
    const chosen = chooseRepresentation({ 'text/html': '<b>ok</b><img src=x onerror=alert(1)>' });
    expect(chosen).toMatchObject({ kind: 'html' });
    expect(JSON.stringify(chosen)).not.toMatch(/onerror|alert/);
  });

  it('joins consecutive writes to one stream and strips their escapes', () => {
    expect(
      mergeStreams([
        { output_type: 'stream', name: 'stdout', text: 'a\n' },
        { output_type: 'stream', name: 'stdout', text: '\u001b[31mb\u001b[0m\n' },
        { output_type: 'stream', name: 'stderr', text: 'warn\n' },
        { output_type: 'stream', name: 'stdout', text: 'c\n' },
      ]),
    ).toEqual([
      { output_type: 'stream', name: 'stdout', text: 'a\nb\n' },
      { output_type: 'stream', name: 'stderr', text: 'warn\n' },
      { output_type: 'stream', name: 'stdout', text: 'c\n' },
    ]);
  });
});

describe('how a run ended', () => {
  const run = (
    status: 'ok' | 'error' | 'dead',
    limit: 'memory' | 'wall' | 'output' | null,
    restarted = false,
  ) => runNoteOf({ status, limit, kernel_restarted: restarted });

  it('tells a dead kernel from an interrupted or cut-short cell', () => {
    expect(run('dead', 'memory')).toEqual({ kind: 'dead', limit: 'memory' });
    expect(run('dead', null)).toEqual({ kind: 'dead', limit: null });
    expect(run('error', 'wall')).toEqual({ kind: 'interrupted' });
    expect(run('ok', 'output')).toEqual({ kind: 'truncated' });
    expect(run('error', null)).toBeNull();
  });

  it('says when the run had to start a fresh kernel', () => {
    expect(run('ok', null, true)).toEqual({ kind: 'restarted' });
    expect(run('dead', 'memory', true)).toEqual({ kind: 'dead', limit: 'memory' });
  });
});
