import type { Notebook, WorkbookExecution } from '@kadai/contracts';
import { describe, expect, it } from 'vitest';
import {
  applyExecution,
  changeCellType,
  codeCellIds,
  deleteCell,
  insertCellAfter,
  makeCell,
  moveCell,
  newCellId,
  nextCellId,
  setCellSource,
} from './notebook-state.ts';

const notebook: Notebook = {
  cells: [
    makeCell('markdown', 'a', '# Title'),
    { id: 'b', cell_type: 'code', source: 'x = 1', execution_count: 1, outputs: [] },
    makeCell('code', 'c', 'print(x)'),
  ],
};
const ids = (nb: Notebook) => nb.cells.map((cell) => cell.id);

const execution = (fields: Partial<WorkbookExecution>): WorkbookExecution => ({
  cell_id: 'c',
  status: 'ok',
  execution_count: 2,
  outputs: [{ output_type: 'stream', name: 'stdout', text: '1\n' }],
  limit: null,
  time_ms: 5,
  kernel_restarted: false,
  ...fields,
});

describe('cell operations', () => {
  it('adds a cell after another, or at the end', () => {
    expect(ids(insertCellAfter(notebook, 'a', makeCell('code', 'n')))).toEqual(['a', 'n', 'b', 'c']);
    expect(ids(insertCellAfter(notebook, null, makeCell('markdown', 'n')))).toEqual(['a', 'b', 'c', 'n']);
    expect(ids(insertCellAfter(notebook, 'gone', makeCell('code', 'n')))).toEqual(['a', 'b', 'c', 'n']);
    expect(makeCell('code', 'n')).toEqual({
      id: 'n',
      cell_type: 'code',
      source: '',
      execution_count: null,
      outputs: [],
    });
    expect(ids(notebook)).toEqual(['a', 'b', 'c']);
  });

  it('moves a cell up and down, and leaves the ends alone', () => {
    expect(ids(moveCell(notebook, 'b', -1))).toEqual(['b', 'a', 'c']);
    expect(ids(moveCell(notebook, 'b', 1))).toEqual(['a', 'c', 'b']);
    expect(moveCell(notebook, 'a', -1)).toBe(notebook);
    expect(moveCell(notebook, 'c', 1)).toBe(notebook);
  });

  it('deletes a cell', () => {
    expect(ids(deleteCell(notebook, 'b'))).toEqual(['a', 'c']);
    expect(deleteCell(notebook, 'gone')).toBe(notebook);
  });

  it('changes the type of a cell, dropping outputs on the way to Markdown', () => {
    const run = applyExecution(notebook, execution({ cell_id: 'b' }));
    const markdown = changeCellType(run, 'b', 'markdown');
    expect(markdown.cells[1]).toEqual({ id: 'b', cell_type: 'markdown', source: 'x = 1' });
    expect(changeCellType(markdown, 'b', 'code').cells[1]).toEqual({
      id: 'b',
      cell_type: 'code',
      source: 'x = 1',
      execution_count: null,
      outputs: [],
    });
    expect(changeCellType(notebook, 'b', 'code')).toBe(notebook);
  });

  it('treats an unchanged source as no change', () => {
    expect(setCellSource(notebook, 'b', 'x = 1')).toBe(notebook);
    expect(setCellSource(notebook, 'b', 'x = 2').cells[1]?.source).toBe('x = 2');
  });

  it("applies a run's count and outputs to its code cell only", () => {
    const applied = applyExecution(notebook, execution({}));
    expect(applied.cells[2]).toMatchObject({ execution_count: 2, outputs: [{ text: '1\n' }] });
    expect(applied.cells[1]).toBe(notebook.cells[1]);
    // A cell made Markdown while it ran keeps no outputs.
    expect(applyExecution(notebook, execution({ cell_id: 'a' })).cells[0]).toBe(notebook.cells[0]);
    const dead = applyExecution(applied, execution({ status: 'dead', execution_count: null, outputs: [] }));
    expect(dead.cells[2]).toMatchObject({ execution_count: null, outputs: [] });
  });

  it('finds code cells in order, the next cell, and fresh ids', () => {
    expect(codeCellIds(notebook)).toEqual(['b', 'c']);
    expect(nextCellId(notebook, 'a')).toBe('b');
    expect(nextCellId(notebook, 'c')).toBeNull();
    const tokens = ['a1', 'a1', 'b2'];
    expect(newCellId(new Set(['cell-a1']), () => tokens.shift()!)).toBe('cell-b2');
    expect(newCellId(new Set())).toMatch(/^cell-[0-9a-f]{12}$/);
  });
});
