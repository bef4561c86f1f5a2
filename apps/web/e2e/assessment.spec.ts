import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { ACCOUNTS, demoCourseId, signedIn, userIdOf } from './support.ts';

/*
 * Assessment analysis on the demo course, whose seed tags skills on its assignments and quizzes and
 * holds graded work, so the existence check says yes.
 */
test.describe.configure({ mode: 'serial' });

test('a student who opens Assessment lands on their own analysis', async ({ browser, request }) => {
  const courseId = await demoCourseId(request);
  const ownId = await userIdOf(request, ACCOUNTS.journeyStudent);
  const page = await signedIn(browser, ACCOUNTS.journeyStudent);
  await page.goto(`/course/${courseId}`);
  await page.getByRole('navigation', { name: 'Course' }).getByRole('link', { name: 'Assessment' }).click();

  await expect(page).toHaveURL(new RegExp(`/course/${courseId}/assessment/${ownId}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Assessment details' })).toBeVisible();
  await expect(page.getByText(ACCOUNTS.journeyStudent, { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Skills' }).getByRole('img').first()).toBeVisible();
  await expect(
    page
      .getByRole('region', { name: 'Where you stand in the class' })
      .getByRole('img', { name: /Class distribution of/ }),
  ).toBeVisible();
  await expect(page.getByRole('region', { name: 'Trend over assignments' })).toBeVisible();
  // Read only: no table of the class, no writing feedback, no workshop editing.
  await expect(page.getByRole('button', { name: 'Send feedback' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New workshop' })).toHaveCount(0);
  await page.context().close();
});

test('an editor sees the table, downloads it and opens a student', async ({ browser, request }) => {
  const courseId = await demoCourseId(request);
  const page = await signedIn(browser, ACCOUNTS.editor);
  await page.goto(`/course/${courseId}/assessment`);
  await expect(page).toHaveURL(new RegExp(`/course/${courseId}/assessment$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Assessment' })).toBeVisible();
  const table = page.getByRole('table', { name: /students$/ });
  await expect(table).toBeVisible();
  const student = table.getByRole('row').filter({ hasText: ACCOUNTS.journeyStudent });
  await expect(student).toHaveCount(1);

  // Sorting by the total marks the column for screen readers.
  await table.getByRole('button', { name: /^Total/ }).click();
  await expect(table.getByRole('columnheader', { name: /^Total/ })).toHaveAttribute(
    'aria-sort',
    'descending',
  );

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const download = await downloading;
  const csv = await readFile(await download.path());
  expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(csv.toString('utf8')).toContain(ACCOUNTS.journeyStudent);

  await page.getByRole('textbox', { name: 'Search students' }).fill(ACCOUNTS.journeyStudent);
  await expect(table.getByRole('row')).toHaveCount(2);
  await student.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/course/${courseId}/assessment/\\d+$`));
  await expect(page.getByRole('textbox', { name: 'Write feedback to this student' })).toBeVisible();
  await page.context().close();
});
