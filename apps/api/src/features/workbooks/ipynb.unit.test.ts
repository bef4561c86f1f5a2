import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { MAX_OUTPUT_TEXT, Notebook } from '@kadai/contracts';
import { fromIpynb, NotebookFormatError, toIpynb } from './ipynb.ts';

function readJson(path: string | URL): object {
  const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (typeof value !== 'object' || value === null) throw new Error(`${String(path)} is not a JSON object`);
  return value;
}

const testdata = (name: string) => new URL(`./testdata/${name}`, import.meta.url);

// The official schema declares draft-04, which ajv 6 checks with the meta-schema it ships.
const ajv = new Ajv({ schemaId: 'auto', allErrors: true });
ajv.addMetaSchema(readJson(createRequire(import.meta.url).resolve('ajv/lib/refs/json-schema-draft-04.json')));
const validateNbformat45 = ajv.compile(readJson(testdata('nbformat.v4.5.schema.json')));

function schemaErrors(document: unknown) {
  validateNbformat45(document);
  return validateNbformat45.errors ?? [];
}

function rejection(input: unknown): NotebookFormatError {
  try {
    fromIpynb(input);
  } catch (error) {
    if (error instanceof NotebookFormatError) return error;
    throw error;
  }
  throw new Error('fromIpynb accepted the input');
}

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEElEQVR4nGOQL98CRww4OQAm3g95BtiajAAAAABJRU5ErkJggg==';

const everyKind: Notebook = Notebook.parse({
  cells: [
    { id: 'intro', cell_type: 'markdown', source: '# 二分探索\n\n配列の中から値を探します。\n' },
    { id: 'empty-markdown', cell_type: 'markdown', source: '' },
    {
      id: 'code_1',
      cell_type: 'code',
      source: 'def search(a, x):\n    return x in a',
      execution_count: 3,
      outputs: [
        { output_type: 'stream', name: 'stdout', text: 'こんにちは\n世界\n' },
        { output_type: 'stream', name: 'stderr', text: 'warning: no final newline' },
        {
          output_type: 'execute_result',
          execution_count: 3,
          data: { 'text/plain': 'True', 'text/html': '<b>True</b>\n' },
        },
        { output_type: 'execute_result', execution_count: null, data: { 'text/plain': '' } },
        {
          output_type: 'display_data',
          data: { 'image/png': PNG, 'text/plain': '<Figure size 640x480 with 1 Axes>' },
        },
        { output_type: 'display_data', data: {} },
        {
          output_type: 'error',
          ename: 'ValueError',
          evalue: '値が不正です',
          traceback: ['Traceback (most recent call last):', '\u001b[0;31mValueError\u001b[0m: 値が不正です'],
        },
      ],
    },
    { id: 'empty-code', cell_type: 'code', source: '', execution_count: null, outputs: [] },
    { id: 'blank-lines', cell_type: 'code', source: '\n\nx = 1\r\n\n', execution_count: 0, outputs: [] },
  ],
});

describe('toIpynb', () => {
  const document = toIpynb(everyKind, { name: 'Binary search' });

  it('writes a document that the official nbformat 4.5 schema accepts', () => {
    expect(schemaErrors(document)).toEqual([]);
    expect(schemaErrors(JSON.parse(JSON.stringify(document)))).toEqual([]);
    expect(schemaErrors(toIpynb({ cells: [] }, { name: '', language: 'python' }))).toEqual([]);
  });

  it('is checked by a schema that does reject a broken document', () => {
    const broken = { ...document, cells: [{ cell_type: 'markdown', metadata: {}, source: [] }] };
    expect(schemaErrors(broken)).not.toEqual([]);
  });

  it('writes the Python 3 kernel and nbformat 4.5', () => {
    expect(document).toMatchObject({
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {
        kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' },
        language_info: { name: 'python' },
        title: 'Binary search',
      },
    });
  });

  it('splits text into lines that keep their "\\n", as Jupyter does', () => {
    expect(document.cells.map((cell) => cell.source)).toEqual([
      ['# 二分探索\n', '\n', '配列の中から値を探します。\n'],
      [],
      ['def search(a, x):\n', '    return x in a'],
      [],
      ['\n', '\n', 'x = 1\r\n', '\n'],
    ]);
    expect(document.cells[2]).toMatchObject({
      execution_count: 3,
      metadata: {},
      outputs: [
        { output_type: 'stream', name: 'stdout', text: ['こんにちは\n', '世界\n'] },
        { output_type: 'stream', name: 'stderr', text: ['warning: no final newline'] },
        {
          output_type: 'execute_result',
          execution_count: 3,
          metadata: {},
          data: { 'text/plain': ['True'], 'text/html': ['<b>True</b>\n'] },
        },
        { output_type: 'execute_result', execution_count: null, metadata: {}, data: { 'text/plain': [] } },
        {
          output_type: 'display_data',
          metadata: {},
          data: { 'image/png': PNG, 'text/plain': ['<Figure size 640x480 with 1 Axes>'] },
        },
        { output_type: 'display_data', metadata: {}, data: {} },
        { output_type: 'error', ename: 'ValueError' },
      ],
    });
  });
});

describe('fromIpynb(toIpynb(notebook))', () => {
  it('gives back the same notebook', () => {
    expect(fromIpynb(toIpynb(everyKind, { name: 'x' }))).toStrictEqual(everyKind);
  });

  it('gives back the same notebook after a trip through JSON text', () => {
    const text = JSON.stringify(toIpynb(everyKind, { name: 'x' }), null, 1);
    expect(fromIpynb(JSON.parse(text))).toStrictEqual(everyKind);
  });
});

describe('fromIpynb of a notebook saved by JupyterLab 4', () => {
  const saved = readJson(testdata('jupyterlab.ipynb'));

  it('reads a fixture that is itself a valid nbformat 4.5 file', () => {
    expect(schemaErrors(saved)).toEqual([]);
  });

  it('keeps text, HTML and PNG, and drops widgets, SVG, JPEG, attachments and metadata', () => {
    expect(fromIpynb(saved)).toStrictEqual({
      cells: [
        {
          id: '6b1f7c2e-3d4a-4f5b-8c9d-0e1f2a3b4c5d',
          cell_type: 'markdown',
          source: '# 売上の分析\n\n店舗ごとの売上をまとめます。\n\n![グラフ](attachment:chart.png)',
        },
        {
          id: 'a0e4c7d2-91b8-4a36-b5f0-2c8d9e7f6a14',
          cell_type: 'markdown',
          source: '```\n.. note::\n\n   Data from ``sales.csv``, fiscal year 2024.\n```',
        },
        {
          id: 'd3c2b1a0-5e6f-4a7b-8c9d-1e2f3a4b5c6d',
          cell_type: 'code',
          source: 'import pandas as pd\nimport matplotlib.pyplot as plt\nimport ipywidgets as widgets',
          execution_count: 1,
          outputs: [],
        },
        {
          id: 'e4d3c2b1-6f7a-4b8c-9d0e-2f3a4b5c6d7e',
          cell_type: 'code',
          source: "df = pd.DataFrame({'店舗': ['渋谷', '新宿'], '売上': [1200, 980]})\ndf",
          execution_count: 2,
          outputs: [
            {
              output_type: 'execute_result',
              execution_count: 2,
              data: {
                'text/plain': '   店舗    売上\n0  渋谷  1200\n1  新宿   980',
                'text/html': expect.stringMatching(
                  /^<div>\n<style scoped>[\s\S]*<td>渋谷<\/td>[\s\S]*<\/div>$/,
                ),
              },
            },
          ],
        },
        {
          id: 'f5e4d3c2-7a8b-4c9d-0e1f-3a4b5c6d7e8f',
          cell_type: 'code',
          source: "print('合計:', df['売上'].sum())\nprint('平均:', df['売上'].mean())",
          execution_count: 3,
          outputs: [
            { output_type: 'stream', name: 'stdout', text: '合計: 2180\n平均: 1090.0\n' },
            {
              output_type: 'stream',
              name: 'stderr',
              text: expect.stringContaining("FutureWarning: use 'mean' instead\n"),
            },
          ],
        },
        {
          id: '0a1b2c3d-8e9f-4a0b-9c1d-4e5f6a7b8c9d',
          cell_type: 'code',
          source: "df.plot.bar(x='店舗', y='売上')\nplt.show()",
          execution_count: 4,
          outputs: [
            {
              output_type: 'display_data',
              // Saved with IPython's trailing "\n", which import strips.
              data: { 'text/plain': '<Figure size 640x480 with 1 Axes>', 'image/png': PNG },
            },
          ],
        },
        {
          id: '1b2c3d4e-9f0a-4b1c-8d2e-5f6a7b8c9d0e',
          cell_type: 'code',
          source: expect.stringContaining('widgets.IntSlider'),
          execution_count: 5,
          // The widget view is dropped; the Output widget had nothing else, so it goes entirely.
          outputs: [
            {
              output_type: 'display_data',
              data: { 'text/plain': "IntSlider(value=5, description='n', max=10)" },
            },
          ],
        },
        {
          id: '2c3d4e5f-0a1b-4c2d-9e3f-6a7b8c9d0e1f',
          cell_type: 'code',
          source: expect.stringContaining('SVG'),
          execution_count: 6,
          outputs: [
            { output_type: 'display_data', data: { 'text/plain': '<IPython.core.display.SVG object>' } },
            {
              output_type: 'execute_result',
              execution_count: 6,
              data: { 'text/plain': '<IPython.core.display.Image object>' },
            },
          ],
        },
        {
          id: '3d4e5f6a-1b2c-4d3e-8f4a-7b8c9d0e1f2a',
          cell_type: 'code',
          source: '1 / 0',
          execution_count: 7,
          outputs: [
            {
              output_type: 'error',
              ename: 'ZeroDivisionError',
              evalue: 'division by zero',
              traceback: [
                expect.stringContaining('-----'),
                expect.stringContaining('Traceback (most recent call last)'),
                expect.stringContaining('In[7], line 1'),
                '\u001b[0;31mZeroDivisionError\u001b[0m: division by zero',
              ],
            },
          ],
        },
        {
          id: '4e5f6a7b-2c3d-4e4f-9a5b-8c9d0e1f2a3b',
          cell_type: 'code',
          source: '',
          execution_count: null,
          outputs: [],
        },
      ],
    });
  });
});

describe('fromIpynb of older and other writers', () => {
  it('reads an nbformat 4.0 notebook without cell ids, giving each cell a unique id', () => {
    const wrappedPng = `${PNG.slice(0, 76)}\n${PNG.slice(76)}\n`;
    const notebook = fromIpynb({
      cells: [
        { cell_type: 'markdown', metadata: {}, source: ['## 準備\n', 'データを読み込む'] },
        {
          cell_type: 'code',
          execution_count: 1,
          metadata: { collapsed: false, trusted: true },
          outputs: [
            {
              data: { 'image/png': wrappedPng, 'text/plain': ['<matplotlib.figure.Figure at 0x7f>'] },
              execution_count: 1,
              metadata: {},
              output_type: 'execute_result',
            },
          ],
          source: ['%matplotlib inline\n', 'plot()'],
        },
        { cell_type: 'code', execution_count: null, metadata: { collapsed: true }, outputs: [], source: [] },
      ],
      metadata: {
        kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' },
        language_info: { name: 'python', version: '3.5.2' },
      },
      nbformat: 4,
      nbformat_minor: 0,
    });
    expect(notebook).toStrictEqual({
      cells: [
        { id: 'cell-1', cell_type: 'markdown', source: '## 準備\nデータを読み込む' },
        {
          id: 'cell-2',
          cell_type: 'code',
          source: '%matplotlib inline\nplot()',
          execution_count: 1,
          outputs: [
            {
              output_type: 'execute_result',
              execution_count: 1,
              data: { 'text/plain': '<matplotlib.figure.Figure at 0x7f>', 'image/png': PNG },
            },
          ],
        },
        { id: 'cell-3', cell_type: 'code', source: '', execution_count: null, outputs: [] },
      ],
    });
  });

  it('accepts sources written as one string, as some tools do', () => {
    const notebook = fromIpynb({
      nbformat: 4,
      nbformat_minor: 4,
      metadata: {},
      cells: [{ cell_type: 'code', metadata: {}, source: 'x = 1\nx', outputs: [], execution_count: 2 }],
    });
    expect(notebook.cells[0]).toStrictEqual({
      id: 'cell-1',
      cell_type: 'code',
      source: 'x = 1\nx',
      execution_count: 2,
      outputs: [],
    });
  });

  it('keeps the first of duplicate ids and replaces invalid ones without clashing with others', () => {
    const cell = (id?: unknown) => ({ id, cell_type: 'markdown', metadata: {}, source: [] });
    const notebook = fromIpynb({
      nbformat: 4,
      nbformat_minor: 5,
      cells: [cell('a'), cell('a'), cell('bad id!'), cell('x'.repeat(65)), cell('cell-1'), cell(), cell(7)],
    });
    expect(notebook.cells.map((c) => c.id)).toEqual([
      'a',
      'cell-2',
      'cell-3',
      'cell-4',
      'cell-1',
      'cell-5',
      'cell-6',
    ]);
  });

  it('keeps a raw cell as a fenced block longer than every backtick run inside it', () => {
    const raw = (source: string) => ({ cell_type: 'raw', metadata: {}, source });
    const notebook = fromIpynb({
      nbformat: 4,
      nbformat_minor: 5,
      cells: [raw('```python\nx\n```\n'), raw('')],
    });
    expect(notebook.cells.map((c) => c.source)).toEqual(['````\n```python\nx\n```\n````', '```\n```']);
    expect(notebook.cells.every((c) => c.cell_type === 'markdown')).toBe(true);
  });

  it('ignores other streams and output types, and bad counts and images', () => {
    const notebook = fromIpynb({
      nbformat: 4,
      nbformat_minor: 5,
      cells: [
        {
          cell_type: 'code',
          execution_count: -1,
          metadata: {},
          source: '',
          outputs: [
            { output_type: 'stream', name: 'stdin', text: 'typed' },
            { output_type: 'stream', name: 'stdout', text: 42 },
            { output_type: 'clear_output', wait: true },
            { output_type: 'update_display_data', data: { 'text/plain': 'x' }, metadata: {} },
            { output_type: 'display_data', data: { 'image/png': 'not*base64' }, metadata: {} },
            { output_type: 'display_data', metadata: {} },
            { output_type: 'execute_result', execution_count: '3', data: { 'text/plain': ['4'] } },
            'not an output',
          ],
        },
      ],
    });
    expect(notebook.cells[0]).toStrictEqual({
      id: 'cell-1',
      cell_type: 'code',
      source: '',
      execution_count: null,
      outputs: [{ output_type: 'execute_result', execution_count: null, data: { 'text/plain': '4' } }],
    });
  });
});

describe('fromIpynb rejects', () => {
  const v4 = (cells: unknown) => ({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells });
  const code = (source: string, outputs: unknown[] = []) => ({
    cell_type: 'code',
    execution_count: null,
    metadata: {},
    outputs,
    source,
  });

  it.each([
    ['null', null, 'This file is not a Jupyter notebook (nbformat 4).'],
    ['an array', [], 'This file is not a Jupyter notebook (nbformat 4).'],
    ['a string', '{"nbformat": 4}', 'This file is not a Jupyter notebook (nbformat 4).'],
    ['an object without nbformat', { cells: [] }, 'This file is not a Jupyter notebook (nbformat 4).'],
    [
      'nbformat 3',
      { nbformat: 3, nbformat_minor: 0, metadata: {}, worksheets: [] },
      'This notebook is in nbformat 3.0; only nbformat 4 can be imported. ' +
        'Open it in a current Jupyter and save it to convert it.',
    ],
    [
      'nbformat 5',
      { nbformat: 5, cells: [] },
      'This notebook is in nbformat 5; only nbformat 4 can be imported.',
    ],
    [
      'missing cells',
      { nbformat: 4, nbformat_minor: 5, metadata: {} },
      'This file is not a Jupyter notebook: it has no list of cells.',
    ],
    ['cells that are not a list', v4({}), 'This file is not a Jupyter notebook: it has no list of cells.'],
    ['a cell that is not an object', v4([code('x'), 'print(1)']), 'Cell 2 is not a notebook cell.'],
    [
      'a cell of unknown type',
      v4([code('x'), { cell_type: 'heading', level: 1, metadata: {}, source: 'Title' }]),
      'Cell 2 has an unknown cell type "heading".',
    ],
    ['a cell without a type', v4([{ metadata: {}, source: '' }]), 'Cell 1 has no cell type.'],
    ['a cell without source', v4([{ cell_type: 'markdown', metadata: {} }]), 'Cell 1 has no source text.'],
    [
      'a source of numbers',
      v4([{ cell_type: 'markdown', metadata: {}, source: [1, 2] }]),
      'Cell 1 has no source text.',
    ],
    [
      'too many cells',
      v4(Array.from({ length: 501 }, () => code(''))),
      'The notebook has more than 500 cells.',
    ],
    [
      'a source over the limit',
      v4([code(''), code('x'.repeat(100_001))]),
      'Cell 2 has more than 100,000 characters of source.',
    ],
    [
      'a raw cell that is over the limit once fenced',
      v4([{ cell_type: 'raw', metadata: {}, source: 'x'.repeat(99_995) }]),
      'Cell 1 has more than 100,000 characters of source.',
    ],
  ])('%s', (_name, input, message) => {
    expect(rejection(input).message).toBe(message);
  });

  it('a notebook that breaks a limit of the notebook model, naming the first problem', () => {
    const longOutput = { output_type: 'stream', name: 'stdout', text: 'x'.repeat(MAX_OUTPUT_TEXT + 1) };
    expect(rejection(v4([code(''), code('', [longOutput])])).message).toMatch(/^Cell 2, output 1: .*200000/);
    const display = { output_type: 'display_data', data: { 'text/plain': 'x' }, metadata: {} };
    const manyOutputs = Array.from({ length: 51 }, () => display);
    expect(rejection(v4([code('', manyOutputs)])).message).toMatch(/^Cell 1: .*50/);
  });

  it('with an error named for the import', () => {
    expect(rejection(null)).toBeInstanceOf(Error);
    expect(rejection(null).name).toBe('NotebookFormatError');
  });
});
