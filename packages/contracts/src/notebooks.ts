import { z } from 'zod';
import { outputText, str } from './common.ts';

/*
 * A workbook's notebook, kept in the shape of Jupyter's nbformat 4 so that a download is a real `.ipynb`
 * with little more than the multi-line strings split into lines (docs/workbooks.md).
 */

/** Cells in one notebook, characters in one cell's source, bytes of one image, outputs of one cell. */
export const MAX_NOTEBOOK_CELLS = 500;
export const MAX_CELL_SOURCE = 100_000;
export const MAX_OUTPUTS_PER_CELL = 50;
export const MAX_OUTPUT_TEXT = 200_000;
/** A PNG figure, base64 (about 1.5 MB of image). */
export const MAX_OUTPUT_IMAGE = 2_000_000;
/** A whole notebook as JSON, as uploaded or saved. */
export const MAX_NOTEBOOK_BYTES = 8 * 1024 * 1024;

/** The representations an output may carry; a page shows the richest one it can render safely. */
export const MimeBundle = z
  .object({
    'text/plain': outputText(MAX_OUTPUT_TEXT).optional(),
    /** Rendered only after sanitising (pandas tables arrive this way). */
    'text/html': outputText(MAX_OUTPUT_TEXT).optional(),
    /** Base64 without line breaks. */
    'image/png': outputText(MAX_OUTPUT_IMAGE)
      .regex(/^[A-Za-z0-9+/=]*$/)
      .optional(),
  })
  .meta({ id: 'MimeBundle' });
export type MimeBundle = z.infer<typeof MimeBundle>;

export const NotebookOutput = z
  .discriminatedUnion('output_type', [
    z.object({
      output_type: z.literal('stream'),
      name: z.enum(['stdout', 'stderr']),
      text: outputText(MAX_OUTPUT_TEXT),
    }),
    z.object({
      output_type: z.literal('execute_result'),
      execution_count: z.number().int().min(0).nullable(),
      data: MimeBundle,
    }),
    z.object({ output_type: z.literal('display_data'), data: MimeBundle }),
    z.object({
      output_type: z.literal('error'),
      ename: outputText(1000),
      evalue: outputText(MAX_OUTPUT_TEXT),
      traceback: z.array(outputText(MAX_OUTPUT_TEXT)).max(200),
    }),
  ])
  .meta({ id: 'NotebookOutput' });
export type NotebookOutput = z.infer<typeof NotebookOutput>;

/** nbformat 4.5 cell ids: 1–64 of letters, digits, `-` and `_`. */
export const CellId = str().regex(/^[a-zA-Z0-9-_]{1,64}$/);

export const NotebookCell = z
  .discriminatedUnion('cell_type', [
    z.object({
      id: CellId,
      cell_type: z.literal('markdown'),
      source: str().max(MAX_CELL_SOURCE),
    }),
    z.object({
      id: CellId,
      cell_type: z.literal('code'),
      source: str().max(MAX_CELL_SOURCE),
      execution_count: z.number().int().min(0).nullable(),
      outputs: z.array(NotebookOutput).max(MAX_OUTPUTS_PER_CELL),
    }),
  ])
  .meta({ id: 'NotebookCell' });
export type NotebookCell = z.infer<typeof NotebookCell>;
export type CodeCell = Extract<NotebookCell, { cell_type: 'code' }>;

export const Notebook = z
  .object({
    cells: z
      .array(NotebookCell)
      .max(MAX_NOTEBOOK_CELLS)
      .refine((cells) => new Set(cells.map((c) => c.id)).size === cells.length, 'Cell ids must be unique.'),
  })
  .meta({ id: 'Notebook' });
export type Notebook = z.infer<typeof Notebook>;
