import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import {
  AssignmentCourseDetail,
  Calendar,
  CalendarFeed,
  AssignmentInCourseList,
  ExtensionAuditPage,
  ExtensionList,
  Gradebook,
  QuizCourse,
} from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { hoursFromNow } from '../assignments/testing.ts';
import { answersFor, insertQuiz, RIGHT, minutesFromNow, setStartedAt } from '../quizzes/testing.ts';
import { createExtensionWorld, type ExtensionWorld } from './testing.ts';

/** Per-student extensions: granted, audited, and obeyed everywhere the student's dates count. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const base = (w: ExtensionWorld) => `/api/Course/${w.course.id}/extensions/`;
const grant = (w: ExtensionWorld, body: Record<string, unknown>, token = w.tokens.editor) =>
  call(t, 'POST', base(w), { token, body: { reason: 'Illness (certificate seen)', ...body } });
const assignmentGrant = (w: ExtensionWorld, fields: Record<string, unknown> = {}, token = w.tokens.editor) =>
  grant(
    w,
    {
      kind: 'assignment',
      item_id: w.assignment.id,
      user_ids: [w.users.student.id],
      due_at: hoursFromNow(48).toISOString(),
      ...fields,
    },
    token,
  );
const submit = (w: ExtensionWorld, token: string) =>
  call(t, 'POST', '/api/Submission/Submit/', {
    token,
    body: {
      assignment_id: w.assignment.id,
      course_id: w.course.id,
      files: [{ filename: 'main.py', content: Buffer.from('print(1)\n').toString('base64') }],
    },
  });
const detail = async (w: ExtensionWorld, token: string) => {
  const res = await call(t, 'GET', `/api/Assignment/${w.assignment.id}/CourseSpecificDetail/`, {
    token,
    query: { course_id: String(w.course.id) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return AssignmentCourseDetail.parse(res.body);
};

describe('an assignment extension', () => {
  let w: ExtensionWorld;
  beforeAll(async () => {
    w = await createExtensionWorld(t);
  });

  it('lets the student submit after the course’s due date, on time by their own; not a classmate', async () => {
    expect((await submit(w, w.tokens.student)).json.code).toBe('closed');
    const due = hoursFromNow(48);
    const res = await assignmentGrant(w, { due_at: due.toISOString() });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const granted = ExtensionList.parse(res.body);
    expect(granted.results).toHaveLength(1);
    expect(granted.results[0]).toMatchObject({
      kind: 'assignment',
      item_id: w.assignment.id,
      item_title: 'Week 3: recursion',
      user: { id: w.users.student.id },
      due_at: due.toISOString(),
      late_until: null,
      reason: 'Illness (certificate seen)',
      granted_by: { id: w.users.editor.id },
    });

    const mine = await detail(w, w.tokens.student);
    expect(mine.course).toMatchObject({ due_at: due.toISOString(), late_until: null, extended: true });
    expect([mine.accepts_submissions, mine.is_late_period]).toEqual([true, false]);
    const theirs = await detail(w, w.tokens.classmate);
    expect([theirs.course.extended, theirs.accepts_submissions]).toEqual([false, false]);
    // The editor sees the course's dates.
    expect((await detail(w, w.tokens.editor)).course.extended).toBe(false);

    const accepted = await submit(w, w.tokens.student);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    expect(accepted.json.is_late).toBe(false);
    const refused = await submit(w, w.tokens.classmate);
    expect([refused.status, refused.json.code]).toEqual([403, 'closed']);
  });

  it('shows the student’s own dates in the course list and on the calendar', async () => {
    const list = AssignmentInCourseList.parse(
      (
        await call(t, 'GET', '/api/Assignment/CourseSpecific/', {
          token: w.tokens.student,
          query: { course_id: String(w.course.id) },
        })
      ).body,
    );
    expect(list.results[0]).toMatchObject({ extended: true, accepts_submissions: true });
    const calendarOf = async (token: string) =>
      Calendar.parse(
        (
          await call(t, 'GET', `/api/Event/${w.course.id}/`, {
            token,
            query: { from: hoursFromNow(-24).toISOString(), to: hoursFromNow(24 * 7).toISOString() },
          })
        ).body,
      ).results.filter((e) => e.kind === 'assignment_due');
    const [own] = await calendarOf(w.tokens.student);
    const [course] = await calendarOf(w.tokens.classmate);
    expect(Date.parse(own!.starts_at) - Date.parse(course!.starts_at)).toBeGreaterThan(40 * 3600_000);
  });

  it('puts the student’s own due date in their iCal feed', async () => {
    const feed = CalendarFeed.parse(
      (await call(t, 'GET', '/api/Calendar/feed/', { token: w.tokens.student })).body,
    );
    const text = (await t.app.inject({ method: 'GET', url: new URL(feed.url).pathname })).body;
    const events = new ICAL.Component(ICAL.parse(text))
      .getAllSubcomponents('vevent')
      .map((c) => new ICAL.Event(c))
      .filter((e) => e.summary.includes('Week 3'));
    const [ext] = ExtensionList.parse(
      (await call(t, 'GET', base(w), { token: w.tokens.editor })).body,
    ).results;
    // iCalendar writes whole seconds.
    const second = Math.floor(Date.parse(ext!.due_at!) / 1000) * 1000;
    expect(events.map((e) => e.startDate.toJSDate().getTime())).toEqual([second]);
  });

  it('accepts late work in the student’s own late period, marked late', async () => {
    await assignmentGrant(w, {
      due_at: hoursFromNow(-0.5).toISOString(),
      late_until: hoursFromNow(24).toISOString(),
    });
    const mine = await detail(w, w.tokens.student);
    expect([mine.accepts_submissions, mine.is_late_period]).toEqual([true, true]);
    const res = await submit(w, w.tokens.student);
    expect([res.status, res.json.is_late]).toEqual([201, true]);
  });

  it('marks the gradebook cell extended and not missing before the student’s own due date', async () => {
    const w2 = await createExtensionWorld(t);
    const cellsOf = async () => {
      const book = Gradebook.parse(
        (await call(t, 'GET', `/api/Course/${w2.course.id}/gradebook/`, { token: w2.tokens.editor })).body,
      );
      const column = book.columns.findIndex((c) => c.kind === 'assignment');
      expect(book.columns[column]!.item_id).toBe(w2.assignment.id);
      return Object.fromEntries(book.rows.map((r) => [r.user.id, r.cells[column]!]));
    };
    const before = await cellsOf();
    expect(before[w2.users.student.id]).toMatchObject({ missing: true, extended: false });
    await assignmentGrant(w2);
    const after = await cellsOf();
    expect(after[w2.users.student.id]).toMatchObject({ missing: false, extended: true });
    expect(after[w2.users.classmate.id]).toMatchObject({ missing: true, extended: false });
  });

  it('is taken away again: the course’s dates apply and the answer is closed', async () => {
    const w3 = await createExtensionWorld(t);
    await assignmentGrant(w3);
    const url = `${base(w3)}assignment/${w3.assignment.id}/${w3.users.student.id}/`;
    const revoke = (body?: object) => call(t, 'DELETE', url, { token: w3.tokens.editor, body });
    // A revocation needs a reason of its own, as a grant does.
    expect((await revoke()).status).toBe(400);
    expect((await revoke({ reason: '  ' })).status).toBe(400);
    expect((await revoke({ reason: 'Granted by mistake' })).status).toBe(204);
    expect((await revoke({ reason: 'Granted by mistake' })).status).toBe(404);
    expect((await detail(w3, w3.tokens.student)).course.extended).toBe(false);
    expect((await submit(w3, w3.tokens.student)).json.code).toBe('closed');
  });
});

describe('a quiz extension', () => {
  let w: ExtensionWorld;
  beforeAll(async () => {
    w = await createExtensionWorld(t);
  });
  const start = (token: string) =>
    call(t, 'POST', '/api/quiz-submissions/create/', { token, body: { quiz_course: w.quizCourse.id } });
  const submitQuiz = (token: string) =>
    call(t, 'POST', '/api/Submission/SubmitQuiz/', {
      token,
      body: { quiz_course: w.quizCourse.id, answers: answersFor(w.quizQuestions, RIGHT) },
    });
  const quizCourse = async (token: string) =>
    QuizCourse.parse((await call(t, 'GET', `/api/quiz-courses/${w.quizCourse.id}/`, { token })).body);

  it('opens a closed quiz for the student with a later close and extra minutes', async () => {
    expect((await start(w.tokens.student)).json.code).toBe('quiz_closed');
    const closes = minutesFromNow(120);
    const res = await grant(w, {
      kind: 'quiz',
      item_id: w.quiz.id,
      user_ids: [w.users.student.id],
      closes_at: closes.toISOString(),
      extra_minutes: 15,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(ExtensionList.parse(res.body).results[0]).toMatchObject({
      kind: 'quiz',
      item_id: w.quiz.id,
      closes_at: closes.toISOString(),
      extra_minutes: 15,
      time_limit_minutes: 30,
    });
    const mine = await quizCourse(w.tokens.student);
    expect(mine).toMatchObject({ state: 'open', extended: true, time_limit_minutes: 45 });
    expect((await quizCourse(w.tokens.classmate)).state).toBe('closed');

    const started = await start(w.tokens.student);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    // 40 minutes in: past the course's 30-minute limit, within the student's 45.
    await setStartedAt(t, Number(started.json.id), minutesFromNow(-40));
    const submitted = await submitQuiz(w.tokens.student);
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    expect((await start(w.tokens.classmate)).json.code).toBe('quiz_closed');
  });

  it('refuses extra minutes on a quiz without a time limit, and a grant that gives nothing', async () => {
    const nothing = await grant(w, { kind: 'quiz', item_id: w.quiz.id, user_ids: [w.users.classmate.id] });
    expect([nothing.status, Object.keys(nothing.json)]).toEqual([400, ['detail', 'code', 'closes_at']]);
    const untimed = await insertQuiz(t, { courses: [{ courseId: w.course.id }] });
    const extra = await grant(w, {
      kind: 'quiz',
      item_id: untimed.quiz.id,
      user_ids: [w.users.classmate.id],
      extra_minutes: 10,
    });
    expect([extra.status, Object.keys(extra.json)]).toEqual([400, ['detail', 'code', 'extra_minutes']]);
  });
});

describe('refusals and the audit', () => {
  let w: ExtensionWorld;
  beforeAll(async () => {
    w = await createExtensionWorld(t);
  });

  it('names the field of a bad date, a non-student, an unknown item', async () => {
    const early = await assignmentGrant(w, { due_at: hoursFromNow(-100).toISOString() });
    expect([early.status, early.json.code, Object.keys(early.json)]).toEqual([
      400,
      'invalid',
      ['detail', 'code', 'due_at'],
    ]);
    const cut = await assignmentGrant(w, {
      due_at: hoursFromNow(10).toISOString(),
      late_until: hoursFromNow(5).toISOString(),
    });
    expect(Object.keys(cut.json)).toContain('late_until');
    const stranger = await assignmentGrant(w, { user_ids: [w.users.student.id, w.users.otherEditor.id] });
    expect([stranger.status, stranger.json.code]).toEqual([400, 'not_students']);
    expect(stranger.json.user_ids).toEqual([`Not students of this course: ${w.users.otherEditor.id}.`]);
    const unknown = await assignmentGrant(w, { item_id: 2_000_000 });
    expect(unknown.status).toBe(404);
    const noReason = await assignmentGrant(w, { reason: '  ' });
    expect(noReason.status).toBe(400);
    // Nothing was granted by any of them.
    expect(ExtensionList.parse((await call(t, 'GET', base(w), { token: w.tokens.editor })).body).count).toBe(
      0,
    );
  });

  it('writes who granted, changed and revoked what, newest first', async () => {
    await assignmentGrant(w, { due_at: hoursFromNow(24).toISOString() });
    await assignmentGrant(w, { due_at: hoursFromNow(48).toISOString(), reason: 'Still ill' }, w.tokens.staff);
    await call(t, 'DELETE', `${base(w)}assignment/${w.assignment.id}/${w.users.student.id}/`, {
      token: w.tokens.editor,
      body: { reason: 'Recovered; back to the course’s date' },
    });
    const audit = ExtensionAuditPage.parse(
      (await call(t, 'GET', `${base(w)}audit/`, { token: w.tokens.editor })).body,
    );
    expect(audit.count).toBe(3);
    expect(audit.results.map((e) => [e.action, e.actor_email, e.reason])).toEqual([
      ['revoked', w.users.editor.email, 'Recovered; back to the course’s date'],
      ['changed', w.users.staff.email, 'Still ill'],
      ['granted', w.users.editor.email, 'Illness (certificate seen)'],
    ]);
    const [revoked, changed, granted] = audit.results;
    expect(granted!.before).toBeNull();
    expect(changed!.before).toEqual(granted!.after);
    expect(revoked!.after).toBeNull();
    expect(revoked).toMatchObject({ user_id: w.users.student.id, user_email: w.users.student.email });
  });
});
