import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ACCOUNTS, apiToken, demoCourseId, ja, signedIn, STORAGE_STATE, unique } from './support.ts';

/** The day (YYYY-MM-DD) an instant falls on in Tokyo, the zone the config gives the browser. */
function tokyoDay(date: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo', dateStyle: 'short' }).format(date);
}

async function post<T>(request: APIRequestContext, token: string, path: string, data: unknown): Promise<T> {
  const response = await request.post(`/api${path}`, { data, headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), `POST ${path}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

interface Seeded {
  courseId: number;
  day: string;
  assignment: { id: number; title: string };
  quiz: { id: number; quizCourseId: number; title: string };
}

/**
 * Made by the demo editor through the API: an assignment due at 23:30 and a quiz open 10:00–11:30 on
 * the same day (Tokyo time), two days from now.
 */
async function seed(request: APIRequestContext): Promise<Seeded> {
  const courseId = await demoCourseId(request);
  const { token } = await apiToken(request, ACCOUNTS.editor);
  const day = tokyoDay(new Date(Date.now() + 2 * 86_400_000));
  const assignmentTitle = unique('Calendar assignment');
  const assignment = await post<{ id: number }>(request, token, '/Assignment/', {
    title: assignmentTitle,
    courses: [
      {
        course_id: courseId,
        opens_at: new Date(Date.now() - 3_600_000).toISOString(),
        due_at: `${day}T23:30:00+09:00`,
      },
    ],
  });
  const quizTitle = unique('Calendar quiz');
  const quiz = await post<{ id: number; courses: { id: number; course_id: number }[] }>(
    request,
    token,
    '/Quiz/',
    {
      title: quizTitle,
      questions: [{ kind: 'true_false', prompt: 'Python lists are mutable.', answer_key: { correct: true } }],
      courses: [
        { course_id: courseId, opens_at: `${day}T10:00:00+09:00`, closes_at: `${day}T11:30:00+09:00` },
      ],
    },
  );
  const quizCourse = quiz.courses.find((c) => c.course_id === courseId);
  expect(quizCourse, 'the quiz is given to the demo course').toBeDefined();
  return {
    courseId,
    day,
    assignment: { id: assignment.id, title: assignmentTitle },
    quiz: { id: quiz.id, quizCourseId: quizCourse!.id, title: quizTitle },
  };
}

/** The view switch is a segmented control: its radio inputs are hidden behind their labels. */
async function chooseView(page: Page, name: 'Month' | 'Week' | 'List'): Promise<void> {
  await page
    .locator('label')
    .filter({ hasText: new RegExp(`^${name}$`) })
    .click();
  await expect(page.getByRole('radio', { name })).toBeChecked();
}

/** "Friday, November 27, 2026": how the month grid names a day in English. */
function englishDate(day: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

test('the calendar shows a quiz window and an assignment deadline; an editor adds and deletes an event; the feed URL works', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const data = await seed(request);
  const calendarUrl = `/course/${data.courseId}/calendar?date=${data.day}`;
  const quizPath = `/course/${data.courseId}/quizzes/${data.quiz.id}/quiz-courses/${data.quiz.quizCourseId}`;
  const assignmentPath = `/course/${data.courseId}/assignment/${data.assignment.id}`;
  const editor = await signedIn(browser, ACCOUNTS.editor);

  await test.step('week, month and list views show the quiz window and the deadline, each linking to its page', async () => {
    await editor.goto(`${calendarUrl}&view=week`);
    await expect(editor.getByRole('heading', { level: 1, name: 'Calendar' })).toBeVisible();
    const hours = editor.getByRole('region', { name: 'Hours of the week' });
    await expect(
      // 24-hour labels, like the grid's hour axis, in English too.
      hours.getByRole('link', { name: `Quiz window: 10:00 – 11:30 ${data.quiz.title}` }),
    ).toHaveAttribute('href', quizPath);
    await expect(
      hours.getByRole('link', { name: `Assignment due: 23:30 ${data.assignment.title}` }),
    ).toHaveAttribute('href', assignmentPath);

    // The month: in the day's cell, or behind its "+N more" when the day is full.
    await chooseView(editor, 'Month');
    await expect(editor).not.toHaveURL(/view=/);
    const cell = editor
      .getByRole('table')
      .getByRole('cell', { name: new RegExp(`^${englishDate(data.day)}`) });
    const more = cell.getByRole('button', { name: /^Show all/ });
    if ((await more.count()) > 0) await more.click();
    await expect(
      cell.getByRole('link', { name: `Quiz window: 10:00 ${data.quiz.title}` }).first(),
    ).toHaveAttribute('href', quizPath);
    await expect(
      cell.getByRole('link', { name: `Assignment due: 23:30 ${data.assignment.title}` }).first(),
    ).toHaveAttribute('href', assignmentPath);

    await chooseView(editor, 'List');
    await expect(editor).toHaveURL(/view=list/);
    await expect(editor.getByRole('link', { name: data.quiz.title, exact: true })).toBeVisible();
    await editor.getByRole('link', { name: data.assignment.title, exact: true }).click();
    await expect(editor.getByRole('heading', { level: 1, name: data.assignment.title })).toBeVisible();
    await editor.goBack();
    await expect(editor).toHaveURL(/view=list/);
  });

  const eventTitle = unique('Review session');
  await test.step('the editor adds an event; its details open from the calendar', async () => {
    await editor.goto(`${calendarUrl}&view=week`);
    await editor.getByRole('button', { name: 'New event' }).click();
    const dialog = editor.getByRole('dialog', { name: 'New event' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill(eventTitle);
    await dialog.getByLabel('Starts').fill(`${data.day}T13:00`);
    await dialog.getByLabel('Ends').fill(`${data.day}T14:30`);
    await dialog.getByRole('textbox', { name: 'Place' }).fill('Hall A, 2F');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await expect(editor.getByText(`Event “${eventTitle}” added.`)).toBeVisible();
    await expect(dialog).toBeHidden();
    await editor
      .getByRole('region', { name: 'Hours of the week' })
      .getByRole('button', { name: `Lecture: 13:00 – 14:30 ${eventTitle}` })
      .click();
    const details = editor.getByRole('dialog', { name: eventTitle });
    await expect(details.getByText('Hall A, 2F')).toBeVisible();
    await expect(editor).toHaveURL(/event=\d+/);
    await details.getByRole('button', { name: 'Close' }).last().click();
    await expect(details).toBeHidden();
  });

  await test.step('the private feed URL is shown and serves the calendar', async () => {
    const field = editor.getByRole('textbox', { name: 'Private calendar URL' });
    await expect(field).toHaveValue(/\/api\/calendar\/\d+\.\d+\.[\w-]{43}\.ics$/);
    const feed = await request.get(new URL(await field.inputValue()).pathname);
    expect(feed.status()).toBe(200);
    expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
    const text = (await feed.text()).replaceAll('\r\n ', '');
    expect(text).toContain('BEGIN:VCALENDAR');
    for (const title of [eventTitle, data.quiz.title, data.assignment.title]) expect(text).toContain(title);
  });

  await test.step('a student sees the quiz window and the deadline in Japanese, but cannot add events', async () => {
    const context = await browser.newContext({ storageState: STORAGE_STATE.student });
    const student = await context.newPage();
    await student.goto(`${calendarUrl}&view=week`);
    await expect(student.getByRole('heading', { level: 1, name: ja.routes.calendar })).toBeVisible();
    const hours = student.getByRole('region', { name: ja.calendar.hours });
    await expect(
      hours.getByRole('link', { name: `${ja.calendar.kinds.quiz_window}: 10:00〜11:30 ${data.quiz.title}` }),
    ).toHaveAttribute('href', quizPath);
    await expect(
      hours.getByRole('link', {
        name: `${ja.calendar.kinds.assignment_due}: 23:30 ${data.assignment.title}`,
      }),
    ).toHaveAttribute('href', assignmentPath);
    await expect(hours.getByRole('button', { name: new RegExp(eventTitle) })).toBeVisible();
    await expect(student.getByRole('button', { name: ja.calendar.newEvent })).toHaveCount(0);
    await context.close();
  });

  await test.step("the editor deletes the event after 'Sure to delete the data?'", async () => {
    const hours = editor.getByRole('region', { name: 'Hours of the week' });
    await hours.getByRole('button', { name: new RegExp(eventTitle) }).click();
    await editor
      .getByRole('dialog', { name: eventTitle })
      .getByRole('button', { name: 'Delete event' })
      .click();
    const confirm = editor.getByRole('dialog', { name: 'Delete event' });
    await expect(confirm.getByText('Sure to delete the data?')).toBeVisible();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(editor.getByText(`Event “${eventTitle}” deleted.`)).toBeVisible();
    await expect(hours.getByRole('button', { name: new RegExp(eventTitle) })).toHaveCount(0);
  });
});
