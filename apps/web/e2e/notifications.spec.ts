import { expect, test, type Page } from '@playwright/test';
import {
  ACCOUNTS,
  DEMO_COURSE,
  apiToken,
  demoCourseId,
  expectNoAxeViolations,
  setColorScheme,
  signedIn,
  unique,
} from './support.ts';

/**
 * Issue 40: an editor posts an announcement; the student's bell counts it without a reload (the bell
 * polls every 30 s), the student opens it from the bell and the count goes back down.
 */

const bell = (page: Page) => page.locator('header').getByRole('button', { name: /^Notifications/ });

/** What the bell's name says: "Notifications, 3 unread" (or "Notifications" at none). */
const bellName = (count: number) => (count === 0 ? 'Notifications' : `Notifications, ${count} unread`);

test('an editor’s announcement rings the student’s bell; opening it from the bell reads it', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const courseId = await demoCourseId(request);
  const title = unique('Exam room');
  // The count before, from the API: other journeys of the run may have left the student notifications.
  const student = await apiToken(request, ACCOUNTS.journeyStudent);
  const unreadAt = await request.get('/api/Notification/unread/', {
    headers: { authorization: `Bearer ${student.token}` },
  });
  expect(unreadAt.ok()).toBe(true);
  const before = ((await unreadAt.json()) as { unread: number }).unread;

  const reader = await signedIn(browser, ACCOUNTS.journeyStudent);
  await expect(bell(reader)).toHaveAccessibleName(bellName(before));

  await test.step('the editor posts an announcement in the demo course', async () => {
    const editor = await signedIn(browser, ACCOUNTS.staff);
    await editor.getByRole('link', { name: DEMO_COURSE }).click();
    await editor
      .getByRole('navigation', { name: 'Course' })
      .getByRole('link', { name: /^Forum/ })
      .click();
    await expect(editor.getByRole('heading', { level: 1, name: 'Forum' })).toBeVisible();
    await editor.getByRole('button', { name: 'New post' }).click();
    const dialog = editor.getByRole('dialog', { name: 'New post' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill(title);
    await dialog.getByRole('textbox', { name: 'Content' }).fill('The exam moves to **Hall B**.');
    await expect(dialog.getByRole('checkbox', { name: 'Post as announcement' })).toBeChecked();
    await dialog.getByRole('button', { name: 'Post', exact: true }).click();
    await expect(editor.getByText('Posted.').last()).toBeVisible();
    await editor.context().close();
  });

  await test.step('the student’s bell counts it without a reload', async () => {
    // The bell asks every 30 s.
    await expect(bell(reader)).toHaveAccessibleName(bellName(before + 1), { timeout: 45_000 });
  });

  await test.step('the student opens it from the bell, and the count goes back down', async () => {
    await bell(reader).click();
    const popover = reader.getByRole('dialog', { name: 'Notifications' });
    const name = `New announcement: ${title} (unread)`;
    const item = popover.getByRole('link', { name });
    await expect(item).toBeVisible();
    // Its row names the course (the inner locator is matched within each row).
    const row = popover.getByRole('listitem').filter({ has: reader.getByRole('link', { name }) });
    await expect(row).toContainText(DEMO_COURSE);
    await expectNoAxeViolations(reader, 'the bell’s list');
    await setColorScheme(reader, 'dark');
    await bell(reader).click();
    await expect(item).toBeVisible();
    await expectNoAxeViolations(reader, 'the bell’s list');

    await item.click();
    await expect(reader).toHaveURL(new RegExp(`/course/${courseId}/forum/\\d+$`));
    await expect(reader.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(popover).toBeHidden();
    await expect(bell(reader)).toHaveAccessibleName(bellName(before));
  });

  await test.step('on a phone, the list page shows it read and fits the screen', async () => {
    await reader.setViewportSize({ width: 390, height: 844 });
    await reader.goto('/notifications');
    await expect(reader.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    const list = reader.getByRole('list', { name: 'Notifications' });
    await expect(list.getByRole('link', { name: `New announcement: ${title}`, exact: true })).toBeVisible();
    const widths = await reader.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.viewport);
    await expectNoAxeViolations(reader, 'the notifications page on a phone');
    await bell(reader).click();
    await expect(reader.getByRole('dialog', { name: 'Notifications' })).toBeVisible();
    const box = await reader.getByRole('dialog', { name: 'Notifications' }).boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  });
});
