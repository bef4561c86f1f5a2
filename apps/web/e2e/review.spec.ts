import { expect, test } from '@playwright/test';
import type { RegradeList, Review, Rubric, StudentFeedback } from '@kadai/contracts';
import { apiCall, newStudent } from './api-client.ts';
import {
  ACCOUNTS,
  apiToken,
  expectNoAxeViolations,
  setLanguageAndScheme,
  signedIn,
  unique,
} from './support.ts';

/*
 * The teacher's review (issue 39, docs/review.md) as a student reads it on a phone: an editor grades a
 * submission by hand through the API (their pages are walked elsewhere), comments on line 2 and
 * releases; the student reads the score and the comment below its line, replies, asks for a regrade
 * of the rubric item, and later reads the editor's answer.
 */

// Line 3 is long: the code scrolls sideways inside its box, the page never does.
const CODE = [
  'a, b = map(int, input().split())',
  'print(a + b)',
  `# ${'a note that goes on and on '.repeat(6)}`,
  '',
].join('\n');

test('a student reads a released review, replies and asks for a regrade', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const staff = await apiToken(request, ACCOUNTS.staff);
  const editor = await apiToken(request, ACCOUNTS.editor);
  const course = await apiCall<{ id: number }>(request, staff, 'POST', '/Course/', {
    title: unique('Review'),
  });
  await apiCall(request, staff, 'POST', `/EditorList/${course.id}/`, { user_ids: [editor.id] });
  const student = await newStudent(request, staff, 'review-student', {
    first_name: 'Mio',
    last_name: 'Read',
  });
  await apiCall(request, staff, 'POST', `/StudentList/${course.id}/`, { user_ids: [student.id] });
  const now = Date.now();
  const assignment = await apiCall<{ id: number }>(request, editor, 'POST', '/Assignment/', {
    title: unique('Sum by hand'),
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
  const submission = await apiCall<{ id: number }>(request, student, 'POST', '/Submission/Submit/', {
    assignment_id: assignment.id,
    course_id: course.id,
    code: CODE,
  });
  await expect
    .poll(
      async () =>
        (await apiCall<{ status: string }>(request, student, 'GET', `/Submission/${submission.id}/`)).status,
      { timeout: 30_000 },
    )
    .toBe('Completed');

  await test.step('an editor grades with a rubric item, comments on line 2 and releases', async () => {
    const rubric = await apiCall<Rubric>(
      request,
      editor,
      'PUT',
      `/Course/${course.id}/assignments/${assignment.id}/rubric/`,
      {
        settings: { autograde_weight: 1, rubric_weight: 1, rubric_max: 3 },
        items: [
          { title: 'Prints only the sum', points: 2 },
          { title: 'Explains the code', points: 1 },
        ],
      },
    );
    const review = await apiCall<Review>(request, editor, 'GET', `/Submission/${submission.id}/review/`);
    await apiCall(request, editor, 'PUT', `/Submission/${submission.id}/review/`, {
      version: review.version,
      status: 'graded',
      selected_item_ids: [rubric.items[0]!.id],
      comment: 'Well done.',
    });
    await apiCall(request, editor, 'POST', `/Submission/${submission.id}/comments/`, {
      filename: 'main.py',
      line_start: 2,
      line_end: 2,
      body: 'Say what the number is: *print a label* too.',
    });
    await apiCall(
      request,
      editor,
      'POST',
      `/Course/${course.id}/assignments/${assignment.id}/reviews/release/`,
      {
        scope: 'graded',
      },
    );
  });

  const feedback = await apiCall<StudentFeedback>(
    request,
    student,
    'GET',
    `/Submission/${submission.id}/feedback/`,
  );
  const page = await signedIn(browser, student.email, { password: student.password });
  await page.setViewportSize({ width: 390, height: 844 });
  const panel = page.getByRole('region', { name: "Teacher's feedback" });

  await test.step('the student reads the score and the comment below line 2', async () => {
    await page.goto(`/course/${course.id}/submission/${submission.id}`);
    await expect(panel).toBeVisible();
    const total = panel.locator('dt', { hasText: 'Total' }).locator('xpath=following-sibling::dd[1]');
    await expect(total).toHaveText(`${feedback.score!.total} / ${feedback.score!.max_score}`);
    const thread = panel.getByRole('article', { name: 'Comment on main.py, line 2' });
    await expect(thread.getByText('print a label')).toBeVisible();
    await expect(panel.getByRole('group', { name: 'main.py, lines 1–2' })).toBeVisible();
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(widths[0], 'the page does not scroll sideways').toBeLessThanOrEqual(widths[1]!);
    await expectNoAxeViolations(page, 'the released feedback');
  });

  await test.step('the student replies to the comment', async () => {
    const thread = panel.getByRole('article', { name: 'Comment on main.py, line 2' });
    await thread.getByRole('button', { name: 'Reply' }).click();
    await thread.getByLabel('Reply about main.py, line 2').fill('I will add a label.');
    await thread.getByRole('button', { name: 'Send reply' }).click();
    await expect(thread.getByText('I will add a label.')).toBeVisible();
  });

  await test.step('the student asks for a regrade of the rubric item, once', async () => {
    await panel.getByRole('button', { name: 'Request regrade: Prints only the sum' }).click();
    const dialog = page.getByRole('dialog', { name: 'Request a regrade' });
    await dialog.getByLabel('Why should it be graded again?').fill('It also explains itself in line 3.');
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await expect(dialog).toBeHidden();
    await expect(panel.getByText('Regrade requested', { exact: true })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Request regrade: Prints only the sum' })).toHaveCount(0);
  });

  await test.step('the editor answers and the student reads the answer', async () => {
    const open = await apiCall<RegradeList>(
      request,
      editor,
      'GET',
      `/Course/${course.id}/regrade-requests/?status=open`,
    );
    expect(open.results).toHaveLength(1);
    await apiCall(request, editor, 'POST', `/RegradeRequest/${open.results[0]!.id}/answer/`, {
      answer: 'Comments are not explanations; the item stays.',
    });
    await page.reload();
    await expect(panel.getByText('Regrade answered', { exact: true })).toBeVisible();
    await expect(panel.getByText(/Comments are not explanations; the item stays\./)).toBeVisible();
    await expectNoAxeViolations(page, 'the answered regrade request');
    await setLanguageAndScheme(page, '日本語', 'dark');
    await expect(page.getByRole('region', { name: '教員からのフィードバック' })).toBeVisible();
    await expectNoAxeViolations(page, 'the feedback in Japanese, dark');
  });
});
