import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Quiz, QuizList } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addEditor, addStudent, createCourse, createUser, tokenFor } from '../../../test/factories.ts';
import { ALL_KINDS, ALL_KINDS_POINTS, insertAttempt, insertQuiz, minutesFromNow } from './testing.ts';

describe('quizzes: Quiz/ and quizzes/', () => {
  let t: TestApp;
  let course: { id: number };
  let second: { id: number }; // the editor edits it too
  let foreign: { id: number }; // edited by someone else
  let ids: { editor: number; student: number };
  let tok: { staff: string; editor: string; student: string; otherEditor: string; outsider: string };

  beforeAll(async () => {
    t = await createTestApp();
    course = await createCourse(t, { title: 'Python I' });
    second = await createCourse(t, { title: 'Python II' });
    foreign = await createCourse(t, { title: 'Secret Seminar' });
    const [staff, editor, student, otherEditor, outsider] = await Promise.all(
      [true, false, false, false, false].map((isStaff) => createUser(t, { isStaff })),
    );
    await addEditor(t, course.id, editor!.id);
    await addEditor(t, second.id, editor!.id);
    await addEditor(t, foreign.id, otherEditor!.id);
    await addStudent(t, course.id, student!.id);
    ids = { editor: editor!.id, student: student!.id };
    tok = {
      staff: await tokenFor(t, staff!),
      editor: await tokenFor(t, editor!),
      student: await tokenFor(t, student!),
      otherEditor: await tokenFor(t, otherEditor!),
      outsider: await tokenFor(t, outsider!),
    };
  });
  afterAll(() => t.close());

  const window = (courseId: number, opens = -60, closes = 60, extra: Record<string, unknown> = {}) => ({
    course_id: courseId,
    opens_at: minutesFromNow(opens).toISOString(),
    closes_at: minutesFromNow(closes).toISOString(),
    ...extra,
  });
  const create = async (body: Record<string, unknown>, token = tok.editor) => {
    const res = await call(t, 'POST', '/api/Quiz/', { token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return Quiz.parse(res.body);
  };
  const valid = (extra: Record<string, unknown> = {}) => ({
    title: 'Week 1',
    questions: ALL_KINDS,
    courses: [window(course.id)],
    ...extra,
  });

  describe('POST Quiz/', () => {
    it('creates a quiz with its questions and courses (editor view)', async () => {
      const created = await create(
        valid({ title: '  Week 1  ', courses: [window(course.id, -60, 60, { time_limit_minutes: 20 })] }),
      );
      expect(created).toMatchObject({
        view: 'editor',
        title: 'Week 1',
        description: '',
        created_by: ids.editor,
        question_count: 7,
        total_points: ALL_KINDS_POINTS,
        submission_count: 0,
        courses: [{ course_id: course.id, course_title: 'Python I', time_limit_minutes: 20, state: 'open' }],
      });
      if (created.view !== 'editor') throw new Error('editor view expected');
      expect(created.questions.map((q) => [q.position, q.kind, q.points])).toEqual([
        [0, 'single', 1],
        [1, 'multiple', 2],
        [2, 'true_false', 1],
        [3, 'short_text', 1],
        [4, 'short_text', 1],
        [5, 'numeric', 2],
        [6, 'ordering', 3],
      ]);
      expect(created.questions[0]).toMatchObject({ shuffle_options: true, explanation: '2 + 2 = 4.' });
      const read = await call(t, 'GET', `/api/Quiz/${created.id}/`, { token: tok.editor });
      expect(read.body).toEqual(created);
      expect((await call(t, 'GET', `/api/quizzes/${created.id}/`, { token: tok.editor })).body).toEqual(
        created,
      );
    });

    it('refuses bad input with field errors', async () => {
      const cases: [unknown, string][] = [
        [{ ...valid(), title: '' }, 'title'],
        [{ ...valid(), questions: [] }, 'questions'],
        [{ ...valid(), courses: [] }, 'courses'],
        [{ ...valid(), courses: [window(course.id), window(course.id)] }, 'courses'],
        [{ ...valid(), courses: [window(course.id, 60, -60)] }, 'courses.0.closes_at'],
        [{ ...valid(), questions: [{ kind: 'essay', prompt: 'p', answer_key: {} }] }, 'questions.0.kind'],
        [
          { ...valid(), questions: [{ ...(ALL_KINDS[0] as object), answer_key: { correct: 'z' } }] },
          'questions.0.answer_key',
        ],
        [
          {
            ...valid(),
            questions: [{ kind: 'numeric', prompt: 'p', answer_key: { value: 1, tolerance: -1 } }],
          },
          'questions.0.answer_key.tolerance',
        ],
        [{ ...valid(), extra: 1 }, 'non_field_errors'],
      ];
      for (const [body, field] of cases) {
        const res = await call(t, 'POST', '/api/Quiz/', { token: tok.editor, body });
        expect(res.status, field).toBe(400);
        expect(Object.keys(res.json), field).toContain(field);
      }
    });

    it('needs editor rights on every course listed (staff: every existing course)', async () => {
      const res = await call(t, 'POST', '/api/Quiz/', {
        token: tok.editor,
        body: valid({ courses: [window(course.id), window(foreign.id)] }),
      });
      expect(res.status).toBe(403);
      expect(res.json.courses).toBeDefined();
      expect((await call(t, 'POST', '/api/Quiz/', { token: tok.student, body: valid() })).status).toBe(403);
      const missing = await call(t, 'POST', '/api/Quiz/', {
        token: tok.staff,
        body: valid({ courses: [window(999_999)] }),
      });
      expect(missing.status).toBe(400);
      await create(valid({ courses: [window(foreign.id)] }), tok.staff);
    });
  });

  describe('GET Quiz/{id}/', () => {
    it('shows students the student view of quizzes of their courses, upcoming ones too; others 404', async () => {
      const made = await insertQuiz(t, {
        courses: [
          { courseId: course.id, opensAt: minutesFromNow(60), closesAt: minutesFromNow(120) },
          { courseId: foreign.id },
        ],
      });
      const res = await call(t, 'GET', `/api/Quiz/${made.quiz.id}/`, { token: tok.student });
      expect(res.status).toBe(200);
      const seen = Quiz.parse(res.body);
      expect(seen).toMatchObject({ view: 'student', question_count: 7, total_points: ALL_KINDS_POINTS });
      expect(seen.courses.map((c) => [c.course_id, c.state])).toEqual([[course.id, 'upcoming']]);
      expect(JSON.stringify(res.body)).not.toContain('answer_key');
      expect((await call(t, 'GET', `/api/Quiz/${made.quiz.id}/`, { token: tok.outsider })).status).toBe(404);
      const managed = Quiz.parse(
        (await call(t, 'GET', `/api/Quiz/${made.quiz.id}/`, { token: tok.editor })).body,
      );
      expect(managed.view).toBe('editor');
      expect(managed.courses).toHaveLength(2);
      expect((await call(t, 'GET', '/api/Quiz/0/', { token: tok.editor })).status).toBe(404);
      expect((await call(t, 'GET', '/api/Quiz/abc/', { token: tok.editor })).status).toBe(404);
    });

    it('lets the author manage a quiz even without editing any of its courses', async () => {
      const made = await insertQuiz(t, { createdBy: ids.student, courses: [{ courseId: foreign.id }] });
      const seen = Quiz.parse(
        (await call(t, 'GET', `/api/Quiz/${made.quiz.id}/`, { token: tok.student })).body,
      );
      expect(seen.view).toBe('editor');
    });
  });

  describe('PUT, PATCH, DELETE Quiz/{id}/', () => {
    it('replaces the questions until someone starts, then refuses with 409 (other fields still change)', async () => {
      const created = await create(valid());
      const replaced = await call(t, 'PUT', `/api/Quiz/${created.id}/`, {
        token: tok.editor,
        body: { title: 'Week 1 (v2)', description: 'Now shorter.', questions: ALL_KINDS.slice(0, 2) },
      });
      expect(replaced.status).toBe(200);
      expect(Quiz.parse(replaced.body)).toMatchObject({
        title: 'Week 1 (v2)',
        question_count: 2,
        total_points: 3,
      });

      const quizCourseId = created.courses[0]!.id;
      await insertAttempt(t, { quizCourseId, userId: ids.student });
      const locked = await call(t, 'PATCH', `/api/Quiz/${created.id}/`, {
        token: tok.editor,
        body: { questions: ALL_KINDS },
      });
      expect(locked.status).toBe(409);
      expect(locked.json.code).toBe('questions_locked');
      const put = await call(t, 'PUT', `/api/Quiz/${created.id}/`, {
        token: tok.staff,
        body: { title: 'x', description: '', questions: ALL_KINDS },
      });
      expect(put.status).toBe(409);
      const renamed = await call(t, 'PATCH', `/api/Quiz/${created.id}/`, {
        token: tok.editor,
        body: { title: 'Week 1 (final)' },
      });
      expect(renamed.status).toBe(200);
      expect(Quiz.parse(renamed.body)).toMatchObject({
        title: 'Week 1 (final)',
        question_count: 2,
        submission_count: 1,
      });
    });

    it('refuses students (403) and outsiders (404) and bad questions (400)', async () => {
      const created = await create(valid());
      const patch = (token: string, body: unknown) =>
        call(t, 'PATCH', `/api/Quiz/${created.id}/`, { token, body });
      expect((await patch(tok.student, { title: 'Mine' })).status).toBe(403);
      expect((await patch(tok.otherEditor, { title: 'Mine' })).status).toBe(404);
      const bad = await patch(tok.editor, {
        questions: [
          {
            kind: 'ordering',
            prompt: 'p',
            options: [
              { id: 'a', text: 'A' },
              { id: 'b', text: 'B' },
            ],
            answer_key: { order: ['a', 'a'] },
          },
        ],
      });
      expect(bad.status).toBe(400);
      expect(bad.json['questions.0.answer_key']).toBeDefined();
    });

    it('deletes: editors before anyone started, staff always; not in courses the caller does not edit', async () => {
      const fresh = await create(valid());
      expect((await call(t, 'DELETE', `/api/Quiz/${fresh.id}/`, { token: tok.student })).status).toBe(403);
      expect((await call(t, 'DELETE', `/api/Quiz/${fresh.id}/`, { token: tok.editor })).status).toBe(204);
      expect((await call(t, 'GET', `/api/Quiz/${fresh.id}/`, { token: tok.editor })).status).toBe(404);

      const taken = await create(valid());
      await insertAttempt(t, {
        quizCourseId: taken.courses[0]!.id,
        userId: ids.student,
        submittedAt: new Date(),
      });
      const refused = await call(t, 'DELETE', `/api/Quiz/${taken.id}/`, { token: tok.editor });
      expect(refused.status).toBe(409);
      expect(refused.json.code).toBe('has_submissions');
      expect((await call(t, 'DELETE', `/api/Quiz/${taken.id}/`, { token: tok.staff })).status).toBe(204);

      const shared = await insertQuiz(t, {
        createdBy: ids.editor,
        courses: [{ courseId: course.id }, { courseId: foreign.id }],
      });
      expect((await call(t, 'DELETE', `/api/Quiz/${shared.quiz.id}/`, { token: tok.editor })).status).toBe(
        403,
      );
    });
  });

  describe('GET Quiz/ and quizzes/', () => {
    it('lists what the caller may see, filtered by courses and title, ordered and paged', async () => {
      const mine = await insertQuiz(t, { title: 'Listing alpha', courses: [{ courseId: second.id }] });
      const theirs = await insertQuiz(t, { title: 'Listing beta', courses: [{ courseId: foreign.id }] });
      const both = await insertQuiz(t, {
        title: 'Listing gamma',
        courses: [{ courseId: course.id }, { courseId: foreign.id }],
      });
      const titles = async (token: string, query: Record<string, string>, path = '/api/Quiz/') => {
        const res = await call(t, 'GET', path, { token, query: { search: 'Listing', ...query } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return QuizList.parse(res.body).results.map((q) => q.title);
      };
      expect(await titles(tok.editor, { ordering: 'title' })).toEqual(['Listing alpha', 'Listing gamma']);
      expect(await titles(tok.otherEditor, { ordering: '-title' })).toEqual([
        'Listing gamma',
        'Listing beta',
      ]);
      expect(await titles(tok.student, {})).toEqual(['Listing gamma']);
      expect(await titles(tok.staff, { ordering: 'id' }, '/api/quizzes/')).toEqual([
        'Listing alpha',
        'Listing beta',
        'Listing gamma',
      ]);
      expect(await titles(tok.staff, { courses: `${foreign.id}`, ordering: 'title' })).toEqual([
        'Listing beta',
        'Listing gamma',
      ]);
      // A student filtering by a course they do not study finds nothing there.
      expect(await titles(tok.student, { courses: `${foreign.id}` })).toEqual([]);
      expect(await titles(tok.editor, { courses: `${course.id},${second.id}`, ordering: 'id' })).toEqual([
        'Listing alpha',
        'Listing gamma',
      ]);
      const page = QuizList.parse(
        (
          await call(t, 'GET', '/api/quizzes/', {
            token: tok.staff,
            query: { search: 'Listing', limit: '1', offset: '1', ordering: 'id' },
          })
        ).body,
      );
      expect(page).toMatchObject({ count: 3, limit: 1, offset: 1 });
      expect(page.results.map((q) => q.id)).toEqual([theirs.quiz.id]);
      const past = QuizList.parse(
        (await call(t, 'GET', '/api/Quiz/', { token: tok.staff, query: { search: 'Listing', offset: '10' } }))
          .body,
      );
      expect(past).toMatchObject({ count: 3, results: [] });
      expect([mine.quiz.id, both.quiz.id]).toHaveLength(2);
    });

    it('refuses bad queries', async () => {
      const bad: Record<string, string>[] = [
        { courses: 'a,b' },
        { courses: '0' },
        { ordering: 'score' },
        { limit: '101' },
      ];
      for (const query of bad) {
        expect((await call(t, 'GET', '/api/Quiz/', { token: tok.editor, query })).status).toBe(400);
      }
    });
  });
});
