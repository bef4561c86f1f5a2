import type { MimeBundle, NotebookOutput } from '@kadai/contracts';
import { sanitizeHtml } from '../../ui/markdown.ts';
import { terminalText } from './ansi.ts';

/** The one representation of a result a cell shows: the richest that can be shown safely. */
export type Representation =
  | { kind: 'png'; base64: string }
  | { kind: 'html'; html: string }
  | { kind: 'text'; text: string }
  | { kind: 'empty' };

/**
 * A figure first, then HTML (pandas tables), then plain text, as Jupyter chooses. HTML is returned
 * sanitised: what a cell prints reaches the page only through DOMPurify, like a forum post.
 */
export function chooseRepresentation(bundle: MimeBundle): Representation {
  const png = bundle['image/png'];
  if (png) return { kind: 'png', base64: png };
  const html = bundle['text/html'];
  if (html !== undefined && html.trim() !== '') {
    const clean = sanitizeOutputHtml(html);
    if (clean.trim() !== '') return { kind: 'html', html: clean };
  }
  const text = bundle['text/plain'];
  if (text !== undefined) return { kind: 'text', text: terminalText(text) };
  return { kind: 'empty' };
}

/** HTML a kernel produced, made safe to insert: no scripts, handlers, styles or `javascript:` links. */
export function sanitizeOutputHtml(html: string): string {
  return sanitizeHtml(html);
}

/**
 * Outputs as shown: consecutive writes to the same stream read as one block (a loop of prints arrives
 * as many small writes), with escapes stripped.
 */
export function mergeStreams(outputs: readonly NotebookOutput[]): NotebookOutput[] {
  const merged: NotebookOutput[] = [];
  for (const output of outputs) {
    const last = merged.at(-1);
    if (output.output_type === 'stream' && last?.output_type === 'stream' && last.name === output.name) {
      merged[merged.length - 1] = { ...last, text: last.text + output.text };
    } else {
      merged.push(output);
    }
  }
  return merged.map((output) =>
    output.output_type === 'stream' ? { ...output, text: terminalText(output.text) } : output,
  );
}

/** An error's traceback as plain lines (IPython colours it). */
export function tracebackText(traceback: readonly string[]): string {
  return terminalText(traceback.join('\n'));
}
