import { expect, test, type Page } from '@playwright/test';
import type { RegradeRequest, ReviewQueue, Rubric } from '@kadai/contracts';
import { apiCall, newStudent } from './api-client.ts';
import { ACCOUNTS, apiToken, expectNoAxeViolations, signedIn, unique } from './support.ts';

/*
 * The teacher's review (issue 39, docs/review.md) as an editor works it in the browser: a rubric of
 * three items, the grading queue, two submissions graded from the keyboard (digits tick, `j` goes on),
 * a comment on line 2 that inserts a saved comment, the release with its confirmation, and the answer
 * to a student's regrade request. The student's side is review.spec.ts.
 */

const CODE = ['a, b = map(int, input().split())', 'print(a + b)', ''].join('\n');
const SAVED_BODY = 'Name the value you print.';

/** Saves the grading as graded from the keyboard: Tab reaches the button, Enter presses it. */
async function saveGraded(page: Page) {
  const save = page.getByRole('button', { name: 'Save as graded' });
  await save.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Saved as graded.').last()).toBeVisible();
  await expect(page.getByText('Graded', { exact: true }).first()).toBeVisible();
}

test('an editor grades two submissions by keyboard, releases and answers a regrade', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const staff = await apiToken(request, ACCOUNTS.staff);
  const editor = await apiToken(request, ACCOUNTS.editor);
  const course = await apiCall<{ id: number }>(request, staff, 'POST', '/Course/', {
    title: unique('Grading'),
  });
  await apiCall(request, staff, 'POST', `/EditorList/${course.id}/`, { user_ids: [editor.id] });
  const students = [
    await newStudent(request, staff, 'grading-a', { first_name: 'Aoi', last_name: 'Ando' }),
    await newStudent(request, staff, 'grading-b', { first_name: 'Ben', last_name: 'Baba' }),
  ];
  await apiCall(request, staff, 'POST', `/StudentList/${course.id}/`, {
    user_ids: students.map((s) => s.id),
  });
  const now = Date.now();
  const assignment = await apiCall<{ id: number }>(request, editor, 'POST', '/Assignment/', {
    title: unique('Sum graded by hand'),
    statement: 'Print the sum of two numbers.',
    courses: [
      {
        course_id: course.id,
        opens_at: new Date(now - 86_400_000).toISOString(),
        due_at: new Date(now + 86_400_000).toISOString(),
      },
    ],
  });
  await apiCall(request, editor, 'POST', `/Assignment/${assignment.id}/${course.id}/TestCase/`, {
    name: 'Small',
    stdin: '3 4\n',
    expected_stdout: '7\n',
    points: 5,
  });
  const submissions = await Promise.all(
    students.map((student) =>
      apiCall<{ id: number }>(request, student, 'POST', '/Submission/Submit/', {
        assignment_id: assignment.id,
        course_id: course.id,
        code: CODE,
      }),
    ),
  );
  for (const [i, submission] of submissions.entries()) {
    await expect
      .poll(
        async () =>
          (await apiCall<{ status: string }>(request, students[i]!, 'GET', `/Submission/${submission.id}/`))
            .status,
        { timeout: 30_000 },
      )
      .toBe('Completed');
  }
  await apiCall(request, editor, 'POST', `/Course/${course.id}/saved-comments/`, {
    title: 'Label the output',
    body: SAVED_BODY,
  });

  const base = `/course/${course.id}/assignment/${assignment.id}`;
  const page = await signedIn(browser, ACCOUNTS.editor);

  await test.step('the editor makes a rubric of three items', async () => {
    await page.goto(`${base}/rubric`);
    await page.getByRole('textbox', { name: 'Rubric maximum' }).fill('3');
    await expect(page.getByText('Maximum score: 8')).toBeVisible();
    const items: [string, string][] = [
      ['Prints only the sum', '2'],
      ['Reads both numbers', '1'],
      ['Leaves debugging output', '-1'],
    ];
    const rows = page.getByRole('region', { name: 'Items' }).getByRole('listitem');
    for (const [index, [title, points]] of items.entries()) {
      await page.getByRole('button', { name: 'Add item' }).click();
      const row = rows.nth(index);
      await row.getByRole('textbox', { name: 'Title' }).fill(title);
      await row.getByRole('textbox', { name: 'Points' }).fill(points);
    }
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Rubric saved.')).toBeVisible();
  });

  const queue = await apiCall<ReviewQueue>(
    request,
    editor,
    'GET',
    `/Course/${course.id}/assignments/${assignment.id}/reviews/`,
  );
  const [first, second] = queue.rows;

  await test.step('the editor opens the queue', async () => {
    await page.getByRole('main').getByRole('link', { name: 'Grading queue' }).click();
    await expect(page).toHaveURL(new RegExp(`${base}/grading$`));
    const table = page.getByRole('table', { name: 'Students to grade' });
    await expect(table.getByRole('row')).toHaveCount(3);
    await expectNoAxeViolations(page, 'the grading queue');
    await table.getByRole('link').first().click();
    await expect(page).toHaveURL(new RegExp(`${base}/grading/${first!.submission_id}$`));
  });

  await test.step('the first: a comment on line 2 with a saved comment, two items, saved', async () => {
    const code = page.getByRole('region', { name: 'Submitted files' });
    await code.locator('.cm-lineNumbers .cm-gutterElement', { hasText: /^2$/ }).click();
    await code.getByRole('button', { name: 'Comment on line 2' }).click();
    const body = page.getByRole('textbox', { name: 'Comment', exact: true });
    await expect(body).toBeFocused();
    await page.keyboard.type('Good. \\');
    const picker = page.getByRole('combobox', { name: 'Saved comment' });
    await expect(picker).toBeFocused();
    await page.keyboard.type('label');
    await page.keyboard.press('Enter');
    await expect(body).toHaveValue(`Good. ${SAVED_BODY}`);
    await page.getByRole('button', { name: 'Post comment' }).click();
    const threads = page.getByRole('list', { name: 'Comments on this file' });
    await expect(threads.getByText(SAVED_BODY)).toBeVisible();

    await page.locator('body').focus();
    await page.keyboard.press('1');
    await page.keyboard.press('2');
    await expect(page.getByRole('checkbox', { name: /Prints only the sum/ })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: /Reads both numbers/ })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: /Leaves debugging output/ })).not.toBeChecked();
    await expectNoAxeViolations(page, 'the grading page');
    await saveGraded(page);
  });

  await test.step('j opens the second, graded with one item', async () => {
    await page.locator('body').focus();
    await page.keyboard.press('j');
    await expect(page).toHaveURL(new RegExp(`${base}/grading/${second!.submission_id}$`));
    // Its rubric is on the page (not the first's, nor the loader) before a digit can tick it.
    await expect(page.getByText('Not graded', { exact: true })).toBeVisible();
    await expect(page.getByRole('checkbox', { name: /Prints only the sum/ })).not.toBeChecked();
    await page.keyboard.press('1');
    await expect(page.getByRole('checkbox', { name: /Prints only the sum/ })).toBeChecked();
    await saveGraded(page);
  });

  await test.step('the editor releases the graded reviews from the queue', async () => {
    await page.goto(`${base}/grading`);
    await page.getByRole('button', { name: 'Release', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Graded only (2)' }).click();
    const confirm = page.getByRole('dialog', { name: 'Release gradings to students' });
    await expect(confirm.getByText('2 students will see their gradings')).toBeVisible();
    // On a loaded box the first click can land while the dialog still opens: click until it closes
    // (a second release would release nothing more), then read the queue's count, which stays.
    await expect(async () => {
      if (await confirm.isVisible()) await confirm.getByRole('button', { name: 'Release' }).click();
      await expect(confirm).toBeHidden({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByText('2 released', { exact: true })).toBeVisible({ timeout: 20_000 });
  });

  await test.step('a student asks for a regrade; the editor answers it', async () => {
    const rubric = await apiCall<Rubric>(
      request,
      editor,
      'GET',
      `/Course/${course.id}/assignments/${assignment.id}/rubric/`,
    );
    await apiCall<RegradeRequest>(
      request,
      students[1]!,
      'POST',
      `/Submission/${second!.submission_id}/regrade-requests/`,
      { rubric_item_id: rubric.items[1]!.id, reason: 'Line 1 reads both numbers.' },
    );
    // The editor comes back later: the side rail counts the open request.
    await page.reload();
    const rail = page.getByRole('navigation', { name: 'Course' });
    await rail.getByRole('link', { name: 'Regrade requests (1 open)' }).click();
    await expect(page).toHaveURL(new RegExp(`/course/${course.id}/regrade-requests$`));
    const list = page.getByRole('list', { name: 'Regrade requests' });
    await expect(list.getByText('Line 1 reads both numbers.')).toBeVisible();
    await expectNoAxeViolations(page, 'the regrade requests');
    await list.getByRole('textbox', { name: 'Answer' }).fill('Right: the item now applies.');
    await list.getByRole('button', { name: 'Send answer' }).click();
    await expect(page.getByText('No open regrade requests.')).toBeVisible();
    await expect(rail.getByRole('link', { name: 'Regrade requests', exact: true })).toBeVisible();
  });
});
