import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS, demoCourseId, signedIn } from './support.ts';

/*
 * A student opens the demo course's "Python lab" workbook, runs cells that keep state between them and
 * draw a chart in the sandboxed kernel, extends the session, downloads the notebook and ends the session.
 */

async function runCell(page: Page, n: number): Promise<void> {
  await page.getByRole('button', { name: `Run cell ${n}`, exact: true }).click();
}

test('a student runs a notebook in a kernel, extends the session and downloads it', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const courseId = await demoCourseId(request);
  const page = await signedIn(browser, ACCOUNTS.journeyStudent);
  await page.goto(`/course/${courseId}/workbook`);
  await page.getByRole('button', { name: 'Open Python lab' }).click();
  await expect(page.getByRole('timer', { name: 'Time left' })).toBeVisible();

  // State kept between cells: `scores` and `mean` from cell 2 are used by cells 3 and 4.
  await runCell(page, 2);
  await expect(page.getByRole('group', { name: 'Output of cell 2' })).toContainText('mean = 78.0');
  await runCell(page, 3);
  await expect(page.getByRole('group', { name: 'Output of cell 3' }).getByRole('table')).toContainText(
    'student',
  );
  await runCell(page, 4);
  const figure = page.getByRole('img', { name: 'Figure from cell 4' });
  await expect(figure).toBeVisible({ timeout: 30_000 });
  expect(await figure.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);

  // A new cell: typed, run with Shift+Enter.
  await page.getByRole('button', { name: 'Add code cell' }).click();
  const editor = page.getByRole('textbox', { name: 'Code of cell 5' });
  await editor.click();
  await page.keyboard.type('round(mean * 2, 1)');
  await page.keyboard.press('Shift+Enter');
  await expect(page.getByRole('group', { name: 'Output of cell 5' })).toContainText('156.0');

  // Extend by 15 minutes.
  await page.getByRole('button', { name: 'Extend' }).click();
  await page.getByRole('menuitem', { name: '+15 minutes' }).click();
  await expect(page.getByText(/^Extended by 15 minutes\./)).toBeVisible();

  // Download once everything is saved: a real nbformat 4 notebook with the outputs.
  await expect(page.getByTestId('save-status')).toHaveText('Saved', { timeout: 15_000 });
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download .ipynb' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Python lab.ipynb');
  const notebook = JSON.parse(await readFile((await download.path())!, 'utf8')) as {
    nbformat: number;
    cells: { cell_type: string; source: string[]; outputs?: { data?: Record<string, unknown> }[] }[];
  };
  expect(notebook.nbformat).toBe(4);
  // Shift+Enter on the last cell added an empty one below it, as Jupyter does.
  expect(notebook.cells).toHaveLength(6);
  expect(notebook.cells[3]!.outputs!.some((o) => typeof o.data?.['image/png'] === 'string')).toBe(true);
  expect(notebook.cells[4]!.source.join('')).toBe('round(mean * 2, 1)');

  await page.getByRole('button', { name: 'End session' }).click();
  await page
    .getByRole('dialog', { name: 'End this session?' })
    .getByRole('button', { name: 'End session' })
    .click();
  await expect(page.getByRole('button', { name: 'Open Python lab' })).toBeVisible();
  await page.context().close();
});
