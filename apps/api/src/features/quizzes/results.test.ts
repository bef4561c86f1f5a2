import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuizResults } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import {
  addEditor,
  addStudent,
  createCourse,
  createUser,
  tokenFor,
  type TestUser,
} from '../../../test/factories.ts';
import { ALL_KINDS_POINTS, RIGHT, WRONG, answersFor, insertAttempt, insertQuiz } from './testing.ts';

describe('quiz results: quiz-courses/{id}/results/ and results/csv/', () => {
  let t: TestApp;
  let quizCourseId: number;
  let students: TestUser[];
  let tok: { staff: string; editor: string; student: string; otherEditor: string };

  beforeAll(async () => {
    t = await createTestApp();
    const course = await createCourse(t, { title: 'Statistics' });
    const other = await createCourse(t);
    const [staff, editor, otherEditor] = await Promise.all([
      createUser(t, { isStaff: true }),
      createUser(t),
      createUser(t),
    ]);
    await addEditor(t, course.id, editor.id);
    await addEditor(t, other.id, otherEditor.id);
    students = [];
    for (const [lastName, firstName] of [
      ['Aoki', 'Ai'],
      ['Baba', 'Ben'],
      ['Chiba', 'Chie'],
      ['=HYPERLINK("http://evil")', '@Dan'],
      ['Eto', 'Emi, "E"'],
    ]) {
      const user = await createUser(t, { lastName, firstName });
      await addStudent(t, course.id, user.id);
      students.push(user);
    }
    tok = {
      staff: await tokenFor(t, staff),
      editor: await tokenFor(t, editor),
      student: await tokenFor(t, students[0]!),
      otherEditor: await tokenFor(t, otherEditor),
    };
    const made = await insertQuiz(t, { title: 'Midterm', courses: [{ courseId: course.id }] });
    quizCourseId = made.quizCourseOf(course.id).id;
    const mixed = RIGHT.map((right, i) => (i % 2 === 0 ? right : WRONG[i]!));
    for (const [i, values] of [RIGHT, WRONG, mixed].entries()) {
      const res = await call(t, 'POST', '/api/Submission/SubmitQuiz/', {
        token: await tokenFor(t, students[i]!),
        body: { quiz_course: quizCourseId, answers: answersFor(made.questions, values) },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    // The fourth never started; the fifth started and did not submit.
    await insertAttempt(t, { quizCourseId, userId: students[4]!.id });
  });
  afterAll(() => t.close());

  it('gives editors the figures per student and per question', async () => {
    const res = await call(t, 'GET', `/api/quiz-courses/${quizCourseId}/results/`, { token: tok.editor });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = QuizResults.parse(res.body);
    expect(r).toMatchObject({
      student_count: 5,
      submitted_count: 3,
      max_score: ALL_KINDS_POINTS,
      mean_score: 5.6667, // (11 + 0 + 6) / 3
      median_score: 6,
    });
    const byStudent = new Map(r.students.map((s) => [s.user.id, [s.status, s.score]]));
    expect(students.map((s) => byStudent.get(s.id))).toEqual([
      ['submitted', 11],
      ['submitted', 0],
      ['submitted', 6],
      [null, null],
      ['in_progress', null],
    ]);
    const figures = r.questions.map((q) => [q.kind, q.answered, q.correct, q.mean_points, q.facility]);
    expect(figures).toEqual([
      ['single', 3, 2, 0.6667, 0.6667],
      ['multiple', 3, 1, 0.6667, 0.3333],
      ['true_false', 3, 2, 0.6667, 0.6667],
      ['short_text', 3, 1, 0.3333, 0.3333],
      ['short_text', 3, 2, 0.6667, 0.6667],
      ['numeric', 3, 1, 0.6667, 0.3333],
      ['ordering', 3, 2, 2, 0.6667],
    ]);
    const counts = (i: number) => r.questions[i]!.option_counts.map((o) => [o.option_id, o.count]);
    expect(counts(0)).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 0],
    ]);
    expect(counts(1)).toEqual([
      ['py', 3],
      ['html', 0],
      ['rs', 1],
      ['css', 0],
    ]);
    expect(counts(2)).toEqual([
      ['true', 2],
      ['false', 1],
    ]);
    expect(counts(5)).toEqual([]);
  });

  it('exports the same as CSV: BOM, one row per student, a column per question, formulas defused', async () => {
    const res = await call(t, 'GET', `/api/quiz-courses/${quizCourseId}/results/csv/`, { token: tok.staff });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(String(res.headers['content-disposition'])).toContain(
      'filename="Midterm_-_Statistics_-_quiz_results.csv"',
    );
    const text = String(res.body);
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'student_id,email,last_name,first_name,submission_id,status,started_at,submitted_at,score,max_score,q1,q2,q3,q4,q5,q6,q7',
    );
    expect(lines).toHaveLength(6);
    const rowOf = (user: TestUser) => lines.find((l) => l.startsWith(`${user.id},`))!;
    expect(rowOf(students[0]!).split(',').slice(-9)).toEqual(['11', '11', '1', '2', '1', '1', '1', '2', '3']);
    expect(rowOf(students[2]!).split(',').slice(-9)).toEqual(['6', '11', '1', '0', '1', '0', '1', '0', '3']);
    expect(rowOf(students[3]!)).toContain(`"'=HYPERLINK(""http://evil"")",'@Dan,,not_started,,,,11,,,,,,,`);
    expect(rowOf(students[4]!)).toContain(',"Emi, ""E""",');
    expect(rowOf(students[4]!)).toContain(',in_progress,');
  });

  it('is for editors of the course and staff only', async () => {
    for (const path of ['results/', 'results/csv/']) {
      const url = `/api/quiz-courses/${quizCourseId}/${path}`;
      expect((await call(t, 'GET', url, { token: tok.student })).status).toBe(403);
      expect((await call(t, 'GET', url, { token: tok.otherEditor })).status).toBe(404);
      expect((await call(t, 'GET', url)).status).toBe(401);
      expect(
        (await call(t, 'GET', `/api/quiz-courses/2000000000/${path}`, { token: tok.staff })).status,
      ).toBe(404);
    }
  });
});
