import { expect, test, type Page } from '@playwright/test';
import { STORAGE_STATE, demoCourseId, ja } from './support.ts';

/**
 * At 390 px (a phone) every list fits the screen: no page scrolls sideways, and the assignment and
 * submission lists are cards that show title, due date, status and score (docs/web.md, "Phones").
 */
test.use({ viewport: { width: 390, height: 844 } });

async function expectNoSidewaysScroll(page: Page, what: string) {
  await page.waitForLoadState('networkidle');
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect(
    widths.scroll,
    `${what}: the page is ${widths.scroll} px wide on a ${widths.viewport} px screen`,
  ).toBeLessThanOrEqual(widths.viewport);
}

test.describe('a student on a phone', () => {
  test.use({ storageState: STORAGE_STATE.student });

  test('reads every list of the course without scrolling sideways; assignments are cards', async ({
    page,
    request,
  }) => {
    const course = await demoCourseId(request);
    await page.goto(`/course/${course}/assignment`);
    const assignments = page.getByRole('list', { name: ja.routes.assignment });
    await expect(assignments).toBeVisible();
    const card = assignments.getByRole('article').first();
    await expect(card.getByRole('link').first()).toBeVisible();
    await expect(card.getByText(ja.assignments.columns.due, { exact: true })).toBeVisible();
    await expect(card.getByText(ja.assignments.columns.myStatus, { exact: true })).toBeVisible();
    await expect(card.getByText(ja.assignments.columns.score, { exact: true })).toBeVisible();
    await expectNoSidewaysScroll(page, 'assignments');

    for (const path of ['submission', 'quizzes', 'forum', 'calendar', 'workbook']) {
      await page.goto(`/course/${course}/${path}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoSidewaysScroll(page, path);
    }
  });
});

test.describe('staff on a phone', () => {
  test.use({ storageState: STORAGE_STATE.staff });

  test('read submissions as cards, and the gradebook and members without the page scrolling sideways', async ({
    page,
    request,
  }) => {
    const course = await demoCourseId(request);
    await page.goto(`/course/${course}/submission`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const submissions = page.getByRole('list', { name: ja.routes.submission });
    if (await submissions.isVisible()) {
      const card = submissions.getByRole('article').first();
      await expect(card.getByText(ja.submissions.columns.score, { exact: true })).toBeVisible();
      await expect(card.getByText(ja.submissions.columns.status, { exact: true })).toBeVisible();
    }
    await expectNoSidewaysScroll(page, 'submissions');
    for (const path of ['assignment', 'gradebook', 'members']) {
      await page.goto(`/course/${course}/${path}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoSidewaysScroll(page, path);
    }
  });
});
