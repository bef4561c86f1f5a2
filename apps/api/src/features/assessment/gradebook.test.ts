import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Gradebook } from '@kadai/contracts';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { submissions } from '../../db/schema-assignments.ts';
import { addEditor, addStudent, createCourse, createUser, tokenFor } from '../../../test/factories.ts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { insertAssignment, insertGraded, insertQuiz, insertQuizSubmission } from './testing.ts';

/** The gradebook: one row per student, a column per assignment and quiz (docs/assessment.md). */
let t: TestApp;
let editorToken: string;
let studentToken: string;
let courseId: number;
let world: Awaited<ReturnType<typeof seed>>;

async function seed() {
  const course = await createCourse(t, { title: 'Algorithms' });
  const editor = await createUser(t);
  const [ann, bob, cho] = [
    await createUser(t, { lastName: 'Abe', firstName: 'Ann' }),
    await createUser(t, { lastName: 'Baba', firstName: 'Bob' }),
    await createUser(t, { lastName: 'Chiba', firstName: '千代' }),
  ];
  await addEditor(t, course.id, editor.id);
  for (const s of [ann, bob, cho]) await addStudent(t, course.id, s.id);
  const past = await insertAssignment(t, course.id, -2, [5, 5]);
  const future = await insertAssignment(t, course.id, 7, [10]);
  const quiz = await insertQuiz(t, course.id, { closesInDays: -1, scoresVisible: true, points: [2, 2] });
  // Ann: a final 6 and a better 10 that is not final → the final one counts; late.
  const final = await insertGraded(t, past, course.id, ann!.id, [3, 3], true);
  await t.ctx.db.update(submissions).set({ isLate: true }).where(eq(submissions.id, final.id));
  await insertGraded(t, past, course.id, ann!.id, [5, 5]);
  await insertQuizSubmission(t, quiz, ann!.id, [2, 0]);
  // Bob: two graded, no final → the best (7) counts; nothing for the quiz → missing.
  await insertGraded(t, past, course.id, bob!.id, [2, 2]);
  await insertGraded(t, past, course.id, bob!.id, [5, 2]);
  // 千代: nothing at all: missing twice, the future assignment is not missing yet.
  return { course, editor, ann: ann!, bob: bob!, cho: cho!, past, future, quiz };
}

beforeAll(async () => {
  t = await createTestApp();
  world = await seed();
  courseId = world.course.id;
  editorToken = await tokenFor(t, world.editor);
  studentToken = await tokenFor(t, world.ann);
});
afterAll(() => t.close());

describe('GET Course/{id}/gradebook/', () => {
  it('counts the final submission, else the best; flags late and missing; totals each row', async () => {
    const res = await call(t, 'GET', `/api/Course/${courseId}/gradebook/`, { token: editorToken });
    expect(res.status).toBe(200);
    const book = Gradebook.parse(res.body);
    // In order of due date: the past assignment (-2 days), the quiz (-1), the future assignment (+7).
    expect(book.columns.map((c) => [c.kind, c.id, c.max_score])).toEqual([
      ['assignment', world.past.id, 10],
      ['quiz', world.quiz.quizCourse.id, 4],
      ['assignment', world.future.id, 10],
    ]);
    expect(book.max_total).toBe(24);
    expect(book.rows.map((r) => r.user.last_name)).toEqual(['Abe', 'Baba', 'Chiba']);
    const [ann, bob, cho] = book.rows;
    expect(ann!.cells).toEqual([
      { score: 6, attempts: 2, late: true, missing: false, extended: false },
      { score: 2, attempts: 1, late: false, missing: false, extended: false },
      { score: null, attempts: 0, late: false, missing: false, extended: false },
    ]);
    expect(ann).toMatchObject({ total: 8, late: 1, missing: 0 });
    expect(bob!.cells.map((c) => [c.score, c.missing])).toEqual([
      [7, false],
      [null, true],
      [null, false],
    ]);
    expect(bob).toMatchObject({ total: 7, missing: 1 });
    expect(cho).toMatchObject({ total: 0, late: 0, missing: 2 });
  });

  it('is the editors’ and staff’s: a student of the course gets 403', async () => {
    const res = await call(t, 'GET', `/api/Course/${courseId}/gradebook/`, { token: studentToken });
    expect(res.status).toBe(403);
  });
});

describe('GET Course/{id}/gradebook/ of a larger course', () => {
  it('reads the cells in one value per kind, not a row per student and item', async () => {
    // 40 students × 6 assignments (two graded submissions each) and a quiz, in bulk SQL.
    const course = await createCourse(t, { title: 'Large' });
    await addEditor(t, course.id, world.editor.id);
    await t.database.query(
      `insert into users (email, first_name, last_name)
       select 'large-' || g || '@example.com', 'Student', lpad(g::text, 3, '0') from generate_series(1, 40) g`,
    );
    await t.database.query(
      `insert into course_students (course_id, user_id)
       select $1::int, id from users where email like 'large-%@example.com'`,
      [course.id],
    );
    const items = [];
    for (let i = 0; i < 6; i++) items.push((await insertAssignment(t, course.id, -i - 1, [5, 5])).id);
    await t.database.query(
      `insert into submissions (assignment_id, course_id, user_id, status, score, max_score, is_final, graded_at, created_at)
       select a.id, $1::int, cs.user_id, 'Completed', (cs.user_id + a.id + k) % 11, 10, k = 2, now(), now()
       from unnest($2::int[]) a(id), course_students cs, generate_series(1, 2) k where cs.course_id = $1::int`,
      [course.id, items],
    );
    const quiz = await insertQuiz(t, course.id, { closesInDays: -1, scoresVisible: true, points: [2, 2] });
    await t.database.query(
      `insert into quiz_submissions (quiz_course_id, user_id, started_at, submitted_at, score, max_score)
       select $1::int, user_id, now(), now(), 3, 4 from course_students where course_id = $2::int`,
      [quiz.quizCourse.id, course.id],
    );

    // PGlite hands each row to JavaScript at a cost per row and field: 12,000 cells of a course of 300
    // students were a second of a loaded box (issue 36). No query may return more rows than students.
    const execute = vi.spyOn(t.ctx.db, 'execute');
    const res = await call(t, 'GET', `/api/Course/${course.id}/gradebook/`, { token: editorToken });
    const rowCounts = await Promise.all(
      execute.mock.results.map(
        async (result) => z.object({ rows: z.array(z.unknown()) }).parse(await result.value).rows.length,
      ),
    );
    execute.mockRestore();
    expect(res.status).toBe(200);
    expect(rowCounts.length).toBeGreaterThan(0);
    expect(Math.max(...rowCounts)).toBeLessThanOrEqual(40);
    // The answer itself is whole: every student, every cell, the same totals as the scores.
    const book = Gradebook.parse(res.body);
    expect(book.rows).toHaveLength(40);
    const kinds = book.columns.map((c) => c.kind);
    expect(kinds.filter((kind) => kind === 'assignment')).toHaveLength(6);
    expect(kinds.filter((kind) => kind === 'quiz')).toHaveLength(1);
    for (const row of book.rows) {
      expect(row.cells.map((cell, i) => [cell.score !== null, cell.attempts, kinds[i]])).toEqual(
        kinds.map((kind) => [true, kind === 'quiz' ? 1 : 2, kind]),
      );
      expect(row.total).toBe(row.cells.reduce((sum, cell) => sum + (cell.score ?? 0), 0));
    }
  });
});

describe('GET Course/{id}/gradebook/csv/', () => {
  it('is a spreadsheet-ready CSV: BOM, CRLF, a numeric cell per column, names kept as text', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/Course/${courseId}/gradebook/csv/`,
      headers: { authorization: `Bearer ${editorToken}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain(`gradebook-course-${courseId}.csv`);
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const lines = res.body.slice(1).split('\r\n');
    expect(lines[0]).toBe(
      'student_id,email,last_name,first_name,' +
        `${world.past.title} (assignment /10),${world.quiz.quiz.title} (quiz /4),` +
        `${world.future.title} (assignment /10),total (/24),late,missing`,
    );
    expect(lines[3]).toBe(`${world.cho.id},${world.cho.email},Chiba,千代,,,,0,0,2`);
    expect(lines.at(-1)).toBe('');
  });
});
