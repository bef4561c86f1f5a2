import { expect, test, type Page } from '@playwright/test';
import {
  ACCOUNTS,
  apiToken,
  expectNoAxeViolations,
  ja,
  setLanguageAndScheme,
  signedIn,
  unique,
} from './support.ts';
import { apiCall, newStudent } from './api-client.ts';

/*
 * The course home (docs/course-home.md): a course of its own, made through the API, with the demo editor
 * and a new student. The editor posts an announcement and the student's submission is graded by the real
 * grader; then the student opens the course and finds both on its first page, reads the announcement,
 * and the editor finds the student's question. Both views under axe in both schemes and languages, and
 * at 390 px without sideways scrolling.
 */

async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect(
    widths.scroll,
    `${what}: ${widths.scroll} px wide on a ${widths.viewport} px screen`,
  ).toBeLessThanOrEqual(widths.viewport);
}

test('a student’s course home shows a new announcement as unread and the latest graded result', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const staff = await apiToken(request, ACCOUNTS.staff);
  const editor = await apiToken(request, ACCOUNTS.editor);
  const title = unique('Course home');
  const course = await apiCall<{ id: number }>(request, staff, 'POST', '/Course/', { title });
  await apiCall(request, staff, 'POST', `/EditorList/${course.id}/`, { user_ids: [editor.id] });
  const student = await newStudent(request, staff, 'home-student');
  await apiCall(request, staff, 'POST', `/StudentList/${course.id}/`, { user_ids: [student.id] });

  const assignmentTitle = unique('Add two numbers');
  const announcementTitle = unique('Room change');
  await test.step('the editor gives an assignment and posts an announcement; the submission is graded', async () => {
    const now = Date.now();
    const assignment = await apiCall<{ id: number }>(request, editor, 'POST', '/Assignment/', {
      title: assignmentTitle,
      statement: 'Print the sum of two numbers.',
      courses: [
        {
          course_id: course.id,
          opens_at: new Date(now - 3_600_000).toISOString(),
          due_at: new Date(now + 3 * 86_400_000).toISOString(),
        },
      ],
    });
    await apiCall(request, editor, 'POST', `/Assignment/${assignment.id}/${course.id}/TestCase/`, {
      name: 'Small',
      stdin: '3 4\n',
      expected_stdout: '7\n',
      points: 5,
    });
    await apiCall(request, editor, 'POST', '/Forum/Record/', {
      course: course.id,
      title: announcementTitle,
      content: 'Lectures move to room 201 from next week.',
      is_announcement: true,
    });
    const submission = await apiCall<{ id: number }>(request, student, 'POST', '/Submission/Submit/', {
      assignment_id: assignment.id,
      course_id: course.id,
      code: 'a, b = map(int, input().split())\nprint(a + b)\n',
    });
    await expect
      .poll(
        async () =>
          (await apiCall<{ status: string }>(request, student, 'GET', `/Submission/${submission.id}/`))
            .status,
        { timeout: 30_000 },
      )
      .toBe('Completed');
  });

  const page = await signedIn(browser, student.email, { password: student.password });
  const context = page.context();
  try {
    await test.step('the student opens the course and lands on its home', async () => {
      await page.getByRole('link', { name: title }).click();
      await expect(page).toHaveURL(new RegExp(`/course/${course.id}$`));
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page).toHaveTitle('Home · Kadai');
      const rail = page.getByRole('navigation', { name: 'Course' });
      await expect(rail.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    });

    await test.step('the announcement is unread, the result and the graded assignment are there', async () => {
      const news = page.getByRole('region', { name: 'Unread announcements' });
      const announcement = news.getByRole('listitem').filter({ hasText: announcementTitle });
      await expect(announcement.getByRole('link', { name: announcementTitle })).toBeVisible();
      await expect(announcement.getByText('Unread', { exact: true })).toBeVisible();

      const results = page.getByRole('region', { name: 'Latest results' });
      const result = results.getByRole('listitem').filter({ hasText: assignmentTitle });
      await expect(result.getByText('5 / 5', { exact: true })).toBeVisible();
      await expect(result.getByRole('link', { name: assignmentTitle })).toHaveAttribute(
        'href',
        new RegExp(`/course/${course.id}/submission/\\d+$`),
      );

      const due = page.getByRole('region', { name: 'Due soon' });
      await expect(
        due.getByRole('listitem').filter({ hasText: assignmentTitle }).getByText('Graded 5 / 5'),
      ).toBeVisible();
      await expect(page.getByRole('region', { name: 'Open quizzes' })).toContainText(
        'No quiz is waiting for you right now.',
      );
    });

    await test.step('under axe: light in English, dark in Japanese', async () => {
      await expectNoAxeViolations(page, 'the student’s course home');
      await setLanguageAndScheme(page, '日本語', 'dark');
      await expect(page.getByRole('region', { name: ja.courseHome.student.announcements })).toBeVisible();
      await expectNoAxeViolations(page, 'the student’s course home');
      await setLanguageAndScheme(page, 'English', 'light');
    });

    await test.step('at 390 px nothing scrolls sideways', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(page.getByRole('region', { name: 'Latest results' })).toBeVisible();
      await expectNoSidewaysScroll(page, 'the student’s course home');
      await page.setViewportSize({ width: 1280, height: 800 });
    });

    await test.step('reading the announcement takes it off the home', async () => {
      await page.getByRole('link', { name: announcementTitle }).click();
      await expect(page.getByRole('heading', { level: 1, name: announcementTitle })).toBeVisible();
      await expect(page.getByText('Lectures move to room 201 from next week.')).toBeVisible();
      await page.getByRole('navigation', { name: 'Course' }).getByRole('link', { name: 'Home' }).click();
      await expect(page.getByRole('region', { name: 'Unread announcements' })).toContainText(
        'You have read every announcement.',
      );
    });
  } finally {
    await context.close();
  }

  await test.step('the editor finds the student’s question unanswered', async () => {
    const question = unique('Why does input() return a string?');
    await apiCall(request, student, 'POST', '/Forum/Record/', {
      course: course.id,
      title: question,
      content: 'I expected a number.',
    });
    const editorPage = await signedIn(browser, ACCOUNTS.editor);
    try {
      await editorPage.getByRole('link', { name: title }).click();
      await expect(editorPage).toHaveURL(new RegExp(`/course/${course.id}$`));
      const questions = editorPage.getByRole('region', { name: 'Unanswered questions' });
      await expect(questions.getByRole('link', { name: question })).toBeVisible();
      await expect(editorPage.getByRole('region', { name: 'Closing this week' })).toContainText(
        '1 of 1 students handed in',
      );
      await expectNoAxeViolations(editorPage, 'the editor’s course home');
      await setLanguageAndScheme(editorPage, '日本語', 'dark');
      await expect(editorPage.getByRole('region', { name: ja.courseHome.editor.questions })).toBeVisible();
      await expectNoAxeViolations(editorPage, 'the editor’s course home');
      await editorPage.setViewportSize({ width: 390, height: 844 });
      await expect(editorPage.getByRole('region', { name: ja.courseHome.editor.questions })).toBeVisible();
      await expectNoSidewaysScroll(editorPage, 'the editor’s course home');
      // Leave the editor's saved language as the journeys expect it.
      await setLanguageAndScheme(editorPage, 'English', 'light');
    } finally {
      await editorPage.context().close();
    }
  });
});
