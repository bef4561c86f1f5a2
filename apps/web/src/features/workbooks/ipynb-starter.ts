import { CellId, MAX_NOTEBOOK_CELLS, Notebook, type NotebookCell } from '@kadai/contracts';

/*
 * The starter of a configuration from an `.ipynb` an editor picks. The configuration API takes the
 * notebook model, not the file, so the page reads the file itself: the cells' text and types only —
 * a starter is handed out unrun, so outputs and counts are left out. A raw cell becomes Markdown.
 * (The API's full reader, apps/api/src/features/workbooks/ipynb.ts, is not shared with the web app.)
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((line) => typeof line === 'string')) return value.join('');
  return undefined;
}

/** The notebook in a parsed `.ipynb`, or null when it is not an nbformat 4 notebook a workbook can hold. */
export function starterFromIpynb(input: unknown): Notebook | null {
  if (!isRecord(input) || input.nbformat !== 4 || !Array.isArray(input.cells)) return null;
  if (input.cells.length > MAX_NOTEBOOK_CELLS) return null;
  const taken = new Set<string>();
  let next = 1;
  const cells: NotebookCell[] = [];
  for (const cell of input.cells) {
    if (!isRecord(cell)) return null;
    const source = readText(cell.source);
    const type = cell.cell_type;
    if (source === undefined || (type !== 'code' && type !== 'markdown' && type !== 'raw')) return null;
    let id = typeof cell.id === 'string' && CellId.safeParse(cell.id).success ? cell.id : '';
    if (id === '' || taken.has(id)) {
      while (taken.has(`cell-${next}`)) next += 1;
      id = `cell-${next}`;
    }
    taken.add(id);
    cells.push(
      type === 'code'
        ? { id, cell_type: 'code', source, execution_count: null, outputs: [] }
        : { id, cell_type: 'markdown', source },
    );
  }
  const parsed = Notebook.safeParse({ cells });
  return parsed.success ? parsed.data : null;
}
