import { expect, test, type Locator, type Page } from '@playwright/test';
import { ACCOUNTS, DEMO_COURSE, ja, signIn, unique } from './support.ts';

test('a wrong password is refused with a notice; the forgotten-password dialog says whom to ask', async ({
  page,
}) => {
  // An address nobody has: the throttle counts failures per account, so real accounts stay usable.
  const stranger = `${unique('nobody')}@example.com`;
  await page.goto('/login');
  await signIn(page, stranger, { password: 'not-the-password', language: '日本語' });
  await expect(page.getByRole('alert').filter({ hasText: ja.auth.login.failed })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await signIn(page, stranger, { password: 'not-the-password', language: 'English' });
  await expect(page.getByRole('alert').filter({ hasText: 'Email authentication failed.' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  // The password can be shown while typing.
  const password = page.getByRole('textbox', { name: 'Password', exact: true });
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(password).toHaveAttribute('type', 'text');

  await page.getByRole('button', { name: 'Forgotten your password?' }).click();
  const dialog = page.getByRole('dialog', { name: 'Forgotten your password?' });
  await expect(dialog).toContainText('Please contact the Kadai team if you have forgotten your password');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(dialog).toBeHidden();

  // Five failures in a row lock the account for a while, and the notice says how long.
  for (let attempt = 3; attempt <= 5; attempt += 1) {
    const answered = page.waitForResponse('**/api/Auth/Email/Login/');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    expect((await answered).status()).toBe(401);
  }
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: /Too many failed attempts\. Please wait \d+ seconds/ }),
  ).toBeVisible();

  // One wrong password on a real account answers like any other, and does not lock it.
  await signIn(page, ACCOUNTS.editor, { password: 'wrong-password-2026', language: 'English' });
  await expect(
    page.getByRole('alert').filter({ hasText: 'Email authentication failed.' }).first(),
  ).toBeVisible();
  await signIn(page, ACCOUNTS.editor, { language: 'English' });
  await expect(page).toHaveURL(/\/course$/);
  await expect(page.getByRole('link', { name: DEMO_COURSE })).toBeVisible();
});

function isFocused(target: Locator): Promise<boolean> {
  return target.evaluate((element) => element === document.activeElement);
}

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails if it never comes. */
async function tabTo(page: Page, target: Locator, { most = 20, backwards = false } = {}): Promise<void> {
  for (let presses = 0; presses < most && !(await isFocused(target)); presses += 1) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  await expect(target).toBeFocused();
}

/** The accessible name of the focused element, as a screen reader would announce it (roughly). */
function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return '';
    return (element.getAttribute('aria-label') ?? element.textContent ?? '').trim();
  });
}

test('the keyboard alone signs in, skips to the content, and reaches the header and the course', async ({
  page,
}) => {
  await page.goto('/login');
  // The app draws its first screen after the load event (in a transition, index.html's frame until then).
  await expect(page.getByRole('link', { name: ja.common.skipToContent })).toBeAttached();

  // The first Tab reaches the skip link, which moves the focus to the page content.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: ja.common.skipToContent })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();

  // The language menu works from the keyboard too.
  await tabTo(page, page.getByRole('button', { name: 'Language / 言語' }), { backwards: true });
  await page.keyboard.press('Enter');
  const english = page.getByRole('menuitem', { name: 'English' });
  await expect(english).toBeVisible();
  for (let presses = 0; presses < 3 && !(await isFocused(english)); presses += 1) {
    await page.keyboard.press('ArrowDown');
  }
  await expect(english).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');

  // The form: Tab into each field, Enter submits.
  const email = page.getByRole('textbox', { name: 'E-mail' });
  await tabTo(page, email);
  await page.keyboard.type(ACCOUNTS.signInStudent);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('textbox', { name: 'Password', exact: true })).toBeFocused();
  await page.keyboard.type('demo-password-2026');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/course$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Courses' })).toBeVisible();

  // From the top of the page, Tab walks through the header's controls in reading order.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Courses' })).toBeVisible();
  const seen: string[] = [];
  for (let presses = 0; presses < 9; presses += 1) {
    await page.keyboard.press('Tab');
    seen.push(await focusedName(page));
  }
  // A student has no PyGrade tab (it is for editors and staff). The bell's name says how many
  // notifications are unread, which other journeys may have made.
  expect(seen.slice(0, 7)).toEqual([
    'Skip to main content',
    'Kadai home',
    'Course',
    'Language / 言語',
    'Dark mode',
    expect.stringMatching(/^Notifications(, \d+ unread)?$/),
    'Account menu',
  ]);

  // The account menu opens and closes from the keyboard, and gives the focus back.
  const account = page.getByRole('button', { name: 'Account menu' });
  await account.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Profile' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem', { name: 'Profile' })).toBeHidden();
  await expect(account).toBeFocused();

  // Dark mode by keyboard (back past the bell).
  await tabTo(page, page.getByRole('button', { name: 'Dark mode' }), { backwards: true, most: 3 });
  await page.keyboard.press('Space');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');

  // Into a course and along its side rail (it expands when it takes the focus).
  await tabTo(page, page.getByRole('link', { name: DEMO_COURSE }), { most: 30 });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/course\/\d+$/);
  const workbook = page.getByRole('navigation', { name: 'Course' }).getByRole('link', { name: 'Workbook' });
  // The course's page has drawn. The link that was followed is gone, so the focus starts from the top
  // of the main content; backwards, the side rail comes next (forwards, the course's home page would
  // come first, as long as the other journeys have made it).
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(workbook).toBeVisible();
  await tabTo(page, workbook, { most: 30, backwards: true });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/course\/\d+\/workbook$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Workbook');
});
