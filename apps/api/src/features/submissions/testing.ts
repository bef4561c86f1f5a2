import { and, eq } from 'drizzle-orm';
import { SubmissionDetail } from '@kadai/contracts';
import { call, type TestApp } from '../../../test/harness.ts';
import { addEditor, addStudent, createCourse, createUser, tokenFor } from '../../../test/factories.ts';
import { assignmentCourses, assignments, evaluations, submissionFiles } from '../../db/schema-assignments.ts';
import { insertAssignment, insertSubmission, insertTestCase } from '../assignments/testing.ts';

export {
  hoursFromNow,
  insertAssignment,
  insertSubmission,
  insertTestCase,
  upload,
} from '../assignments/testing.ts';

/** Test data for submissions, written straight to the database (the routes are what the tests test). */

/** A user without a password: no argon2 hash, so worlds of many users stay fast. */
export function quickUser(
  t: TestApp,
  fields: { firstName?: string; lastName?: string; email?: string; isStaff?: boolean } = {},
) {
  return createUser(t, { ...fields, password: null });
}

export async function setRules(
  t: TestApp,
  assignmentId: number,
  rules: Partial<
    Pick<
      typeof assignments.$inferInsert,
      'entryFile' | 'requiredFiles' | 'allowedExtensions' | 'maxFiles' | 'maxFileBytes'
    >
  >,
): Promise<void> {
  await t.ctx.db.update(assignments).set(rules).where(eq(assignments.id, assignmentId));
}

export async function setLink(
  t: TestApp,
  assignmentId: number,
  courseId: number,
  fields: Partial<
    Pick<typeof assignmentCourses.$inferInsert, 'opensAt' | 'dueAt' | 'lateUntil' | 'leaderboardEnabled'>
  >,
): Promise<void> {
  await t.ctx.db
    .update(assignmentCourses)
    .set(fields)
    .where(and(eq(assignmentCourses.assignmentId, assignmentId), eq(assignmentCourses.courseId, courseId)));
}

export async function insertEvaluation(
  t: TestApp,
  fields: Pick<typeof evaluations.$inferInsert, 'submissionId' | 'testCaseId'> &
    Partial<typeof evaluations.$inferInsert>,
) {
  const [row] = await t.ctx.db
    .insert(evaluations)
    .values({
      status: 'Correct',
      points: 1,
      stdout: 'program output',
      stderr: 'program errors',
      checkerMessage: 'checker says',
      exitCode: 0,
      timeMs: 12,
      ...fields,
    })
    .returning();
  return row!;
}

export async function insertFile(
  t: TestApp,
  submissionId: number,
  filename: string,
  content: string | Buffer,
) {
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
  const [row] = await t.ctx.db
    .insert(submissionFiles)
    .values({ submissionId, filename, content: bytes, size: bytes.length })
    .returning();
  return row!;
}

/**
 * One course with an opened assignment (a visible test worth 1 and a hidden one worth 2) and six callers:
 * a student of the course who made a Completed, a Pending and a Scheduled submission; a classmate; an
 * editor of the course; an editor of another course; staff.
 */
export async function createSubmissionWorld(t: TestApp) {
  const course = await createCourse(t, { title: 'Algorithms' });
  const otherCourse = await createCourse(t, { title: 'Databases' });
  const [staff, editor, otherEditor, student, classmate] = await Promise.all([
    quickUser(t, { isStaff: true }),
    quickUser(t, { firstName: 'Eda', lastName: 'Editor' }),
    quickUser(t),
    quickUser(t, { firstName: 'Sana', lastName: 'Student' }),
    quickUser(t, { firstName: 'Cleo', lastName: 'Classmate' }),
  ]);
  await addEditor(t, course.id, editor!.id);
  await addEditor(t, otherCourse.id, otherEditor!.id);
  await addStudent(t, course.id, student!.id);
  await addStudent(t, course.id, classmate!.id);
  const assignment = await insertAssignment(t, { courses: [{ courseId: course.id }], createdBy: editor!.id });
  const visibleTest = await insertTestCase(t, assignment.id, { name: 'Visible', points: 1, position: 0 });
  const hiddenTest = await insertTestCase(t, assignment.id, {
    name: 'Hidden',
    points: 2,
    position: 1,
    visibility: 'hidden',
    stdin: 'SECRET-INPUT',
    expectedStdout: 'SECRET-EXPECTED',
  });
  const key = { assignmentId: assignment.id, courseId: course.id, userId: student!.id };
  const completed = await insertSubmission(t, { ...key, score: 1, maxScore: 3, gradedAt: new Date() });
  await insertFile(t, completed.id, 'main.py', 'print(3)\n');
  await insertEvaluation(t, { submissionId: completed.id, testCaseId: visibleTest.id, points: 1 });
  await insertEvaluation(t, {
    submissionId: completed.id,
    testCaseId: hiddenTest.id,
    status: 'Wrong',
    points: 0,
    reason: 'wrong_answer',
    stdout: 'SECRET-STDOUT',
    stderr: 'SECRET-STDERR',
    checkerMessage: 'SECRET-CHECKER',
  });
  const pending = await insertSubmission(t, { ...key, status: 'Pending' });
  const pendingFile = await insertFile(t, pending.id, 'main.py', 'print(1)\n');
  const scheduled = await insertSubmission(t, { ...key, status: 'Scheduled', queuedAt: new Date() });
  const users = {
    staff: staff!,
    editor: editor!,
    otherEditor: otherEditor!,
    student: student!,
    classmate: classmate!,
  };
  return {
    course,
    otherCourse,
    assignment,
    visibleTest,
    hiddenTest,
    completed,
    pending,
    pendingFile,
    scheduled,
    users,
    tokens: {
      anonymous: undefined,
      student: await tokenFor(t, users.student),
      classmate: await tokenFor(t, users.classmate),
      editor: await tokenFor(t, users.editor),
      otherEditor: await tokenFor(t, users.otherEditor),
      staff: await tokenFor(t, users.staff),
    },
  };
}
export type SubmissionWorld = Awaited<ReturnType<typeof createSubmissionWorld>>;

/** Polls a submission's detail, as the web app does, until grading is over; the detail then. */
export async function gradedDetail(
  t: TestApp,
  id: number,
  token: string | undefined,
  timeoutMs = 40_000,
): Promise<SubmissionDetail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const detail = SubmissionDetail.parse((await call(t, 'GET', `/api/Submission/${id}/`, { token })).body);
    if (!['Scheduled', 'Executing'].includes(detail.status)) return detail;
    if (Date.now() > deadline) throw new Error(`submission ${id} still ${detail.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
