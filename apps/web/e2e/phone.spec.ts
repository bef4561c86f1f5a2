import { expect, test, type Page } from '@playwright/test';
import { STORAGE_STATE, demoCourseId, expectNoAxeViolations, ja, unique } from './support.ts';

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

/** A full-screen dialog scrolls inside itself: it must not be wider than the screen either. */
async function expectDialogFits(page: Page, what: string) {
  await page.waitForLoadState('networkidle');
  const overflow = await page
    .getByRole('dialog')
    .first()
    .evaluate((dialog) => ({ scroll: dialog.scrollWidth, client: dialog.clientWidth }));
  expect(overflow.scroll, `${what}: the dialog scrolls sideways`).toBeLessThanOrEqual(overflow.client);
  await expectNoSidewaysScroll(page, what);
}

/**
 * The gradebook's name column stays in view and uncovered while its table scrolls sideways (issue 36,
 * item 15: the side rail must not cover it): at the middle of the first row's name, the topmost element
 * is that name's own cell — not the rail, not a score cell scrolled under it.
 */
async function expectNamesUncovered(page: Page, what: string) {
  const book = page.getByRole('region', { name: ja.routes.gradebook });
  const name = book.getByRole('rowheader').first();
  await expect(name).toBeVisible();
  await book.evaluate((scroller) => scroller.scrollTo({ left: scroller.scrollWidth }));
  const seen = await name.evaluate((cell) => {
    const box = cell.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return {
      covered: !(top && cell.contains(top)),
      left: box.left,
      by: top ? top.outerHTML.slice(0, 80) : 'nothing: it is out of view',
    };
  });
  expect(seen.covered, `${what}: the first name is covered by ${seen.by}`).toBe(false);
  const rail = page.getByRole('navigation', { name: ja.rail.label });
  if (await rail.isVisible()) {
    const railBox = (await rail.boundingBox())!;
    expect(seen.left, `${what}: the name starts under the rail`).toBeGreaterThanOrEqual(
      railBox.x + railBox.width - 1,
    );
  }
}

const stepHeading = (step: number, name: string) =>
  ja.assignments.wizard.stepHeading
    .replace('{{step}}', String(step))
    .replace('{{total}}', '3')
    .replace('{{name}}', name);

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
      if (path === 'gradebook') await expectNamesUncovered(page, 'gradebook at 390 px');
    }
  });

  test.describe('and on a laptop', () => {
    test.use({ viewport: { width: 1280, height: 800 } });

    test('the gradebook’s names stay uncovered beside the side rail', async ({ page, request }) => {
      const course = await demoCourseId(request);
      await page.goto(`/course/${course}/gradebook`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNamesUncovered(page, 'gradebook at 1280 px');
    });
  });
});

test.describe('an editor on a phone', () => {
  test.use({ storageState: STORAGE_STATE.staff });

  test('creates an assignment in one pass: the steps stack, none scrolls sideways, each passes axe', async ({
    page,
    request,
  }) => {
    const course = await demoCourseId(request);
    await page.goto(`/course/${course}/assignment?edit=new`);
    const dialog = page.getByRole('dialog', { name: ja.assignments.editor.newTitle });
    const title = dialog.getByRole('textbox', { name: ja.assignments.fields.title });
    await expect(title).toBeVisible();
    await expectDialogFits(page, 'the new assignment: details');

    await title.fill(unique('Phone assignment'));
    await dialog.getByRole('button', { name: ja.assignments.wizard.createAndAddTests }).click();
    await expect(
      dialog.getByRole('heading', { name: stepHeading(2, ja.assignments.wizard.tests) }),
    ).toBeFocused();
    await expectDialogFits(page, 'the new assignment: test cases');
    await expectNoAxeViolations(page, 'the new assignment: test cases');

    await dialog.getByRole('button', { name: ja.assignments.wizard.next }).click();
    await expect(dialog.getByRole('region', { name: ja.testCases.reference.title })).toBeVisible();
    await expectDialogFits(page, 'the new assignment: reference run');
    await expectNoAxeViolations(page, 'the new assignment: reference run');
    await dialog.getByRole('button', { name: ja.assignments.wizard.finish }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});
