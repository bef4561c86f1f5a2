import {
  MAX_NOTEBOOK_CELLS,
  MAX_OUTPUTS_PER_CELL,
  type CodeCell,
  type Notebook,
  type NotebookCell,
  type WorkbookExecution,
} from '@kadai/contracts';

/*
 * The cell operations of the notebook page, as pure functions of a notebook: each returns a new
 * notebook and leaves the one it was given as it was, so the page can keep the last saved one.
 */

export type CellType = NotebookCell['cell_type'];

function randomToken(): string {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A fresh nbformat 4.5 cell id (letters, digits, `-`), unlike every id in `taken`. */
export function newCellId(taken: ReadonlySet<string>, token: () => string = randomToken): string {
  for (;;) {
    const id = `cell-${token()}`;
    if (!taken.has(id)) return id;
  }
}

export function cellIds(notebook: Notebook): Set<string> {
  return new Set(notebook.cells.map((cell) => cell.id));
}

export function makeCell(type: CellType, id: string, source = ''): NotebookCell {
  return type === 'code'
    ? { id, cell_type: 'code', source, execution_count: null, outputs: [] }
    : { id, cell_type: 'markdown', source };
}

export function canAddCell(notebook: Notebook): boolean {
  return notebook.cells.length < MAX_NOTEBOOK_CELLS;
}

/** `cell` placed after the cell `afterId`, or at the end when that is null or gone. */
export function insertCellAfter(notebook: Notebook, afterId: string | null, cell: NotebookCell): Notebook {
  if (!canAddCell(notebook)) return notebook;
  const at = afterId === null ? -1 : notebook.cells.findIndex((c) => c.id === afterId);
  const index = at === -1 ? notebook.cells.length : at + 1;
  return { cells: [...notebook.cells.slice(0, index), cell, ...notebook.cells.slice(index)] };
}

/** The cell one place up (-1) or down (+1); unchanged at either end. */
export function moveCell(notebook: Notebook, id: string, delta: -1 | 1): Notebook {
  const from = notebook.cells.findIndex((cell) => cell.id === id);
  const to = from + delta;
  if (from === -1 || to < 0 || to >= notebook.cells.length) return notebook;
  const cells = [...notebook.cells];
  [cells[from], cells[to]] = [cells[to]!, cells[from]!];
  return { cells };
}

export function deleteCell(notebook: Notebook, id: string): Notebook {
  if (!notebook.cells.some((cell) => cell.id === id)) return notebook;
  return { cells: notebook.cells.filter((cell) => cell.id !== id) };
}

/** A code cell becoming Markdown loses its outputs; a Markdown cell becoming code starts unrun. */
export function changeCellType(notebook: Notebook, id: string, type: CellType): Notebook {
  if (!notebook.cells.some((cell) => cell.id === id && cell.cell_type !== type)) return notebook;
  return {
    cells: notebook.cells.map((cell) =>
      cell.id === id && cell.cell_type !== type ? makeCell(type, cell.id, cell.source) : cell,
    ),
  };
}

/** Unchanged (the same object) when the source is already that, so an editor echo is not a change. */
export function setCellSource(notebook: Notebook, id: string, source: string): Notebook {
  if (!notebook.cells.some((cell) => cell.id === id && cell.source !== source)) return notebook;
  return {
    cells: notebook.cells.map((cell) =>
      cell.id === id && cell.source !== source ? { ...cell, source } : cell,
    ),
  };
}

/** The run's count and outputs on its cell (a cell deleted or made Markdown meanwhile is left alone). */
export function applyExecution(notebook: Notebook, execution: WorkbookExecution): Notebook {
  return {
    cells: notebook.cells.map((cell): NotebookCell => {
      if (cell.id !== execution.cell_id || cell.cell_type !== 'code') return cell;
      return {
        ...cell,
        execution_count: execution.execution_count,
        outputs: execution.outputs.slice(0, MAX_OUTPUTS_PER_CELL),
      };
    }),
  };
}

export function findCodeCell(notebook: Notebook, id: string): CodeCell | undefined {
  const cell = notebook.cells.find((c) => c.id === id);
  return cell?.cell_type === 'code' ? cell : undefined;
}

/** The code cells in order: what "Run all" queues. */
export function codeCellIds(notebook: Notebook): string[] {
  return notebook.cells.filter((cell) => cell.cell_type === 'code').map((cell) => cell.id);
}

/** The id of the cell after `id`, or null for the last one. */
export function nextCellId(notebook: Notebook, id: string): string | null {
  const index = notebook.cells.findIndex((cell) => cell.id === id);
  return index === -1 ? null : (notebook.cells[index + 1]?.id ?? null);
}
