import { expect, test, type Page } from '@playwright/test';
import { apiCall, newStudent } from './api-client.ts';
import { ACCOUNTS, apiToken, expectNoAxeViolations, setColorScheme, signedIn, unique } from './support.ts';

/**
 * Issue 40: staff post an announcement; the student's bell counts it without a reload (the bell
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
  // A course and a student of its own: journeys running beside this one post announcements and grade
  // submissions in the demo course, which would ring a demo student's bell too.
  const staff = await apiToken(request, ACCOUNTS.staff);
  const courseTitle = unique('Bell course');
  const course = await apiCall<{ id: number }>(request, staff, 'POST', '/Course/', { title: courseTitle });
  const student = await newStudent(request, staff, 'bell-student');
  await apiCall(request, staff, 'POST', `/StudentList/${course.id}/`, { user_ids: [student.id] });
  const courseId = course.id;
  const title = unique('Exam room');

  const reader = await signedIn(browser, student.email, { password: student.password });
  await expect(bell(reader)).toHaveAccessibleName(bellName(0));

  await test.step('staff post an announcement in the course', async () => {
    const editor = await signedIn(browser, ACCOUNTS.staff);
    await editor.goto(`/course/${courseId}/forum`);
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
    await expect(bell(reader)).toHaveAccessibleName(bellName(1), { timeout: 45_000 });
  });

  await test.step('the student opens it from the bell, and the count goes back down', async () => {
    await bell(reader).click();
    const popover = reader.getByRole('dialog', { name: 'Notifications' });
    const name = `New announcement: ${title} (unread)`;
    const item = popover.getByRole('link', { name });
    await expect(item).toBeVisible();
    // Its row names the course (the inner locator is matched within each row).
    const row = popover.getByRole('listitem').filter({ has: reader.getByRole('link', { name }) });
    await expect(row).toContainText(courseTitle);
    await expectNoAxeViolations(reader, 'the bell’s list');
    await setColorScheme(reader, 'dark');
    await bell(reader).click();
    await expect(item).toBeVisible();
    await expectNoAxeViolations(reader, 'the bell’s list');

    await item.click();
    await expect(reader).toHaveURL(new RegExp(`/course/${courseId}/forum/\\d+$`));
    await expect(reader.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(popover).toBeHidden();
    await expect(bell(reader)).toHaveAccessibleName(bellName(0));
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
