import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssignmentCourseDetail, AssignmentInCourseList, TotalScore } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addEditor, addStudent, createCourse, createUser, tokenFor } from '../../../test/factories.ts';
import { submissions } from '../../db/schema-assignments.ts';
import { hoursFromNow, insertAssignment, insertSubmission, insertTestCase, upload } from './testing.ts';

describe('a course’s assignments: CourseSpecific, CourseSpecificDetail, total_score', () => {
  let t: TestApp;
  let course: { id: number };
  let other: { id: number };
  let users: { editor: { id: number }; student: { id: number }; classmate: { id: number } };
  let tok: { editor: string; student: string; outsider: string; staff: string };

  beforeAll(async () => {
    t = await createTestApp();
    course = await createCourse(t);
    other = await createCourse(t);
    const [editor, student, classmate, outsider, staff] = await Promise.all(
      [false, false, false, false, true].map((isStaff) => createUser(t, { isStaff })),
    );
    await addEditor(t, course.id, editor!.id);
    await addStudent(t, course.id, student!.id);
    await addStudent(t, course.id, classmate!.id);
    await addStudent(t, other.id, outsider!.id);
    users = { editor: editor!, student: student!, classmate: classmate! };
    tok = {
      editor: await tokenFor(t, editor!),
      student: await tokenFor(t, student!),
      outsider: await tokenFor(t, outsider!),
      staff: await tokenFor(t, staff!),
    };
  });
  afterAll(() => t.close());

  const courseList = (token: string, query: Record<string, string> = {}) =>
    call(t, 'GET', '/api/Assignment/CourseSpecific/', {
      token,
      query: { course_id: String(course.id), ...query },
    });

  it('lists opened assignments with the caller’s own figures, in one course', async () => {
    const a = await insertAssignment(t, {
      title: 'Week 1',
      courses: [{ courseId: course.id, dueAt: hoursFromNow(10) }],
    });
    await insertTestCase(t, a.id, { points: 2 });
    await insertTestCase(t, a.id, { points: 3 });
    const closed = await insertAssignment(t, {
      title: 'Week 0',
      courses: [
        {
          courseId: course.id,
          opensAt: hoursFromNow(-50),
          dueAt: hoursFromNow(-20),
          lateUntil: hoursFromNow(-10),
        },
      ],
    });
    await insertAssignment(t, {
      title: 'Week 2',
      courses: [{ courseId: course.id, opensAt: hoursFromNow(3) }],
    });
    const s = { assignmentId: a.id, courseId: course.id, userId: users.student.id };
    await insertSubmission(t, { ...s, score: 2, status: 'Completed' });
    const final = await insertSubmission(t, { ...s, score: 4, status: 'Completed', isFinal: true });
    await insertSubmission(t, { ...s, status: 'Scheduled', score: null });
    await insertSubmission(t, { ...s, userId: users.classmate.id, score: 5 });
    await insertSubmission(t, { ...s, userId: users.editor.id, score: 5, isReference: true });
    await insertSubmission(t, { ...s, userId: users.editor.id, score: 5 }); // an editor is not a student

    const mine = AssignmentInCourseList.parse((await courseList(tok.student)).body);
    expect(mine.results.map((r) => r.title)).toEqual(['Week 0', 'Week 1']);
    expect(mine.results[1]).toMatchObject({
      id: a.id,
      total_points: 5,
      test_case_count: 2,
      accepts_submissions: true,
      my_submission_count: 3,
      my_latest_status: 'Scheduled',
      // The latest is not graded yet: no score for its badge.
      my_latest_score: null,
      my_latest_max_score: null,
      my_best_score: 4,
      my_final_submission_id: final.id,
      submitted_students: null,
    });
    expect(mine.results[0]).toMatchObject({
      id: closed.id,
      accepts_submissions: false,
      my_submission_count: 0,
      my_latest_status: null,
      my_best_score: null,
    });

    const editors = AssignmentInCourseList.parse(
      (await courseList(tok.editor, { ordering: '-due_at' })).body,
    );
    expect(editors.results.map((r) => r.title)).toEqual(['Week 2', 'Week 1', 'Week 0']);
    const week1 = editors.results.find((r) => r.id === a.id)!;
    // The reference run does not count for the editor either.
    expect(week1).toMatchObject({ submitted_students: 2, my_submission_count: 1, my_latest_score: 5 });

    const searched = AssignmentInCourseList.parse((await courseList(tok.staff, { search: 'week 2' })).body);
    expect(searched.results.map((r) => r.title)).toEqual(['Week 2']);
    const byTitle = AssignmentInCourseList.parse((await courseList(tok.staff, { ordering: 'title' })).body);
    expect(byTitle).toMatchObject({ count: 3 });
  });

  it('answers 404 for a course the caller has no part in and 400 for bad queries', async () => {
    expect((await courseList(tok.outsider)).status).toBe(404);
    expect((await call(t, 'GET', '/api/Assignment/CourseSpecific/', { token: tok.student })).status).toBe(
      400,
    );
    const bad: Record<string, string>[] = [
      { course_id: 'x' },
      { ordering: 'points' },
      { search: 'x'.repeat(101) },
    ];
    for (const query of bad) {
      expect((await courseList(tok.student, query)).status, JSON.stringify(query)).toBe(400);
    }
    expect((await courseList(tok.student, { course_id: '999999' })).status).toBe(404);
  });

  it('gives the course’s dates, the late period and the attachments in CourseSpecificDetail', async () => {
    const a = await insertAssignment(t, {
      courses: [{ courseId: course.id, dueAt: hoursFromNow(-1), lateUntil: hoursFromNow(5) }],
    });
    const up = await upload(t, `/api/Assignment/${a.id}/${course.id}/FileUpload/`, tok.editor, [
      { filename: 'input.txt', content: '42\n' },
    ]);
    expect(up.status).toBe(201);
    const detail = (token: string, courseId: number | string = course.id) =>
      call(t, 'GET', `/api/Assignment/${a.id}/CourseSpecificDetail/`, {
        token,
        query: { course_id: String(courseId) },
      });
    const seen = AssignmentCourseDetail.parse((await detail(tok.student)).body);
    expect(seen).toMatchObject({ accepts_submissions: true, is_late_period: true, can_edit: false });
    expect(seen.assignment.view).toBe('student');
    expect(seen.course.course_id).toBe(course.id);
    expect(seen.files.map((f) => f.filename)).toEqual(['input.txt']);
    expect(seen.files[0]!.url).toMatch(/^\/api\/Download\//);
    const download = await call(t, 'GET', seen.files[0]!.url);
    expect(download.status).toBe(200);
    expect(download.body).toBe(42);

    const asEditor = AssignmentCourseDetail.parse((await detail(tok.editor)).body);
    expect(asEditor).toMatchObject({ can_edit: true });
    expect(asEditor.assignment.view).toBe('editor');

    expect((await detail(tok.student, other.id)).status).toBe(404);
    expect((await detail(tok.student, 'x')).status).toBe(400);
    expect(
      (await call(t, 'GET', `/api/Assignment/${a.id}/CourseSpecificDetail/`, { token: tok.student })).status,
    ).toBe(400);
    expect((await detail(tok.outsider)).status).toBe(404);
  });

  it('scores the final submission, else the best graded one, never reference runs', async () => {
    const a = await insertAssignment(t, { courses: [{ courseId: course.id }] });
    await insertTestCase(t, a.id, { points: 10 });
    const score = async (token: string) =>
      TotalScore.parse(
        (
          await call(t, 'GET', `/api/Assignment/${a.id}/total_score/`, {
            token,
            query: { course_id: String(course.id) },
          })
        ).body,
      );
    expect(await score(tok.student)).toEqual({
      assignment_id: a.id,
      course_id: course.id,
      total_points: 10,
      score: null,
      submission_id: null,
    });
    const s = { assignmentId: a.id, courseId: course.id, userId: users.student.id };
    await insertSubmission(t, { ...s, userId: users.editor.id, score: 10, isReference: true });
    await insertSubmission(t, { ...s, status: 'InternalError', score: null });
    const low = await insertSubmission(t, { ...s, score: 3 });
    const best = await insertSubmission(t, { ...s, score: 8 });
    await insertSubmission(t, { ...s, score: 8 });
    expect(await score(tok.student)).toMatchObject({ score: 8, submission_id: best.id });
    expect(await score(tok.editor)).toMatchObject({ score: null, submission_id: null });
    await t.ctx.db.update(submissions).set({ isFinal: true }).where(eq(submissions.id, low.id));
    expect(await score(tok.student)).toMatchObject({ score: 3, submission_id: low.id });
  });
});
