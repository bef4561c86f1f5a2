import { expect, test, type Page } from '@playwright/test';
import {
  ACCOUNTS,
  DEMO_COURSE,
  STAFF_ONLY_COURSE,
  STORAGE_STATE,
  chooseLanguage,
  demoCourseId,
  ja,
  signIn,
} from './support.ts';

const RAIL_EN = [
  'Home',
  'Workbook',
  'Lecture Videos',
  'Calendar',
  'Assignment',
  'Quizzes',
  'Submission',
  'Forum',
  'Assessment',
];
const RAIL_JA = [
  ja.rail.home,
  ja.rail.workbook,
  ja.rail.videos,
  ja.rail.calendar,
  ja.rail.assignment,
  ja.rail.quizzes,
  ja.rail.submission,
  ja.rail.forum,
  ja.rail.assessment,
];

async function expectBreadcrumbs(page: Page, label: string, trail: string[], current: string) {
  const crumbs = page.getByRole('navigation', { name: label });
  await expect(crumbs.getByRole('link')).toHaveText(trail);
  await expect(crumbs.locator('[aria-current="page"]')).toHaveText(current);
}

test('a student signs in, opens the course, switches language and theme, keeps both, and logs out', async ({
  page,
}) => {
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(page.getByRole('heading', { level: 1, name: ja.auth.login.heading })).toBeVisible();
  await signIn(page, ACCOUNTS.journeyStudent, { language: '日本語' });

  await expect(page).toHaveURL(/\/course$/);
  await expect(page.getByRole('heading', { level: 1, name: ja.routes.course })).toBeVisible();
  await expect(page.getByRole('link', { name: STAFF_ONLY_COURSE })).toHaveCount(0);
  await page.getByRole('link', { name: DEMO_COURSE }).click();

  // A course opens on its home, with the side rail of a student: everything but Settings.
  await expect(page).toHaveURL(/\/course\/\d+$/);
  const courseUrl = page.url();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(DEMO_COURSE);
  const rail = page.getByRole('navigation', { name: ja.rail.label });
  await expect(rail.getByRole('link')).toHaveCount(RAIL_JA.length);
  for (const name of RAIL_JA) await expect(rail.getByRole('link', { name })).toBeVisible();
  await expect(rail.getByRole('link', { name: ja.rail.settings })).toHaveCount(0);
  await expect(rail.getByRole('link', { name: ja.rail.home })).toHaveAttribute('aria-current', 'page');

  await rail.getByRole('link', { name: ja.rail.workbook }).click();
  await expect(page).toHaveURL(`${courseUrl}/workbook`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(ja.routes.workbook);
  await expectBreadcrumbs(page, ja.common.breadcrumb, [ja.routes.course, DEMO_COURSE], ja.routes.workbook);

  await rail.getByRole('link', { name: ja.rail.forum }).click();
  await expect(page).toHaveURL(`${courseUrl}/forum`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(ja.routes.forum);
  await expect(rail.getByRole('link', { name: ja.rail.forum })).toHaveAttribute('aria-current', 'page');
  await expectBreadcrumbs(page, ja.common.breadcrumb, [ja.routes.course, DEMO_COURSE], ja.routes.forum);

  // Japanese → English: the whole interface follows at once.
  await chooseLanguage(page, 'English');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Forum');
  const railEn = page.getByRole('navigation', { name: 'Course' });
  // The Forum entry carries the unread count of the demo forum: "Forum (3 unread)".
  const railName = (name: string) => (name === 'Forum' ? /^Forum( \(\d+ unread\))?$/ : name);
  for (const name of RAIL_EN) {
    await expect(railEn.getByRole('link', { name: railName(name), exact: true })).toBeVisible();
  }
  await railEn.getByRole('link', { name: 'Calendar' }).click();
  await expect(page).toHaveURL(`${courseUrl}/calendar`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Calendar');
  await expect(page).toHaveTitle('Calendar · Kadai');
  await expectBreadcrumbs(page, 'Breadcrumb', ['Courses', DEMO_COURSE], 'Calendar');

  const darkMode = page.getByRole('button', { name: 'Dark mode' });
  await expect(darkMode).toHaveAttribute('aria-pressed', 'false');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  await darkMode.click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(darkMode).toHaveAttribute('aria-pressed', 'true');

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Calendar');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('button', { name: 'Dark mode' })).toHaveAttribute('aria-pressed', 'true');
  await expectBreadcrumbs(page, 'Breadcrumb', ['Courses', DEMO_COURSE], 'Calendar');

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  const confirm = page.getByRole('dialog', { name: 'Logout' });
  await expect(confirm).toContainText('Sure to logout?');
  await confirm.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  // A deliberate logout is not an interrupted visit: no "continue to the page you opened" notice.
  await expect(page.getByText('Sign in to continue to the page you opened.')).toHaveCount(0);
  // The device keeps its preferences after logout.
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');

  // The pages behind sign-in stay closed: back, or typing the address.
  await page.goBack();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/course');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('link', { name: DEMO_COURSE })).toHaveCount(0);
});

test('a signed-out visitor of a course page signs in and lands back on it', async ({ page, request }) => {
  const forum = `/course/${await demoCourseId(request)}/forum`;
  await page.goto(forum);
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, ACCOUNTS.signInStudent, { language: 'English' });
  await expect(page).toHaveURL(forum);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Forum');
  await expect(
    page.getByRole('navigation', { name: 'Course' }).getByRole('link', { name: 'Forum' }),
  ).toHaveAttribute('aria-current', 'page');
});

test('a signed-out visitor of the profile page, with a query, returns there after sign-in', async ({
  page,
}) => {
  await page.goto('/profile?from=mail#details');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText(ja.auth.login.signInToContinue)).toBeVisible();
  await signIn(page, ACCOUNTS.signInStudent, { language: 'English' });
  await expect(page).toHaveURL(/\/profile\?from=mail#details$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My profile' })).toBeVisible();
  await expect(page.getByText(ACCOUNTS.signInStudent)).toBeVisible();
});

test.describe('signed in', () => {
  test.use({ storageState: STORAGE_STATE.student });

  test('an unknown address shows NotFound, whose button leads home to the course list', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByText(ja.notFound.message)).toBeVisible();
    await chooseLanguage(page, 'English');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(page.getByText('Sorry, but the requested page does not exist.')).toBeVisible();
    await page.getByRole('link', { name: 'Get Back To Home' }).click();
    await expect(page).toHaveURL(/\/course$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Courses' })).toBeVisible();
    await expect(page.getByRole('link', { name: DEMO_COURSE })).toBeVisible();

    // Home is the course list; a course the student does not belong to is NotFound too.
    await page.goto('/');
    await expect(page).toHaveURL(/\/course$/);
    await page.goto('/course/999999/assignment');
    await expect(page.getByText('Sorry, but the requested page does not exist.')).toBeVisible();
  });
});
