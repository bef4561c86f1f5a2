import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { ACCOUNTS, apiToken, signedIn, unique } from './support.ts';
import { apiCall, newStudent, typeCode } from './api-client.ts';

/*
 * Per-student extensions (docs/extensions.md), as an editor and a student live them: an assignment of a
 * course of its own is past due; the student finds it closed; the editor grants them two more days on
 * the Extensions page; the student sees "Extended for you", submits after the course's due date and is
 * graded on time; the gradebook marks the cell and its CSV has the score.
 */

const RIGHT = 'a, b = map(int, input().split())\nprint(a + b)\n';

test('an editor grants a student an extension; the student submits after the course’s due date', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const staff = await apiToken(request, ACCOUNTS.staff);
  const editorAccount = await apiToken(request, ACCOUNTS.editor);
  const courseTitle = unique('Extensions');
  const course = await apiCall<{ id: number }>(request, staff, 'POST', '/Course/', { title: courseTitle });
  await apiCall(request, staff, 'POST', `/EditorList/${course.id}/`, { user_ids: [editorAccount.id] });
  const student = await newStudent(request, staff, 'ext-student', { first_name: 'Ken', last_name: 'Late' });
  await apiCall(request, staff, 'POST', `/StudentList/${course.id}/`, { user_ids: [student.id] });
  const title = unique('Sum after hours');
  const now = Date.now();
  const assignment = await apiCall<{ id: number }>(request, editorAccount, 'POST', '/Assignment/', {
    title,
    statement: 'Print the sum of two numbers.',
    courses: [
      {
        course_id: course.id,
        opens_at: new Date(now - 3 * 86_400_000).toISOString(),
        due_at: new Date(now - 3_600_000).toISOString(),
      },
    ],
  });
  await apiCall(request, editorAccount, 'POST', `/Assignment/${assignment.id}/${course.id}/TestCase/`, {
    name: 'Small',
    stdin: '3 4\n',
    expected_stdout: '7\n',
    points: 5,
  });
  const assignmentUrl = `/course/${course.id}/assignment/${assignment.id}`;

  const page = await signedIn(browser, student.email, { password: student.password });

  await test.step('the student finds the assignment closed', async () => {
    await page.goto(assignmentUrl);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByText('Submissions are not accepted now.')).toBeVisible();
  });

  const editor = await signedIn(browser, ACCOUNTS.editor);
  await test.step('the editor grants the student two more days', async () => {
    await editor.goto(`/course/${course.id}`);
    await editor
      .getByRole('navigation', { name: 'Course' })
      .getByRole('link', { name: 'Extensions' })
      .click();
    await expect(editor.getByRole('heading', { level: 1, name: 'Extensions' })).toBeVisible();
    await editor.getByRole('button', { name: 'Grant extension', exact: true }).click();
    const dialog = editor.getByRole('dialog', { name: 'Grant an extension' });
    await dialog.getByRole('combobox', { name: 'Assignment' }).click();
    await editor.getByRole('option', { name: title }).click();
    await dialog.getByRole('combobox', { name: 'Students' }).click();
    await editor.getByRole('option', { name: new RegExp(student.email) }).click();
    await editor.keyboard.press('Escape');
    await expect(dialog).toBeVisible();
    // The default: two days from today at the course's time of day.
    await expect(dialog.getByLabel('New due date')).not.toHaveValue('');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Hospital stay; certificate seen.');
    await dialog.getByRole('button', { name: 'Grant', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(editor.getByText('Extension granted to 1 student.')).toBeVisible();
    const row = editor.getByRole('row', { name: new RegExp(student.email) });
    await expect(row).toContainText(title);
    await expect(row).toContainText('Hospital stay; certificate seen.');
  });

  await test.step('the student submits after the course’s due date and is graded on time', async () => {
    await page.reload();
    await expect(page.getByText('Extended for you').first()).toBeVisible();
    await expect(page.getByText('Submissions are not accepted now.')).toBeHidden();
    await typeCode(page.getByRole('textbox', { name: 'Code (main.py)' }), RIGHT);
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(page.getByText(/Submitted as #\d+/)).toBeVisible();
    const mine = page.getByRole('region', { name: 'My submissions' });
    await expect(mine.getByRole('listitem').first()).toContainText('Completed', { timeout: 30_000 });
    await expect(mine.getByRole('listitem').first()).toContainText('5 / 5');
    await expect(mine.getByRole('listitem').first()).not.toContainText('Late');
  });

  await test.step('the gradebook marks the cell extended and its CSV has the score', async () => {
    await editor.getByRole('navigation', { name: 'Course' }).getByRole('link', { name: 'Gradebook' }).click();
    await expect(editor.getByRole('heading', { level: 1, name: 'Gradebook' })).toBeVisible();
    const row = editor.getByRole('row', { name: new RegExp(student.email) });
    await expect(row.getByText('Extended')).toBeVisible();
    const download = editor.waitForEvent('download');
    await editor.getByRole('button', { name: 'Download CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.csv$/);
    const csv = await readFile(await file.path(), 'utf8');
    expect(csv.startsWith('\uFEFF'), 'a byte-order mark, for Excel').toBe(true);
    const [header, ...rows] = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(header).toContain('email');
    expect(header).toContain(title);
    const line = rows.find((candidate) => candidate.includes(student.email));
    expect(line, csv).toBeDefined();
    expect(line).toMatch(/,5,5,0,0$/);
  });

  await test.step('the audit log says who granted what', async () => {
    await editor
      .getByRole('navigation', { name: 'Course' })
      .getByRole('link', { name: 'Extensions' })
      .click();
    await editor.getByRole('tab', { name: 'Audit log' }).click();
    await expect(editor.getByText(ACCOUNTS.editor).first()).toBeVisible();
    await expect(editor.getByText('Hospital stay; certificate seen.').first()).toBeVisible();
  });
  await page.context().close();
  await editor.context().close();
});
