import { describe, expect, it } from 'vitest';
import { starterFromIpynb } from './ipynb-starter.ts';

describe('a starter from an .ipynb', () => {
  it('keeps the cells, leaves outputs out, and refuses what is not a notebook', () => {
    const starter = starterFromIpynb({
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {},
      cells: [
        { cell_type: 'markdown', id: 'm', metadata: {}, source: ['# A\n', 'b'] },
        {
          cell_type: 'code',
          metadata: {},
          source: 'x',
          execution_count: 3,
          outputs: [{ output_type: 'stream' }],
        },
        { cell_type: 'raw', id: 'm', metadata: {}, source: 'raw' },
      ],
    });
    expect(starter?.cells).toEqual([
      { id: 'm', cell_type: 'markdown', source: '# A\nb' },
      { id: 'cell-1', cell_type: 'code', source: 'x', execution_count: null, outputs: [] },
      { id: 'cell-2', cell_type: 'markdown', source: 'raw' },
    ]);
    expect(starterFromIpynb({ nbformat: 3, cells: [] })).toBeNull();
    expect(starterFromIpynb({ hello: 'world' })).toBeNull();
    expect(starterFromIpynb({ nbformat: 4, cells: [{ cell_type: 'code' }] })).toBeNull();
  });
});
