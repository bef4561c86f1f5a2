import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuizSubmissionDetail, QuizSubmissionList } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addEditor, addStudent, createCourse, createUser, tokenFor } from '../../../test/factories.ts';
import {
  ALL_KINDS_POINTS,
  RIGHT,
  answersFor,
  insertAttempt,
  insertQuiz,
  minutesFromNow,
  setQuizCourse,
} from './testing.ts';

describe('quiz submissions: QuizSubmission/ and quiz-submissions/', () => {
  let t: TestApp;
  let course: { id: number };
  let foreign: { id: number };
  let made: Awaited<ReturnType<typeof insertQuiz>>;
  let quizCourseId: number;
  let submissionId: number;
  let ids: { student: number; classmate: number };
  let tok: { staff: string; editor: string; student: string; classmate: string; otherEditor: string };

  beforeAll(async () => {
    t = await createTestApp();
    course = await createCourse(t, { title: 'Python I' });
    foreign = await createCourse(t, { title: 'Elsewhere' });
    const [staff, editor, student, classmate, otherEditor] = await Promise.all(
      [true, false, false, false, false].map((isStaff) => createUser(t, { isStaff })),
    );
    await addEditor(t, course.id, editor!.id);
    await addEditor(t, foreign.id, otherEditor!.id);
    await addStudent(t, course.id, student!.id);
    await addStudent(t, course.id, classmate!.id);
    ids = { student: student!.id, classmate: classmate!.id };
    tok = {
      staff: await tokenFor(t, staff!),
      editor: await tokenFor(t, editor!),
      student: await tokenFor(t, student!),
      classmate: await tokenFor(t, classmate!),
      otherEditor: await tokenFor(t, otherEditor!),
    };
    made = await insertQuiz(t, { courses: [{ courseId: course.id }] });
    quizCourseId = made.quizCourseOf(course.id).id;
    const res = await call(t, 'POST', '/api/Submission/SubmitQuiz/', {
      token: tok.student,
      body: { quiz_course: quizCourseId, answers: answersFor(made.questions, RIGHT) },
    });
    submissionId = QuizSubmissionDetail.parse(res.body).id;
    await insertAttempt(t, { quizCourseId, userId: ids.classmate });
  });
  afterAll(() => t.close());

  const detail = (token: string, path = 'QuizSubmission') =>
    call(t, 'GET', `/api/${path}/${submissionId}/`, { token });

  describe('one submission', () => {
    it('shows the author their own, the course’s editors and staff every one, nobody else (404)', async () => {
      for (const path of ['QuizSubmission', 'quiz-submissions']) {
        expect((await detail(tok.student, path)).status).toBe(200);
        expect((await detail(tok.editor, path)).status).toBe(200);
        expect((await detail(tok.staff, path)).status).toBe(200);
        expect((await detail(tok.classmate, path)).status).toBe(404);
        expect((await detail(tok.otherEditor, path)).status).toBe(404);
      }
      expect((await call(t, 'GET', '/api/QuizSubmission/0/', { token: tok.staff })).status).toBe(404);
      expect((await call(t, 'GET', '/api/quiz-submissions/2000000000', { token: tok.staff })).status).toBe(
        404,
      );
    });

    it('hides the author’s score and the keys until their dates; editors see everything', async () => {
      await setQuizCourse(t, quizCourseId, { scoresVisibleAt: null, answersVisibleAt: null });
      const hidden = QuizSubmissionDetail.parse((await detail(tok.student)).body);
      expect(hidden).toMatchObject({
        score: null,
        max_score: ALL_KINDS_POINTS,
        scores_visible: false,
        answers_visible: false,
      });
      expect(hidden.answers.map((a) => [a.is_correct, a.points])).toEqual(Array(7).fill([null, null]));
      expect(hidden.answers.map((a) => a.answer)).toEqual(RIGHT);
      expect(hidden.questions.map((q) => q.view)).toEqual(Array(7).fill('student'));
      expect(JSON.stringify(hidden)).not.toContain('answer_key');

      const managed = QuizSubmissionDetail.parse((await detail(tok.editor)).body);
      expect(managed).toMatchObject({ score: ALL_KINDS_POINTS, scores_visible: true, answers_visible: true });
      expect(managed.questions.map((q) => q.view)).toEqual(Array(7).fill('editor'));
      expect(managed.answers.every((a) => a.is_correct === true)).toBe(true);

      await setQuizCourse(t, quizCourseId, { scoresVisibleAt: minutesFromNow(-1) });
      const scored = QuizSubmissionDetail.parse((await detail(tok.student)).body);
      expect(scored).toMatchObject({ score: ALL_KINDS_POINTS, scores_visible: true, answers_visible: false });
      expect(scored.answers[1]).toMatchObject({ is_correct: true, points: 2 });
      expect(scored.questions[0]!.view).toBe('student');

      await setQuizCourse(t, quizCourseId, { answersVisibleAt: minutesFromNow(-1) });
      const reviewed = QuizSubmissionDetail.parse((await detail(tok.student)).body);
      expect(reviewed.questions.map((q) => q.view)).toEqual(Array(7).fill('review'));
      expect(reviewed.questions[2]).toMatchObject({ answer_key: { correct: true } });
    });
  });

  describe('lists', () => {
    const list = async (token: string, path: string, query: Record<string, string> = {}) => {
      const res = await call(t, 'GET', path, { token, query });
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(200);
      return QuizSubmissionList.parse(res.body);
    };
    const authors = (l: QuizSubmissionList) => l.results.map((r) => [r.user.id, r.status]);

    it('QuizSubmission/?quiz_course and quiz-submissions/: own for students, the course’s for editors', async () => {
      const q = { quiz_course: String(quizCourseId) };
      expect(authors(await list(tok.student, '/api/QuizSubmission/', q))).toEqual([
        [ids.student, 'submitted'],
      ]);
      expect(authors(await list(tok.classmate, '/api/QuizSubmission/', q))).toEqual([
        [ids.classmate, 'in_progress'],
      ]);
      expect(authors(await list(tok.editor, '/api/QuizSubmission/', q))).toEqual([
        [ids.classmate, 'in_progress'],
        [ids.student, 'submitted'],
      ]);
      expect((await list(tok.otherEditor, '/api/QuizSubmission/', q)).count).toBe(0);
      expect((await list(tok.staff, '/api/quiz-submissions/', { quiz: String(made.quiz.id) })).count).toBe(2);
      expect(
        authors(
          await list(tok.editor, '/api/quiz-submissions/', {
            course: String(course.id),
            created_by: String(ids.student),
          }),
        ),
      ).toEqual([[ids.student, 'submitted']]);
      expect((await list(tok.staff, '/api/quiz-submissions/', { course: String(foreign.id) })).count).toBe(0);
      const page = await list(tok.editor, '/api/quiz-submissions/', { ...q, limit: '1', offset: '1' });
      expect(page).toMatchObject({ count: 2, limit: 1, offset: 1 });
      expect(authors(page)).toEqual([[ids.student, 'submitted']]);
      // An in-progress attempt has no score yet, but its max_score is the quiz's total.
      const inProgress = (await list(tok.classmate, '/api/quiz-submissions/')).results[0]!;
      expect(inProgress).toMatchObject({ score: null, max_score: ALL_KINDS_POINTS, submitted_at: null });
      const bad: Record<string, string>[] = [{ quiz_course: 'x' }, { created_by: '-1' }, { limit: '0' }];
      for (const query of bad) {
        expect((await call(t, 'GET', '/api/quiz-submissions/', { token: tok.staff, query })).status).toBe(
          400,
        );
      }
    });

    it('by course: members only; a student gets their own, another user’s list is 404', async () => {
      const byCourse = `/api/QuizSubmission/by-course/course/${course.id}/`;
      expect(authors(await list(tok.student, byCourse))).toEqual([[ids.student, 'submitted']]);
      expect((await list(tok.editor, byCourse)).count).toBe(2);
      expect((await call(t, 'GET', byCourse, { token: tok.otherEditor })).status).toBe(404);
      const ofClassmate = `${byCourse}user/${ids.classmate}/`;
      expect((await call(t, 'GET', ofClassmate, { token: tok.student })).status).toBe(404);
      expect(authors(await list(tok.classmate, ofClassmate))).toEqual([[ids.classmate, 'in_progress']]);
      expect(authors(await list(tok.staff, ofClassmate))).toEqual([[ids.classmate, 'in_progress']]);
      expect(authors(await list(tok.student, `${byCourse}user/${ids.student}/`))).toEqual([
        [ids.student, 'submitted'],
      ]);
      expect(
        (await call(t, 'GET', `/api/QuizSubmission/by-course/course/x/`, { token: tok.staff })).status,
      ).toBe(404);
    });
  });
});
