import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuizCourse, QuizCourseList, QuizInCourse, QuizInCourseList } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addEditor, addStudent, createCourse, createUser, tokenFor } from '../../../test/factories.ts';
import { insertAttempt, insertQuiz, minutesFromNow } from './testing.ts';

describe('quiz courses: quiz-courses/, Quiz/CourseSpecific/, CourseSpecificDetail', () => {
  let t: TestApp;
  let course: { id: number };
  let second: { id: number };
  let foreign: { id: number };
  let ids: { editor: number; student: number; classmate: number };
  let tok: {
    staff: string;
    editor: string;
    student: string;
    classmate: string;
    otherEditor: string;
    outsider: string;
  };

  beforeAll(async () => {
    t = await createTestApp();
    course = await createCourse(t, { title: 'Python I' });
    second = await createCourse(t, { title: 'Python II' });
    foreign = await createCourse(t, { title: 'Secret Seminar' });
    const [staff, editor, student, classmate, otherEditor, outsider] = await Promise.all(
      [true, false, false, false, false, false].map((isStaff) => createUser(t, { isStaff })),
    );
    await addEditor(t, course.id, editor!.id);
    await addEditor(t, second.id, editor!.id);
    await addEditor(t, foreign.id, otherEditor!.id);
    await addStudent(t, course.id, student!.id);
    await addStudent(t, course.id, classmate!.id);
    ids = { editor: editor!.id, student: student!.id, classmate: classmate!.id };
    tok = {
      staff: await tokenFor(t, staff!),
      editor: await tokenFor(t, editor!),
      student: await tokenFor(t, student!),
      classmate: await tokenFor(t, classmate!),
      otherEditor: await tokenFor(t, otherEditor!),
      outsider: await tokenFor(t, outsider!),
    };
  });
  afterAll(() => t.close());

  const dates = (opens = -60, closes = 60) => ({
    opens_at: minutesFromNow(opens).toISOString(),
    closes_at: minutesFromNow(closes).toISOString(),
  });

  describe('POST, PATCH, DELETE quiz-courses/', () => {
    it('gives a quiz to another course the caller edits, once', async () => {
      const made = await insertQuiz(t, { createdBy: ids.editor, courses: [{ courseId: course.id }] });
      const body = { quiz: made.quiz.id, course: second.id, ...dates(), time_limit_minutes: 30 };
      const res = await call(t, 'POST', '/api/quiz-courses/', { token: tok.editor, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(QuizCourse.parse(res.body)).toMatchObject({
        quiz_id: made.quiz.id,
        course_id: second.id,
        course_title: 'Python II',
        time_limit_minutes: 30,
        scores_visible_at: null,
        answers_visible_at: null,
        state: 'open',
      });
      const again = await call(t, 'POST', '/api/quiz-courses/', { token: tok.editor, body });
      expect(again.status).toBe(409);
      expect(again.json.code).toBe('already_given');
    });

    it('refuses courses the caller does not edit, quizzes they cannot see, and bad dates', async () => {
      const made = await insertQuiz(t, { createdBy: ids.editor, courses: [{ courseId: course.id }] });
      const post = (token: string, body: Record<string, unknown>) =>
        call(t, 'POST', '/api/quiz-courses/', {
          token,
          body: { quiz: made.quiz.id, course: second.id, ...dates(), ...body },
        });
      expect((await post(tok.editor, { course: foreign.id })).status).toBe(403);
      expect((await post(tok.otherEditor, { course: foreign.id })).status).toBe(404);
      expect((await post(tok.student, {})).status).toBe(403);
      expect((await post(tok.staff, { course: 999_999 })).status).toBe(400);
      const backwards = await post(tok.editor, dates(60, -60));
      expect(backwards.status).toBe(400);
      expect(backwards.json.closes_at).toBeDefined();
      expect((await post(tok.editor, { time_limit_minutes: 0 })).status).toBe(400);
    });

    it('changes dates for editors of the course and staff; checks the merged window', async () => {
      const made = await insertQuiz(t, { courses: [{ courseId: course.id }] });
      const id = made.quizCourseOf(course.id).id;
      const patch = (token: string, body: Record<string, unknown>) =>
        call(t, 'PATCH', `/api/quiz-courses/${id}/`, { token, body });
      const visible = minutesFromNow(-1).toISOString();
      const res = await patch(tok.editor, { scores_visible_at: visible, time_limit_minutes: null });
      expect(res.status).toBe(200);
      expect(QuizCourse.parse(res.body)).toMatchObject({
        scores_visible_at: visible,
        time_limit_minutes: null,
      });
      const closes = await patch(tok.staff, { closes_at: minutesFromNow(-120).toISOString() });
      expect(closes.status).toBe(400);
      expect(closes.json.closes_at).toEqual(['The closing time must be after the opening time.']);
      expect((await patch(tok.student, { scores_visible_at: null })).status).toBe(403);
      expect((await patch(tok.otherEditor, { scores_visible_at: null })).status).toBe(404);
      expect((await patch(tok.editor, { opens_at: 'tomorrow' })).status).toBe(400);
      const read = await call(t, 'GET', `/api/quiz-courses/${id}/`, { token: tok.student });
      expect(QuizCourse.parse(read.body).scores_visible_at).toBe(visible);
    });

    it('removes a quiz from a course: editors until someone started, staff always', async () => {
      const made = await insertQuiz(t, { courses: [{ courseId: course.id }, { courseId: second.id }] });
      const first = made.quizCourseOf(course.id).id;
      const other = made.quizCourseOf(second.id).id;
      await insertAttempt(t, { quizCourseId: first, userId: ids.student });
      expect((await call(t, 'DELETE', `/api/quiz-courses/${first}/`, { token: tok.student })).status).toBe(
        403,
      );
      const refused = await call(t, 'DELETE', `/api/quiz-courses/${first}/`, { token: tok.editor });
      expect(refused.status).toBe(409);
      expect(refused.json.code).toBe('has_submissions');
      expect((await call(t, 'DELETE', `/api/quiz-courses/${other}/`, { token: tok.editor })).status).toBe(
        204,
      );
      expect((await call(t, 'DELETE', `/api/quiz-courses/${first}/`, { token: tok.staff })).status).toBe(204);
      expect((await call(t, 'GET', `/api/quiz-courses/${first}/`, { token: tok.staff })).status).toBe(404);
    });
  });

  describe('GET quiz-courses/', () => {
    it('lists the quiz courses of the caller’s courses (staff: all), by course, ordered and paged', async () => {
      const lone = await createCourse(t, { title: 'Lone' });
      await addStudent(t, lone.id, ids.classmate);
      const early = await insertQuiz(t, { courses: [{ courseId: lone.id, opensAt: minutesFromNow(-300) }] });
      const late = await insertQuiz(t, { courses: [{ courseId: lone.id, opensAt: minutesFromNow(-100) }] });
      const list = async (token: string, query: Record<string, string>) => {
        const res = await call(t, 'GET', '/api/quiz-courses/', {
          token,
          query: { course: String(lone.id), ...query },
        });
        expect(res.status).toBe(200);
        return QuizCourseList.parse(res.body);
      };
      expect((await list(tok.classmate, {})).results.map((r) => r.quiz_id)).toEqual([
        early.quiz.id,
        late.quiz.id,
      ]);
      expect((await list(tok.staff, { ordering: '-opens_at' })).results.map((r) => r.quiz_id)).toEqual([
        late.quiz.id,
        early.quiz.id,
      ]);
      expect((await list(tok.student, {})).count).toBe(0);
      const page = await list(tok.staff, { limit: '1', offset: '1' });
      expect(page).toMatchObject({ count: 2, limit: 1, offset: 1 });
      expect(
        (await call(t, 'GET', '/api/quiz-courses/', { token: tok.staff, query: { ordering: 'title' } }))
          .status,
      ).toBe(400);
    });
  });

  describe('GET Quiz/CourseSpecific/ and CourseSpecificDetail', () => {
    it('shows students every quiz of the course, upcoming included, with their own attempt', async () => {
      const c = await createCourse(t, { title: 'Specific' });
      await addStudent(t, c.id, ids.student);
      await addStudent(t, c.id, ids.classmate);
      await addEditor(t, c.id, ids.editor);
      const upcoming = await insertQuiz(t, {
        title: 'B upcoming',
        courses: [{ courseId: c.id, opensAt: minutesFromNow(60), closesAt: minutesFromNow(120) }],
      });
      const open = await insertQuiz(t, {
        title: 'A open',
        courses: [{ courseId: c.id, closesAt: minutesFromNow(30), scoresVisibleAt: minutesFromNow(-1) }],
      });
      const closed = await insertQuiz(t, {
        title: 'C closed',
        courses: [{ courseId: c.id, opensAt: minutesFromNow(-120), closesAt: minutesFromNow(-60) }],
      });
      await insertAttempt(t, {
        quizCourseId: open.quizCourseOf(c.id).id,
        userId: ids.student,
        submittedAt: new Date(),
        score: 7,
      });
      await insertAttempt(t, {
        quizCourseId: closed.quizCourseOf(c.id).id,
        userId: ids.classmate,
        submittedAt: new Date(),
      });
      const list = async (token: string, query: Record<string, string> = {}) => {
        const res = await call(t, 'GET', '/api/Quiz/CourseSpecific/', {
          token,
          query: { course_id: String(c.id), ...query },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return QuizInCourseList.parse(res.body).results;
      };
      const mine = await list(tok.student);
      expect(mine.map((r) => [r.title, r.quiz_course.state, r.my_submission?.status ?? null])).toEqual([
        ['C closed', 'closed', null],
        ['A open', 'open', 'submitted'],
        ['B upcoming', 'upcoming', null],
      ]);
      expect(mine[1]).toMatchObject({
        scores_visible: true,
        answers_visible: false,
        can_edit: false,
        submitted_students: null,
      });
      expect(mine[1]!.my_submission!.score).toBe(7);
      expect((await list(tok.student, { hide_submitted: 'true' })).map((r) => r.title)).toEqual([
        'C closed',
        'B upcoming',
      ]);
      expect((await list(tok.student, { search: 'open', ordering: 'title' })).map((r) => r.title)).toEqual([
        'A open',
      ]);
      const edited = await list(tok.editor, { ordering: '-title' });
      expect(edited.map((r) => [r.title, r.submitted_students, r.can_edit])).toEqual([
        ['C closed', 1, true],
        ['B upcoming', 0, true],
        ['A open', 1, true],
      ]);
      expect(
        (
          await call(t, 'GET', '/api/Quiz/CourseSpecific/', {
            token: tok.outsider,
            query: { course_id: String(c.id) },
          })
        ).status,
      ).toBe(404);
      expect(
        (await call(t, 'GET', '/api/Quiz/CourseSpecific/', { token: tok.student, query: { course_id: 'x' } }))
          .status,
      ).toBe(400);
      expect(
        (
          await call(t, 'GET', '/api/Quiz/CourseSpecific/', {
            token: tok.student,
            query: { course_id: String(c.id), hide_submitted: 'yes' },
          })
        ).status,
      ).toBe(400);

      const detail = async (token: string, quizId: number, courseId = c.id) =>
        call(t, 'GET', `/api/Quiz/${quizId}/CourseSpecificDetail/`, {
          token,
          query: { course_id: String(courseId) },
        });
      const seen = QuizInCourse.parse((await detail(tok.student, open.quiz.id)).body);
      expect(seen).toMatchObject({
        title: 'A open',
        question_count: 7,
        my_submission: { status: 'submitted', score: 7 },
      });
      expect(QuizInCourse.parse((await detail(tok.editor, closed.quiz.id)).body).submitted_students).toBe(1);
      expect((await detail(tok.outsider, open.quiz.id)).status).toBe(404);
      expect((await detail(tok.student, open.quiz.id, foreign.id)).status).toBe(404);
      expect((await detail(tok.student, upcoming.quiz.id)).status).toBe(200);
    });
  });
});
