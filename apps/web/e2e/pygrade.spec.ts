import { expect, test, type Page } from '@playwright/test';
import {
  ACCOUNTS,
  DEMO_COURSE,
  expectNoAxeViolations,
  ja,
  setColorScheme,
  signIn,
  signedIn,
} from './support.ts';
import { typeCode } from './api-client.ts';

/** How far the document scrolls sideways: 0 when everything fits the window's width. */
function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

test('the demo editor runs a snippet on PyGrade, in Japanese and dark mode', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/login');
  await signIn(page, ACCOUNTS.editor, { language: '日本語' });
  await expect(page).toHaveURL(/\/course$/);
  await setColorScheme(page, 'dark');

  // The header's tab opens PyGrade inside the app: the same document, header and session.
  const tab = page
    .getByRole('navigation', { name: ja.header.mainNavigation })
    .getByRole('link', { name: ja.header.pygradeTab });
  await tab.click();
  await expect(page).toHaveURL(/\/pygrade\/$/);
  await expect(page.getByRole('heading', { level: 1, name: ja.routes.pygrade })).toBeVisible();
  await expect(tab).toHaveAttribute('aria-current', 'page');
  expect(await page.evaluate(() => performance.getEntriesByType('navigation')[0]?.name ?? '')).toMatch(
    /\/login$/,
  );
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');

  // The embedded grader beats, with its sandbox; jobs name their course (data.setup.ts graded one).
  await expect(page.getByText(ja.pygrade.sandbox.ok)).toBeVisible();
  const hosts = page.getByRole('table', { name: ja.pygrade.hosts.title });
  await expect(hosts.getByText(ja.pygrade.hosts.alive).first()).toBeVisible();
  const recent = page.getByRole('table', { name: ja.pygrade.recent.title });
  await expect(recent.getByRole('link', { name: DEMO_COURSE }).first()).toBeVisible();

  await typeCode(
    page.getByRole('textbox', { name: ja.pygrade.snippet.code }),
    "name = input()\nprint('こんにちは', name[::-1])\n",
  );
  await page.getByRole('textbox', { name: ja.pygrade.snippet.stdin }).fill('edcba');
  await page.getByRole('button', { name: ja.pygrade.snippet.run }).click();
  const result = page.getByRole('region', { name: new RegExp(`^${ja.pygrade.snippet.result}:`) });
  await expect(result).toContainText('終了コード 0');
  await expect(result.getByLabel(ja.pygrade.snippet.stdout, { exact: true })).toHaveText('こんにちは abcde');

  // At 1280 px the tables fit; on a phone the lists are cards. No sideways scroll, no axe violation.
  await expectNoAxeViolations(page, 'PyGrade after a run (ja, dark, 1280 px)');
  expect(await sidewaysScroll(page)).toBe(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('list', { name: ja.pygrade.hosts.title })).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  await expectNoAxeViolations(page, 'PyGrade on a phone (ja, dark, 390 px)');
  expect(await sidewaysScroll(page)).toBe(0);
  await context.close();
});

test('a student has no PyGrade tab and finds NotFound at its address', async ({ browser }) => {
  const page = await signedIn(browser, ACCOUNTS.journeyStudent);
  const main = page.getByRole('navigation', { name: 'Main' });
  await expect(main.getByRole('link', { name: 'Course' })).toBeVisible();
  await expect(main.getByRole('link', { name: 'PyGrade' })).toHaveCount(0);

  await page.goto('/pygrade/');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  await expect(main.getByRole('link', { name: 'PyGrade' })).toHaveCount(0);
  await page.context().close();
});
