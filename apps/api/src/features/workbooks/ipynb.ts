import {
  CellId,
  MAX_CELL_SOURCE,
  MAX_NOTEBOOK_CELLS,
  Notebook,
  type MimeBundle,
  type NotebookCell,
  type NotebookOutput,
} from '@kadai/contracts';
import type { z } from 'zod';

/*
 * A workbook notebook to and from a Jupyter `.ipynb` file (nbformat 4). Export writes nbformat 4.5 the way
 * Jupyter does, so `fromIpynb(toIpynb(notebook))` gives the notebook back unchanged. Import takes what
 * Jupyter, JupyterLab, VS Code and Colab write, and keeps only what a workbook can show safely
 * (docs/workbooks.md).
 */

/** An uploaded file that cannot become a notebook; the message is meant for the person who uploaded it. */
export class NotebookFormatError extends Error {
  override name = 'NotebookFormatError';
}

const NOT_A_NOTEBOOK = 'This file is not a Jupyter notebook (nbformat 4).';

/** The only representations kept; the others either cannot be shown or can carry script (SVG). */
const MIME_TYPES = ['text/plain', 'text/html', 'image/png'] as const;
const BASE64 = /^[A-Za-z0-9+/=]*$/;

// ---------------------------------------------------------------------------------------------------------
// Export

/** Jupyter's line arrays: each line keeps its "\n"; the last one has it only if the text ends with one. */
function toLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function bundleToIpynb(bundle: MimeBundle): Record<string, string | string[]> {
  const data: Record<string, string | string[]> = {};
  for (const type of MIME_TYPES) {
    const value = bundle[type];
    if (value !== undefined) data[type] = type === 'image/png' ? value : toLines(value);
  }
  return data;
}

// Keys in alphabetical order, as Jupyter writes them, so an exported file diffs cleanly against a saved one.
function outputToIpynb(output: NotebookOutput) {
  switch (output.output_type) {
    case 'stream':
      return { name: output.name, output_type: 'stream', text: toLines(output.text) };
    case 'execute_result':
      return {
        data: bundleToIpynb(output.data),
        execution_count: output.execution_count,
        metadata: {},
        output_type: 'execute_result',
      };
    case 'display_data':
      return { data: bundleToIpynb(output.data), metadata: {}, output_type: 'display_data' };
    case 'error':
      return {
        ename: output.ename,
        evalue: output.evalue,
        output_type: 'error',
        traceback: output.traceback,
      };
  }
}

function cellToIpynb(cell: NotebookCell) {
  if (cell.cell_type === 'markdown') {
    return { cell_type: 'markdown', id: cell.id, metadata: {}, source: toLines(cell.source) };
  }
  return {
    cell_type: 'code',
    execution_count: cell.execution_count,
    id: cell.id,
    metadata: {},
    outputs: cell.outputs.map(outputToIpynb),
    source: toLines(cell.source),
  };
}

/** The notebook as an nbformat 4.5 document, ready for `JSON.stringify`. */
export function toIpynb(notebook: Notebook, meta: { name: string; language?: 'python' }) {
  return {
    cells: notebook.cells.map(cellToIpynb),
    metadata: {
      kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' },
      language_info: { name: meta.language ?? 'python' },
      ...(meta.name === '' ? {} : { title: meta.name }),
    },
    nbformat: 4,
    nbformat_minor: 5,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Import

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** nbformat's multi-line string: one string, or an array of strings to be joined as they are. */
function readText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((line) => typeof line === 'string')) return value.join('');
  return undefined;
}

function readCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

/** Quotes a value from the file for a message, short enough to read. */
function quote(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/**
 * The kept representations of a display output, or undefined when filtering left nothing of it (the
 * output is then dropped). A bundle that was empty in the file stays empty, so export round-trips.
 */
function readBundle(data: unknown): MimeBundle | undefined {
  if (!isRecord(data)) return undefined;
  const bundle: MimeBundle = {};
  for (const type of MIME_TYPES) {
    const text = readText(data[type]);
    if (text === undefined) continue;
    if (type !== 'image/png') {
      bundle[type] = text;
      continue;
    }
    // Older writers wrap base64 at 76 columns; an image that still is not base64 cannot be shown.
    const png = text.replace(/\s+/g, '');
    if (BASE64.test(png)) bundle[type] = png;
  }
  return Object.keys(bundle).length > 0 || Object.keys(data).length === 0 ? bundle : undefined;
}

/** A stored output, or undefined for one a workbook does not keep. */
function readOutput(output: unknown): NotebookOutput | undefined {
  if (!isRecord(output)) return undefined;
  switch (output.output_type) {
    case 'stream': {
      const text = readText(output.text);
      const name = output.name;
      if ((name !== 'stdout' && name !== 'stderr') || text === undefined) return undefined;
      return { output_type: 'stream', name, text };
    }
    case 'execute_result': {
      const data = readBundle(output.data);
      if (data === undefined) return undefined;
      return { output_type: 'execute_result', execution_count: readCount(output.execution_count), data };
    }
    case 'display_data': {
      const data = readBundle(output.data);
      return data === undefined ? undefined : { output_type: 'display_data', data };
    }
    case 'error':
      return {
        output_type: 'error',
        ename: typeof output.ename === 'string' ? output.ename : '',
        evalue: typeof output.evalue === 'string' ? output.evalue : '',
        traceback: Array.isArray(output.traceback)
          ? output.traceback.filter((line): line is string => typeof line === 'string')
          : [],
      };
    default:
      return undefined;
  }
}

function readOutputs(outputs: unknown): NotebookOutput[] {
  if (!Array.isArray(outputs)) return [];
  return outputs.map(readOutput).filter((output) => output !== undefined);
}

/** A raw cell's text as a fenced block longer than every run of backticks inside it, so nothing is lost. */
function fenced(text: string): string {
  let longest = 2;
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${fence}`;
}

/**
 * One id per cell: a cell keeps a valid id the first time it appears; a missing, invalid or repeated id is
 * replaced by `cell-<n>`, never one that another cell of the file already uses.
 */
function assignIds(cells: unknown[]): string[] {
  const taken = new Set<string>();
  const own = cells.map((cell) => {
    const id = isRecord(cell) ? cell.id : undefined;
    if (typeof id !== 'string' || !CellId.safeParse(id).success || taken.has(id)) return undefined;
    taken.add(id);
    return id;
  });
  let next = 1;
  return own.map((id) => {
    if (id !== undefined) return id;
    while (taken.has(`cell-${next}`)) next += 1;
    const fresh = `cell-${next}`;
    taken.add(fresh);
    return fresh;
  });
}

function readCell(cell: unknown, index: number, id: string): NotebookCell {
  const where = `Cell ${index + 1}`;
  if (!isRecord(cell)) throw new NotebookFormatError(`${where} is not a notebook cell.`);
  const type = cell.cell_type;
  if (type !== 'markdown' && type !== 'code' && type !== 'raw') {
    const problem = type === undefined ? 'has no cell type' : `has an unknown cell type ${quote(type)}`;
    throw new NotebookFormatError(`${where} ${problem}.`);
  }
  const text = readText(cell.source);
  if (text === undefined) throw new NotebookFormatError(`${where} has no source text.`);
  // Markdown attachments are left behind: they are only reachable through `attachment:` links.
  const read: NotebookCell =
    type === 'code'
      ? {
          id,
          cell_type: 'code',
          source: text,
          execution_count: readCount(cell.execution_count),
          outputs: readOutputs(cell.outputs),
        }
      : { id, cell_type: 'markdown', source: type === 'raw' ? fenced(text) : text };
  if (read.source.length > MAX_CELL_SOURCE) {
    throw new NotebookFormatError(
      `${where} has more than ${MAX_CELL_SOURCE.toLocaleString('en-US')} characters of source.`,
    );
  }
  return read;
}

/** The first problem zod found, with the cell and output it is in counted from 1. */
function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return NOT_A_NOTEBOOK;
  const [, cell, field, output] = issue.path;
  let where = 'The notebook';
  if (typeof cell === 'number') {
    where = `Cell ${cell + 1}`;
    if (field === 'outputs' && typeof output === 'number') where += `, output ${output + 1}`;
  }
  return `${where}: ${issue.message}`;
}

/** A notebook from a parsed `.ipynb` file; throws NotebookFormatError for a file that cannot be one. */
export function fromIpynb(input: unknown): Notebook {
  if (!isRecord(input) || typeof input.nbformat !== 'number') throw new NotebookFormatError(NOT_A_NOTEBOOK);
  if (input.nbformat !== 4) {
    const minor = typeof input.nbformat_minor === 'number' ? `.${input.nbformat_minor}` : '';
    // Jupyter upgrades older notebooks when it saves them; a newer major version has no such path.
    const hint = input.nbformat < 4 ? ' Open it in a current Jupyter and save it to convert it.' : '';
    throw new NotebookFormatError(
      `This notebook is in nbformat ${input.nbformat}${minor}; only nbformat 4 can be imported.${hint}`,
    );
  }
  const cells = input.cells;
  if (!Array.isArray(cells)) {
    throw new NotebookFormatError('This file is not a Jupyter notebook: it has no list of cells.');
  }
  if (cells.length > MAX_NOTEBOOK_CELLS) {
    throw new NotebookFormatError(`The notebook has more than ${MAX_NOTEBOOK_CELLS} cells.`);
  }
  const ids = assignIds(cells);
  const result = Notebook.safeParse({
    cells: cells.map((cell, index) => readCell(cell, index, ids[index]!)),
  });
  if (!result.success) throw new NotebookFormatError(describeIssue(result.error));
  return result.data;
}
