import { expect, test } from '@playwright/test';
import { DEMO_COURSE, STAFF_ONLY_COURSE, STORAGE_STATE, chooseLanguage, signIn, unique } from './support.ts';

test.use({ storageState: STORAGE_STATE.staff });

test('staff create a course, enrol new students, and a student sets a password and finds the course', async ({
  page,
  browser,
}) => {
  // Staff see Members and Settings in a course's rail.
  await page.goto('/course');
  await chooseLanguage(page, 'English');
  await expect(page.getByRole('link', { name: STAFF_ONLY_COURSE })).toBeVisible();
  await page.getByRole('link', { name: DEMO_COURSE }).click();
  await expect(
    page.getByRole('navigation', { name: 'Course' }).getByRole('link', { name: 'Settings' }),
  ).toBeVisible();

  // Create a course with lecture videos only.
  const title = unique('E2E course');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Course' }).click();
  await page.getByRole('button', { name: 'Create course' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create course' });
  await dialog.getByRole('textbox', { name: 'Title' }).fill(title);
  await dialog.getByRole('textbox', { name: 'Description' }).fill('Made by the browser journeys.');
  await dialog.getByRole('checkbox', { name: 'Lecture videos' }).check();
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Course “${title}” created.`)).toBeVisible();

  // It opens on its Members page, to add people; the rail follows the course's flags.
  await expect(page).toHaveURL(/\/course\/\d+\/members$/);
  const courseUrl = page.url().replace(/\/members$/, '');
  await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: title }),
  ).toBeVisible();
  const rail = page.getByRole('navigation', { name: 'Course' });
  await expect(rail.getByRole('link', { name: 'Members' })).toHaveAttribute('aria-current', 'page');
  await expect(rail.getByRole('link', { name: 'Lecture Videos' })).toBeVisible();
  await expect(rail.getByRole('link', { name: 'Assessment' })).toHaveCount(0);

  // Settings (staff only) change the course's flags.
  await rail.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(`${courseUrl}/settings`);
  await expect(page.getByRole('heading', { level: 1, name: 'Course settings' })).toBeVisible();
  const assessment = page.getByRole('switch', { name: 'Assessment analysis' });
  await expect(assessment).not.toBeChecked();
  await assessment.check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Course settings saved.')).toBeVisible();
  await expect(rail.getByRole('link', { name: 'Assessment' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Assessment analysis' })).toBeChecked();

  // Two people without accounts, pasted as a column on Members (its Students tab comes first).
  const newStudents = [`${unique('new-a')}@example.com`, `${unique('new-b')}@example.com`];
  await rail.getByRole('link', { name: 'Members' }).click();
  await expect(page).toHaveURL(`${courseUrl}/members`);
  await expect(page.getByRole('tab', { name: 'Students' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('textbox', { name: 'E-mail addresses' }).fill(newStudents.join('\n'));
  await page.getByRole('button', { name: 'Add students' }).click();
  const result = page.getByRole('status').filter({ hasText: 'Result' });
  await expect(result).toContainText('2 new accounts');
  const links: string[] = [];
  for (const email of newStudents) {
    const link = result.getByRole('textbox', { name: `Link for ${email}` });
    await expect(link).toHaveValue(/\/set-password\?uid=.+&token=.+/);
    links.push(await link.inputValue());
    await expect(page.getByRole('table', { name: 'Students' })).toContainText(email);
  }

  // The first new student opens their link in their own browser.
  const visitor = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  try {
    const student = await visitor.newPage();
    const link = new URL(links[0]!);
    await student.goto(`${link.pathname}${link.search}`);
    await chooseLanguage(student, 'English');
    await expect(student.getByRole('heading', { level: 1, name: 'Set password' })).toBeVisible();
    await expect(student.getByText('Your password must :')).toBeVisible();
    const password = 'Harbour-lantern-4821';
    await student.getByRole('textbox', { name: 'New password' }).fill(password);
    await student.getByRole('textbox', { name: 'Confirm password' }).fill(`${password}x`);
    await student.getByRole('button', { name: 'Submit' }).click();
    await expect(student.getByText('Passwords do not match')).toBeVisible();
    await expect(student).toHaveURL(/\/set-password\?/);

    await student.getByRole('textbox', { name: 'Confirm password' }).fill(password);
    const submittedAt = Date.now();
    await student.getByRole('button', { name: 'Submit' }).click();
    await expect(student.getByText('Password set successfully')).toBeVisible();
    await expect(student).toHaveURL(/\/set-password\?/);
    // Spec §9: the notice stays 2 s before the page moves on to sign-in.
    await expect(student).toHaveURL(/\/login$/, { timeout: 5000 });
    expect(Date.now() - submittedAt).toBeGreaterThanOrEqual(2000);

    await signIn(student, newStudents[0]!, { password, language: 'English' });
    await expect(student).toHaveURL(/\/course$/);
    const card = student.getByRole('listitem').filter({ has: student.getByRole('link', { name: title }) });
    await expect(card).toContainText('Videos');
    await expect(card).toContainText('Assessment');
    await expect(student.getByRole('link', { name: DEMO_COURSE })).toHaveCount(0);
    await expect(student.getByRole('link', { name: STAFF_ONLY_COURSE })).toHaveCount(0);
    await student.getByRole('link', { name: title }).click();
    // A course opens on its home.
    await expect(student).toHaveURL(courseUrl);
    const studentRail = student.getByRole('navigation', { name: 'Course' });
    await expect(studentRail.getByRole('link', { name: 'Assignment' })).toBeVisible();
    await expect(studentRail.getByRole('link', { name: 'Settings' })).toHaveCount(0);
    await expect(studentRail.getByRole('link', { name: 'Members' })).toHaveCount(0);
  } finally {
    await visitor.close();
  }
});
