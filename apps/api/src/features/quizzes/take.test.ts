import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuizContent, QuizSubmission, QuizSubmissionDetail } from '@kadai/contracts';
import { eq } from 'drizzle-orm';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addEditor, addStudent, createCourse, createUser, tokenFor } from '../../../test/factories.ts';
import { quizAnswers, quizSubmissions } from '../../db/schema-quizzes.ts';
import {
  ALL_KINDS_POINTS,
  RIGHT,
  WRONG,
  answersFor,
  insertAttempt,
  insertQuiz,
  minutesFromNow,
  setQuizCourse,
  setStartedAt,
  type QuizCourseDates,
} from './testing.ts';

describe('taking a quiz: quiz-submissions/create/, QuizContent, Submission/SubmitQuiz/', () => {
  let t: TestApp;
  let course: { id: number };
  let editorToken: string;
  let staffToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    course = await createCourse(t, { title: 'Quizzing 101' });
    const editor = await createUser(t);
    await addEditor(t, course.id, editor.id);
    editorToken = await tokenFor(t, editor);
    staffToken = await tokenFor(t, await createUser(t, { isStaff: true }));
  });
  afterAll(() => t.close());

  const student = async () => {
    const user = await createUser(t);
    await addStudent(t, course.id, user.id);
    return { user, token: await tokenFor(t, user) };
  };
  /** A quiz of every kind in the course; dates relative to now, in minutes. */
  const quiz = async (dates: Omit<QuizCourseDates, 'courseId'> = {}) => {
    const made = await insertQuiz(t, { courses: [{ courseId: course.id, ...dates }] });
    return { ...made, quizCourse: made.quizCourseOf(course.id) };
  };
  type Made = Awaited<ReturnType<typeof quiz>>;
  const submit = (m: Made, token: string, answers: unknown = answersFor(m.questions, RIGHT)) =>
    call(t, 'POST', '/api/Submission/SubmitQuiz/', {
      token,
      body: { quiz_course: m.quizCourse.id, answers },
    });
  const start = (m: Made, token: string) =>
    call(t, 'POST', '/api/quiz-submissions/create/', { token, body: { quiz_course: m.quizCourse.id } });
  const content = (m: Made, token: string) =>
    call(t, 'GET', `/api/Quiz/${m.quiz.id}/QuizContent/`, { token, query: { course_id: String(course.id) } });

  describe('SubmitQuiz', () => {
    it('scores every kind at once and stores the answers with the submission', async () => {
      const m = await quiz({ scoresVisibleAt: minutesFromNow(-1) });
      const s = await student();
      const answers = answersFor(m.questions, [...RIGHT.slice(0, 4), ...WRONG.slice(4)]);
      const res = await submit(m, s.token, answers);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const detail = QuizSubmissionDetail.parse(res.body);
      expect(detail).toMatchObject({
        status: 'submitted',
        score: 5,
        max_score: ALL_KINDS_POINTS,
        scores_visible: true,
      });
      expect(detail.answers.map((a) => [a.is_correct, a.points])).toEqual([
        [true, 1],
        [true, 2],
        [true, 1],
        [true, 1],
        [false, 0],
        [false, 0],
        [false, 0],
      ]);
      // Answers not visible yet: student views, no keys or explanations anywhere in the answer.
      expect(detail.questions.every((q) => q.view === 'student')).toBe(true);
      expect(JSON.stringify(res.body)).not.toContain('answer_key');
      expect(JSON.stringify(res.body)).not.toContain('2 + 2 = 4.');
      const [row] = await t.ctx.db.select().from(quizSubmissions).where(eq(quizSubmissions.id, detail.id));
      expect(row).toMatchObject({ score: 5, maxScore: ALL_KINDS_POINTS, userId: s.user.id });
      expect(await t.ctx.db.$count(quizAnswers, eq(quizAnswers.submissionId, detail.id))).toBe(7);
    });

    it('hides the score until scores_visible_at, the keys until answers_visible_at', async () => {
      const hidden = await quiz();
      const s = await student();
      const res = await submit(hidden, s.token);
      const detail = QuizSubmissionDetail.parse(res.body);
      expect(detail.score).toBeNull();
      expect(detail.answers.every((a) => a.is_correct === null && a.points === null)).toBe(true);

      const open = await quiz({ scoresVisibleAt: minutesFromNow(-1), answersVisibleAt: minutesFromNow(-1) });
      const reviewed = QuizSubmissionDetail.parse((await submit(open, s.token)).body);
      expect(reviewed.score).toBe(ALL_KINDS_POINTS);
      expect(reviewed.questions.every((q) => q.view === 'review')).toBe(true);
      expect(reviewed.questions[0]).toMatchObject({
        answer_key: { correct: 'b' },
        explanation: '2 + 2 = 4.',
      });
    });

    it('refuses a submission with a question unanswered, with the spec’s message', async () => {
      const m = await quiz();
      const s = await student();
      for (const answers of [
        answersFor(m.questions, RIGHT).slice(1),
        answersFor(m.questions, [null, ...RIGHT.slice(1)]),
        answersFor(m.questions, ['  ', ...RIGHT.slice(1)]),
        answersFor(m.questions, [...RIGHT.slice(0, 6), []]),
        [],
      ]) {
        const res = await submit(m, s.token, answers);
        expect(res.status).toBe(400);
        expect(res.json).toMatchObject({
          code: 'unanswered',
          detail: 'Please answer all questions before submitting.',
        });
      }
      const res = await submit(m, s.token, answersFor(m.questions, [null, ...RIGHT.slice(1)]));
      expect(res.json.unanswered).toEqual([String(m.questions[0]!.id)]);
      expect(await t.ctx.db.$count(quizSubmissions, eq(quizSubmissions.userId, s.user.id))).toBe(0);
    });

    it('refuses answers of the wrong type, naming the question', async () => {
      const m = await quiz();
      const s = await student();
      const numeric = m.questions[5]!;
      const res = await submit(
        m,
        s.token,
        answersFor(m.questions, [...RIGHT.slice(0, 5), '3.14', RIGHT[6]!]),
      );
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('invalid');
      expect(res.json.detail).toContain(`question 6 (id ${numeric.id})`);
      expect(res.json[`answers.${numeric.id}`]).toEqual(['Expected a number.']);
      const notAnOption = await submit(m, s.token, answersFor(m.questions, ['zzz', ...RIGHT.slice(1)]));
      expect(notAnOption.json).toMatchObject({
        code: 'invalid',
        [`answers.${m.questions[0]!.id}`]: ['Not one of the options.'],
      });
    });

    it('refuses an answer to a question of another quiz, and malformed bodies', async () => {
      const m = await quiz();
      const other = await quiz();
      const s = await student();
      const foreign = [...answersFor(m.questions, RIGHT), { question: other.questions[0]!.id, answer: 'b' }];
      const res = await submit(m, s.token, foreign);
      expect(res.status).toBe(400);
      expect(res.json.detail).toBe(`Not a question of this quiz: ${other.questions[0]!.id}.`);
      const twice = [...answersFor(m.questions, RIGHT), { question: m.questions[0]!.id, answer: 'b' }];
      expect((await submit(m, s.token, twice)).status).toBe(400);
      expect((await submit(m, s.token, 'everything')).status).toBe(400);
      const extra = await call(t, 'POST', '/api/Submission/SubmitQuiz/', {
        token: s.token,
        body: { quiz_course: m.quizCourse.id, answers: [], score: 100 },
      });
      expect(extra.status).toBe(400);
      const missing = await call(t, 'POST', '/api/Submission/SubmitQuiz/', {
        token: s.token,
        body: { quiz_course: 2_000_000_000, answers: [] },
      });
      expect(missing.status).toBe(404);
    });

    it('refuses answers to questions replaced while the student was answering (400, the new ones count)', async () => {
      const m = await quiz();
      const s = await student();
      expect((await content(m, s.token)).status).toBe(200);
      const replaced = await call(t, 'PATCH', `/api/Quiz/${m.quiz.id}/`, {
        token: staffToken,
        body: { questions: [{ kind: 'true_false', prompt: 'Still here?', answer_key: { correct: true } }] },
      });
      expect(replaced.status).toBe(200);
      const stale = await submit(m, s.token);
      expect(stale.status).toBe(400);
      expect(String(stale.json.detail)).toContain('Not a question of this quiz');
      const fresh = QuizContent.parse((await content(m, s.token)).body);
      expect(fresh.questions.map((q) => q.prompt)).toEqual(['Still here?']);
      const ok = await submit(m, s.token, [{ question: fresh.questions[0]!.id, answer: true }]);
      expect(ok.status).toBe(201);
    });

    it('accepts one submission per student: the second gets 409', async () => {
      const m = await quiz();
      const s = await student();
      expect((await submit(m, s.token)).status).toBe(201);
      const again = await submit(m, s.token, answersFor(m.questions, WRONG));
      expect(again.status).toBe(409);
      expect(again.json).toMatchObject({ code: 'already_submitted', detail: 'Only allow submitting once.' });
      expect((await start(m, s.token)).json.code).toBe('already_submitted');
    });

    it('gives exactly one 201 and one 409 to two submissions sent at the same moment', async () => {
      for (const timed of [false, true]) {
        const m = await quiz({ timeLimitMinutes: timed ? 30 : null });
        const s = await student();
        if (timed) expect((await start(m, s.token)).status).toBe(201);
        const results = await Promise.all([
          submit(m, s.token),
          submit(m, s.token, answersFor(m.questions, WRONG)),
        ]);
        expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
        expect(results.find((r) => r.status === 409)!.json.code).toBe('already_submitted');
        const rows = await t.ctx.db
          .select()
          .from(quizSubmissions)
          .where(eq(quizSubmissions.userId, s.user.id));
        expect(rows).toHaveLength(1);
        expect(await t.ctx.db.$count(quizAnswers, eq(quizAnswers.submissionId, rows[0]!.id))).toBe(7);
        const winner = QuizSubmissionDetail.parse(results.find((r) => r.status === 201)!.body);
        expect(rows[0]!.score).toBe(winner.answers[0]!.answer === 'b' ? ALL_KINDS_POINTS : 0);
      }
      // Many students at once, each sending three: exactly one accepted per student.
      const m = await quiz();
      const students = await Promise.all(Array.from({ length: 10 }, () => student()));
      const statuses = await Promise.all(
        students.map(async (s) =>
          (await Promise.all([1, 2, 3].map(() => submit(m, s.token)))).map((r) => r.status),
        ),
      );
      for (const perStudent of statuses) expect(perStudent.sort()).toEqual([201, 409, 409]);
    });

    it('accepts nothing before opening (403 quiz_not_open)', async () => {
      const m = await quiz({ opensAt: minutesFromNow(10), closesAt: minutesFromNow(60) });
      const s = await student();
      for (const res of [await submit(m, s.token), await start(m, s.token), await content(m, s.token)]) {
        expect(res.status).toBe(403);
        expect(res.json.code).toBe('quiz_not_open');
      }
    });

    it('accepts nothing after closing plus the grace period (403 quiz_closed)', async () => {
      const s = await student();
      const inGrace = await quiz({ opensAt: minutesFromNow(-60), closesAt: new Date(Date.now() - 10_000) });
      expect((await submit(inGrace, s.token)).status).toBe(201);
      const closed = await quiz({ opensAt: minutesFromNow(-60), closesAt: minutesFromNow(-1) });
      const res = await submit(closed, s.token);
      expect(res.status).toBe(403);
      expect(res.json).toMatchObject({ code: 'quiz_closed', detail: 'This quiz is closed.' });
      expect((await start(closed, s.token)).json.code).toBe('quiz_closed');
    });

    it('accepts nothing after the time limit plus the grace period (403 time_limit_exceeded)', async () => {
      const m = await quiz({ timeLimitMinutes: 20 });
      const late = await student();
      const started = QuizSubmission.parse((await start(m, late.token)).body);
      await setStartedAt(t, started.id, minutesFromNow(-21));
      const res = await submit(m, late.token);
      expect(res.status).toBe(403);
      expect(res.json.code).toBe('time_limit_exceeded');
      expect((await content(m, late.token)).json.code).toBe('time_limit_exceeded');

      const inGrace = await student();
      const attempt = QuizSubmission.parse((await start(m, inGrace.token)).body);
      await setStartedAt(t, attempt.id, new Date(Date.now() - 20 * 60_000 - 10_000));
      expect((await submit(m, inGrace.token)).status).toBe(201);
    });

    it('lets only students of the course take a quiz (editors and staff 403, outsiders 404)', async () => {
      const m = await quiz();
      for (const token of [editorToken, staffToken]) {
        expect((await submit(m, token)).status).toBe(403);
        expect((await start(m, token)).status).toBe(403);
      }
      const outsider = await tokenFor(t, await createUser(t));
      expect((await submit(m, outsider)).status).toBe(404);
      expect((await start(m, outsider)).status).toBe(404);
    });
  });

  describe('quiz-submissions/create/', () => {
    it('starts an attempt once: 201, then 200 with the same attempt; the deadline follows the time limit', async () => {
      const m = await quiz({ timeLimitMinutes: 15, closesAt: minutesFromNow(60) });
      const s = await student();
      const first = await start(m, s.token);
      expect(first.status).toBe(201);
      const attempt = QuizSubmission.parse(first.body);
      expect(attempt).toMatchObject({ status: 'in_progress', submitted_at: null, score: null });
      const limit = Date.parse(attempt.deadline) - Date.parse(attempt.started_at);
      expect(limit).toBe(15 * 60_000);
      const second = await start(m, s.token);
      expect(second.status).toBe(200);
      expect(QuizSubmission.parse(second.body).id).toBe(attempt.id);
      const both = await Promise.all([start(await quiz(), s.token), start(await quiz(), s.token)]);
      expect(both.map((r) => r.status)).toEqual([201, 201]);
    });

    it('ends the time limit at the closing time when that comes first', async () => {
      const m = await quiz({ timeLimitMinutes: 120, closesAt: minutesFromNow(30) });
      const s = await student();
      const attempt = QuizSubmission.parse((await start(m, s.token)).body);
      expect(attempt.deadline).toBe(m.quizCourse.closesAt.toISOString());
    });

    it('answers two starts at once with one attempt', async () => {
      const m = await quiz({ timeLimitMinutes: 10 });
      const s = await student();
      const results = await Promise.all([start(m, s.token), start(m, s.token)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 201]);
      expect(new Set(results.map((r) => r.json.id)).size).toBe(1);
    });
  });

  describe('QuizContent for a student', () => {
    it('gives student views (shuffled per student, never keys) while open', async () => {
      const m = await quiz({ answersVisibleAt: minutesFromNow(-5) });
      const [a, b] = [await student(), await student()];
      const seen = QuizContent.parse((await content(m, a.token)).body);
      expect(seen.questions.map((q) => q.view)).toEqual(Array(7).fill('student'));
      const text = JSON.stringify(seen);
      expect(text).not.toContain('answer_key');
      expect(text).not.toContain('explanation');
      expect(seen.my_submission).toBeNull();
      const again = QuizContent.parse((await content(m, a.token)).body);
      expect(again.questions).toEqual(seen.questions);
      const order = (c: QuizContent) => c.questions.map((q) => q.options.map((o) => o.id).join()).join('|');
      const orders = new Set([order(seen)]);
      orders.add(order(QuizContent.parse((await content(m, b.token)).body)));
      for (let i = 0; i < 4; i++)
        orders.add(order(QuizContent.parse((await content(m, (await student()).token)).body)));
      expect(orders.size).toBeGreaterThan(1);
    });

    it('needs a start for a timed quiz (403 quiz_not_started), then shows the deadline', async () => {
      const m = await quiz({ timeLimitMinutes: 30 });
      const s = await student();
      const before = await content(m, s.token);
      expect(before.status).toBe(403);
      expect(before.json.code).toBe('quiz_not_started');
      await start(m, s.token);
      const after = QuizContent.parse((await content(m, s.token)).body);
      expect(after.my_submission).toMatchObject({ status: 'in_progress' });
    });

    it('refuses a student asking for the answers early (403 answers_not_visible)', async () => {
      const m = await quiz({ answersVisibleAt: minutesFromNow(60) });
      const s = await student();
      expect((await submit(m, s.token)).status).toBe(201);
      const early = await content(m, s.token);
      expect(early.status).toBe(403);
      expect(early.json.code).toBe('answers_not_visible');
      expect(JSON.stringify(early.body)).not.toContain('answer_key');

      await setQuizCourse(t, m.quizCourse.id, { answersVisibleAt: minutesFromNow(-1) });
      const review = QuizContent.parse((await content(m, s.token)).body);
      expect(review.questions.map((q) => q.view)).toEqual(Array(7).fill('review'));
      expect(review.questions[6]).toMatchObject({ answer_key: { order: ['parse', 'plan', 'run'] } });
    });

    it('shows nothing of a closed quiz to a student who did not submit, even once review opens', async () => {
      const m = await quiz({
        opensAt: minutesFromNow(-60),
        closesAt: minutesFromNow(-5),
        answersVisibleAt: minutesFromNow(-1),
      });
      const s = await student();
      await insertAttempt(t, {
        quizCourseId: m.quizCourse.id,
        userId: s.user.id,
        startedAt: minutesFromNow(-30),
      });
      const res = await content(m, s.token);
      expect(res.status).toBe(403);
      expect(res.json.code).toBe('answers_not_visible');
    });

    it('gives editors and staff the editor views at any time', async () => {
      const m = await quiz({ opensAt: minutesFromNow(60), closesAt: minutesFromNow(120) });
      for (const token of [editorToken, staffToken]) {
        const seen = QuizContent.parse((await content(m, token)).body);
        expect(seen.questions.map((q) => q.view)).toEqual(Array(7).fill('editor'));
        expect(seen.questions[0]).toMatchObject({
          answer_key: { correct: 'b' },
          options: [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
        });
      }
    });
  });
});
