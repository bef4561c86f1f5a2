import { eq } from 'drizzle-orm';
import { runSimilarityReport } from '@kadai/grader/similarity-job';
import { DISGUISED_COPY, HONEST_A, ORIGINAL, STARTER } from '@kadai/grader/similarity-fixtures';
import { addStudent, createCourseWorld, createUser, tokenFor } from '../../../test/factories.ts';
import { call, type TestApp } from '../../../test/harness.ts';
import { assignments } from '../../db/schema-assignments.ts';
import { insertAssignment, insertSubmission } from '../assignments/testing.ts';
import { insertFile } from '../submissions/testing.ts';

export const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * A course with an assignment (with starter code) and three students: one wrote a solution, the
 * classmate handed in a disguised copy of it, the third an honest solution of their own; the first also
 * has an older, worse submission that must not count.
 */
export async function createSimilarityWorld(t: TestApp) {
  const world = await createCourseWorld(t);
  const classmate = await createUser(t, { firstName: 'Kenji', lastName: 'Sato' });
  const honest = await createUser(t);
  for (const user of [classmate, honest]) await addStudent(t, world.course.id, user.id);
  const assignment = await insertAssignment(t, {
    title: 'Score report',
    courses: [{ courseId: world.course.id }],
  });
  await t.ctx.db.update(assignments).set({ starterCode: STARTER }).where(eq(assignments.id, assignment.id));
  const submit = async (userId: number, content: string, fields: { score?: number; isFinal?: boolean }) => {
    const row = await insertSubmission(t, {
      assignmentId: assignment.id,
      courseId: world.course.id,
      userId,
      score: fields.score ?? 10,
      maxScore: 10,
      isFinal: fields.isFinal ?? false,
    });
    await insertFile(t, row.id, 'main.py', content);
    return row;
  };
  await submit(world.users.student.id, STARTER, { score: 0 });
  const original = await submit(world.users.student.id, ORIGINAL, { score: 10 });
  const copy = await submit(classmate.id, DISGUISED_COPY, { score: 9, isFinal: true });
  const own = await submit(honest.id, HONEST_A, { score: 10 });
  return {
    ...world,
    users: { ...world.users, classmate, honest },
    tokens: { ...world.tokens, classmate: await tokenFor(t, classmate) },
    assignment,
    submissions: { original, copy, own },
  };
}
export type SimilarityWorld = Awaited<ReturnType<typeof createSimilarityWorld>>;

export const similarityBase = (w: SimilarityWorld) =>
  `/api/Course/${w.course.id}/assignments/${w.assignment.id}/similarity/`;

/** A report asked for by staff and worked right here, as a grader would. */
export async function createDoneReport(t: TestApp, w: SimilarityWorld): Promise<number> {
  const res = await call(t, 'POST', similarityBase(w), { token: w.tokens.staff, body: {} });
  const id = Number(res.json.id);
  await runSimilarityReport(t.database, id, quietLog);
  return id;
}
