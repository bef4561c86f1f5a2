import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Calendar, CourseEvent } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addEditor, addStudent, createCourse, createUser, tokenFor } from '../../../test/factories.ts';
import { insertAssignment } from '../assignments/testing.ts';
import { hoursFromNow, insertEvent, insertQuizWindow } from './testing.ts';

const DAY = 24;

describe('course calendar', () => {
  let t: TestApp;
  let course: { id: number };
  let other: { id: number };
  let tok: { staff: string; editor: string; student: string; otherEditor: string };
  let ids: {
    event: number;
    otherEvent: number;
    opened: number;
    unopened: number;
    foreignAssignment: number;
    quiz: number;
    quizCourse: number;
    upcomingQuizCourse: number;
  };

  beforeAll(async () => {
    t = await createTestApp();
    course = await createCourse(t, { title: 'Python I' });
    other = await createCourse(t, { title: 'Databases' });
    const [staff, editor, student, otherEditor] = await Promise.all(
      [true, false, false, false].map((isStaff) => createUser(t, { isStaff })),
    );
    await addEditor(t, course.id, editor!.id);
    await addEditor(t, other.id, otherEditor!.id);
    await addStudent(t, course.id, student!.id);
    tok = {
      staff: await tokenFor(t, staff!),
      editor: await tokenFor(t, editor!),
      student: await tokenFor(t, student!),
      otherEditor: await tokenFor(t, otherEditor!),
    };
    const event = await insertEvent(t, {
      courseId: course.id,
      title: 'Lecture 1',
      location: 'Room 101',
      startsAt: hoursFromNow(2 * DAY),
      endsAt: hoursFromNow(2 * DAY + 1.5),
    });
    const otherEvent = await insertEvent(t, { courseId: other.id, title: 'Elsewhere' });
    const opened = await insertAssignment(t, {
      title: 'Opened',
      courses: [
        {
          courseId: course.id,
          opensAt: hoursFromNow(-DAY),
          dueAt: hoursFromNow(3 * DAY),
          lateUntil: hoursFromNow(4 * DAY),
        },
      ],
    });
    const unopened = await insertAssignment(t, {
      title: 'Not yet opened',
      courses: [{ courseId: course.id, opensAt: hoursFromNow(DAY), dueAt: hoursFromNow(5 * DAY) }],
    });
    const foreign = await insertAssignment(t, {
      title: 'Foreign',
      courses: [{ courseId: other.id, dueAt: hoursFromNow(3 * DAY) }],
    });
    const open = await insertQuizWindow(t, {
      courseId: course.id,
      title: 'Quiz 1',
      opensAt: hoursFromNow(-1),
      closesAt: hoursFromNow(DAY),
      timeLimitMinutes: 30,
    });
    const upcoming = await insertQuizWindow(t, {
      courseId: course.id,
      title: 'Quiz 2',
      opensAt: hoursFromNow(6 * DAY),
      closesAt: hoursFromNow(7 * DAY),
    });
    await insertQuizWindow(t, { courseId: other.id, title: 'Foreign quiz' });
    ids = {
      event: event.id,
      otherEvent: otherEvent.id,
      opened: opened.id,
      unopened: unopened.id,
      foreignAssignment: foreign.id,
      quiz: open.quiz.id,
      quizCourse: open.quizCourse.id,
      upcomingQuizCourse: upcoming.quizCourse.id,
    };
  });
  afterAll(() => t.close());

  const calendar = async (token: string, query: Record<string, string> = {}, courseId = course.id) => {
    const res = await call(t, 'GET', `/api/Event/${courseId}/`, { token, query });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return Calendar.parse(res.body);
  };

  describe('GET Event/{course_id}/', () => {
    it('shows a student the events, the deadlines of opened assignments and every quiz window', async () => {
      const result = await calendar(tok.student);
      expect(result.can_manage).toBe(false);
      expect(result.truncated).toBe(false);
      expect(result.results.map((e) => [e.source, e.kind, e.title])).toEqual([
        ['quiz', 'quiz_window', 'Quiz 1'],
        ['event', 'lecture', 'Lecture 1'],
        ['assignment', 'assignment_due', 'Opened'],
        ['assignment', 'assignment_late', 'Opened'],
        ['quiz', 'quiz_window', 'Quiz 2'],
      ]);
      const [quiz, event, due] = result.results;
      expect(quiz).toMatchObject({
        quiz_id: ids.quiz,
        quiz_course_id: ids.quizCourse,
        assignment_id: null,
        event_id: null,
        time_limit_minutes: 30,
        course_id: course.id,
      });
      expect(event).toMatchObject({ event_id: ids.event, location: 'Room 101', all_day: false });
      expect(due).toMatchObject({ assignment_id: ids.opened, quiz_id: null });
      expect(due!.starts_at).toBe(due!.ends_at);
      expect(new Set(result.results.map((e) => e.key)).size).toBe(result.results.length);
    });

    it('shows editors and staff every assignment, opened or not', async () => {
      for (const token of [tok.editor, tok.staff]) {
        const result = await calendar(token);
        expect(result.can_manage).toBe(true);
        const titles = result.results.filter((e) => e.source === 'assignment').map((e) => e.title);
        expect(titles).toEqual(['Opened', 'Opened', 'Not yet opened']);
        expect(result.results.some((e) => e.title.startsWith('Foreign') || e.title === 'Elsewhere')).toBe(
          false,
        );
      }
    });

    it('returns what overlaps the range asked for', async () => {
      const from = hoursFromNow(2 * DAY + 1).toISOString();
      const to = hoursFromNow(3 * DAY + 1).toISOString();
      const result = await calendar(tok.student, { from, to });
      expect(result.from).toBe(new Date(from).toISOString());
      expect(result.to).toBe(new Date(to).toISOString());
      // The lecture is still running at `from`; the due date is inside; the late cut-off is after `to`.
      expect(result.results.map((e) => e.kind)).toEqual(['lecture', 'assignment_due']);
      const late = await calendar(tok.student, {
        from: hoursFromNow(3.5 * DAY).toISOString(),
        to: hoursFromNow(4.5 * DAY).toISOString(),
      });
      expect(late.results.map((e) => e.kind)).toEqual(['assignment_late']);
    });

    it('defaults to a window around now, or the default length from the one end given', async () => {
      const now = Date.now();
      const fallback = await calendar(tok.student);
      expect(Date.parse(fallback.from)).toBeLessThan(now - 30 * 86_400_000);
      expect(Date.parse(fallback.to)).toBeGreaterThan(now + 60 * 86_400_000);
      const from = '2030-01-01T00:00:00Z';
      const onlyFrom = await calendar(tok.student, { from });
      expect(onlyFrom.from).toBe('2030-01-01T00:00:00.000Z');
      expect(Date.parse(onlyFrom.to) - Date.parse(onlyFrom.from)).toBe(93 * 86_400_000);
      expect(onlyFrom.results).toEqual([]);
      const onlyTo = await calendar(tok.student, { to: '2030-01-01T09:00:00+09:00' });
      expect(onlyTo.to).toBe('2030-01-01T00:00:00.000Z');
    });

    it('places all-day events by date, whatever the reader’s time zone', async () => {
      const allDay = await insertEvent(t, {
        courseId: course.id,
        title: 'Sports day',
        allDay: true,
        startsAt: new Date('2031-03-10T00:00:00Z'),
        endsAt: new Date('2031-03-10T00:00:00Z'),
      });
      // 10 March in Tokyo (UTC+9) and in New York (UTC-4) as a reader there asks for it.
      for (const [from, to] of [
        ['2031-03-09T15:00:00Z', '2031-03-10T15:00:00Z'],
        ['2031-03-10T04:00:00Z', '2031-03-11T04:00:00Z'],
      ]) {
        const result = await calendar(tok.student, { from: from!, to: to! });
        expect(result.results.map((e) => e.event_id)).toEqual([allDay.id]);
        expect(result.results[0]).toMatchObject({ all_day: true, starts_at: '2031-03-10T00:00:00.000Z' });
      }
    });

    it('refuses bad ranges with field errors', async () => {
      const cases: [Record<string, string>, string][] = [
        [{ from: 'yesterday' }, 'from'],
        [{ to: '2026-13-01T00:00:00Z' }, 'to'],
        [{ from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' }, 'to'],
        [{ from: '2026-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, 'to'],
        [{ from: '2026-01-01T00:00:00Z', to: '2027-02-06T00:00:00Z' }, 'to'],
      ];
      for (const [query, field] of cases) {
        const res = await call(t, 'GET', `/api/Event/${course.id}/`, { token: tok.student, query });
        expect(res.status, JSON.stringify(query)).toBe(400);
        expect(res.json[field], JSON.stringify(res.body)).toBeInstanceOf(Array);
      }
      // 400 days is the most one call may ask for.
      await calendar(tok.student, { from: '2026-01-01T00:00:00Z', to: '2027-02-05T00:00:00Z' });
    });

    it('answers 404 for a course the caller has no part in, an unknown course and a malformed id', async () => {
      for (const url of [
        `/api/Event/${other.id}/`,
        '/api/Event/999999/',
        '/api/Event/abc/',
        '/api/Event/0/',
      ]) {
        const res = await call(t, 'GET', url, { token: tok.student });
        expect(res.status, url).toBe(404);
        expect(res.json.code).toBe('not_found');
      }
    });
  });

  describe('event management', () => {
    const body = (fields: Record<string, unknown> = {}) => ({
      title: '  Midterm exam ',
      kind: 'exam',
      starts_at: '2030-06-01T01:00:00Z',
      ends_at: '2030-06-01T02:30:00Z',
      location: 'Hall A',
      ...fields,
    });
    const create = async (fields: Record<string, unknown> = {}, token = tok.editor) => {
      const res = await call(t, 'POST', `/api/Event/${course.id}/`, { token, body: body(fields) });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return CourseEvent.parse(res.body);
    };

    it('creates an event with defaults, reads it back, and puts it on the calendar', async () => {
      const created = await create({ location: undefined });
      expect(created).toMatchObject({
        course_id: course.id,
        title: 'Midterm exam',
        description: '',
        kind: 'exam',
        all_day: false,
        location: '',
        starts_at: '2030-06-01T01:00:00.000Z',
      });
      expect(created.created_by).not.toBeNull();
      const read = await call(t, 'GET', `/api/Event/${course.id}/${created.id}/`, { token: tok.student });
      expect(read.body).toEqual(created);
      const onCalendar = await calendar(tok.student, {
        from: '2030-06-01T00:00:00Z',
        to: '2030-06-02T00:00:00Z',
      });
      expect(onCalendar.results.map((e) => e.event_id)).toEqual([created.id]);
    });

    it('creates all-day events of one or more days', async () => {
      const created = await create({
        all_day: true,
        starts_at: '2030-07-01T00:00:00Z',
        ends_at: '2030-07-03T00:00:00+00:00',
      });
      expect(created).toMatchObject({ all_day: true, ends_at: '2030-07-03T00:00:00.000Z' });
    });

    it('refuses bad input with a message per field', async () => {
      const cases: [unknown, string][] = [
        [{}, 'title'],
        [body({ title: '   ' }), 'title'],
        [body({ title: 'x'.repeat(201) }), 'title'],
        [body({ title: 5 }), 'title'],
        [body({ kind: 'party' }), 'kind'],
        [body({ starts_at: 'tomorrow' }), 'starts_at'],
        [body({ starts_at: undefined }), 'starts_at'],
        [body({ ends_at: '2030-06-01T00:59:59Z' }), 'ends_at'],
        [body({ ends_at: '2031-06-03T00:00:00Z' }), 'ends_at'],
        [body({ all_day: true }), 'starts_at'],
        [
          body({ all_day: true, starts_at: '2030-06-01T00:00:00Z', ends_at: '2030-06-01T09:00:00Z' }),
          'ends_at',
        ],
        [body({ all_day: 'yes' }), 'all_day'],
        [body({ location: 'x'.repeat(201) }), 'location'],
        [body({ description: 'x'.repeat(10_001) }), 'description'],
        [body({ course_id: other.id }), 'non_field_errors'],
      ];
      for (const [input, field] of cases) {
        const res = await call(t, 'POST', `/api/Event/${course.id}/`, { token: tok.editor, body: input });
        expect(res.status, JSON.stringify(input)).toBe(400);
        expect(res.json.code).toBe('invalid');
        expect(res.json[field], `${field}: ${JSON.stringify(res.body)}`).toBeInstanceOf(Array);
      }
      const notJson = await call(t, 'POST', `/api/Event/${course.id}/`, {
        token: tok.editor,
        body: '{"title":',
      });
      expect(notJson.status).toBe(400);
    });

    it('checks the stored times merged with a PATCH, and needs every field for PUT', async () => {
      const created = await create();
      const url = `/api/Event/${course.id}/${created.id}/`;
      const before = await call(t, 'PATCH', url, {
        token: tok.editor,
        body: { ends_at: '2030-05-01T00:00:00Z' },
      });
      expect(before.status).toBe(400);
      expect(before.json.ends_at).toEqual(['The end must not be before the start.']);
      const allDay = await call(t, 'PATCH', url, { token: tok.editor, body: { all_day: true } });
      expect(allDay.status).toBe(400);
      expect(allDay.json.starts_at).toBeInstanceOf(Array);
      const partialPut = await call(t, 'PUT', url, { token: tok.editor, body: { title: 'Only a title' } });
      expect(partialPut.status).toBe(400);
      expect(partialPut.json.kind).toBeInstanceOf(Array);

      const patched = await call(t, 'PATCH', url, {
        token: tok.staff,
        body: { location: 'Room 2', kind: 'other' },
      });
      expect(patched.status).toBe(200);
      expect(patched.json).toMatchObject({ location: 'Room 2', kind: 'other', title: 'Midterm exam' });
      const unchanged = await call(t, 'PATCH', url, { token: tok.editor, body: {} });
      expect(unchanged.json).toMatchObject({ code: 'nothing_to_change' });
      const replaced = await call(t, 'PUT', url, {
        token: tok.editor,
        body: { ...body(), title: 'Final exam', description: 'Bring a pen.', all_day: false },
      });
      expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
      expect(replaced.json).toMatchObject({ title: 'Final exam', description: 'Bring a pen.', kind: 'exam' });
    });

    it('answers 404 for an event of another course, an unknown event or a malformed id', async () => {
      const urls = [
        `/api/Event/${course.id}/${ids.otherEvent}/`,
        `/api/Event/${other.id}/${ids.event}/`,
        `/api/Event/${course.id}/999999/`,
        `/api/Event/${course.id}/x/`,
      ];
      for (const url of urls) {
        for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
          const res = await call(t, method, url, {
            token: tok.editor,
            body: method === 'PATCH' ? { title: 'Hijacked' } : undefined,
          });
          expect(res.status, `${method} ${url}`).toBe(404);
        }
      }
      // An editor of the other course cannot reach this course's event through their own course either.
      const viaOwn = await call(t, 'DELETE', `/api/Event/${other.id}/${ids.event}/`, {
        token: tok.otherEditor,
      });
      expect(viaOwn.status).toBe(404);
    });

    it('deletes an event: it is gone from the calendar', async () => {
      const created = await create({ starts_at: '2030-08-01T01:00:00Z', ends_at: '2030-08-01T02:00:00Z' });
      const url = `/api/Event/${course.id}/${created.id}/`;
      expect((await call(t, 'DELETE', url, { token: tok.student })).status).toBe(403);
      expect((await call(t, 'DELETE', url, { token: tok.editor })).status).toBe(204);
      expect((await call(t, 'DELETE', url, { token: tok.editor })).status).toBe(404);
      expect((await call(t, 'GET', url, { token: tok.editor })).status).toBe(404);
    });

    it('lets a student do nothing but read (403, with nothing changed)', async () => {
      const created = await create();
      const url = `/api/Event/${course.id}/${created.id}/`;
      const post = await call(t, 'POST', `/api/Event/${course.id}/`, { token: tok.student, body: body() });
      expect(post.status).toBe(403);
      const patch = await call(t, 'PATCH', url, { token: tok.student, body: { title: 'Mine now' } });
      expect(patch.status).toBe(403);
      const read = await call(t, 'GET', url, { token: tok.student });
      expect(read.json.title).toBe('Midterm exam');
    });
  });
});
