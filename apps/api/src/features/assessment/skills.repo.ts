import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import { assignmentCourses, assignments, testCases } from '../../db/schema-assignments.ts';
import { quizCourses, quizQuestions, quizzes } from '../../db/schema-quizzes.ts';
import { skillItems, skills } from '../../db/schema-assessment.ts';

export type SkillRow = typeof skills.$inferSelect;
export type ItemRow = Pick<
  typeof skillItems.$inferSelect,
  'skillId' | 'assignmentId' | 'testCaseId' | 'quizQuestionId'
>;

export async function listSkills(db: Executor, courseId: number): Promise<SkillRow[]> {
  return db
    .select()
    .from(skills)
    .where(eq(skills.courseId, courseId))
    .orderBy(asc(skills.skillType), asc(skills.name), asc(skills.id));
}

export async function countSkills(db: Executor, courseId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(skills).where(eq(skills.courseId, courseId));
  return row?.n ?? 0;
}

export async function findSkill(db: Executor, id: number): Promise<SkillRow | null> {
  const [row] = await db.select().from(skills).where(eq(skills.id, id)).limit(1);
  return row ?? null;
}

export async function itemsOf(db: Executor, skillIds: number[]): Promise<ItemRow[]> {
  if (skillIds.length === 0) return [];
  return db
    .select({
      skillId: skillItems.skillId,
      assignmentId: skillItems.assignmentId,
      testCaseId: skillItems.testCaseId,
      quizQuestionId: skillItems.quizQuestionId,
    })
    .from(skillItems)
    .where(inArray(skillItems.skillId, skillIds))
    .orderBy(asc(skillItems.id));
}

export async function insertSkill(db: Executor, values: typeof skills.$inferInsert): Promise<SkillRow> {
  const [row] = await db.insert(skills).values(values).returning();
  return row!;
}

export async function updateSkill(
  db: Executor,
  id: number,
  values: Partial<Pick<SkillRow, 'name' | 'skillType' | 'description'>>,
): Promise<SkillRow> {
  const [row] = await db.update(skills).set(values).where(eq(skills.id, id)).returning();
  return row!;
}

export async function deleteSkill(db: Executor, id: number): Promise<void> {
  await db.delete(skills).where(eq(skills.id, id));
}

export async function replaceItems(
  tx: Tx,
  skillId: number,
  items: { assignments: number[]; testCases: number[]; quizQuestions: number[] },
): Promise<void> {
  await tx.delete(skillItems).where(eq(skillItems.skillId, skillId));
  const rows = [
    ...items.assignments.map((assignmentId) => ({ skillId, assignmentId })),
    ...items.testCases.map((testCaseId) => ({ skillId, testCaseId })),
    ...items.quizQuestions.map((quizQuestionId) => ({ skillId, quizQuestionId })),
  ];
  if (rows.length > 0) await tx.insert(skillItems).values(rows);
}

/** Which of the ids belong to the course: its assignments, their test cases, its quizzes' questions. */
export async function itemsInCourse(
  db: Executor,
  courseId: number,
  ids: { assignments: number[]; testCases: number[]; quizQuestions: number[] },
) {
  const none = Promise.resolve([] as { id: number }[]);
  const [a, t, q] = await Promise.all([
    ids.assignments.length === 0
      ? none
      : db
          .select({ id: assignmentCourses.assignmentId })
          .from(assignmentCourses)
          .where(
            and(
              eq(assignmentCourses.courseId, courseId),
              inArray(assignmentCourses.assignmentId, ids.assignments),
            ),
          ),
    ids.testCases.length === 0
      ? none
      : db
          .select({ id: testCases.id })
          .from(testCases)
          .innerJoin(assignmentCourses, eq(assignmentCourses.assignmentId, testCases.assignmentId))
          .where(and(eq(assignmentCourses.courseId, courseId), inArray(testCases.id, ids.testCases))),
    ids.quizQuestions.length === 0
      ? none
      : db
          .select({ id: quizQuestions.id })
          .from(quizQuestions)
          .innerJoin(quizCourses, eq(quizCourses.quizId, quizQuestions.quizId))
          .where(and(eq(quizCourses.courseId, courseId), inArray(quizQuestions.id, ids.quizQuestions))),
  ]);
  const set = (rows: { id: number }[]) => new Set(rows.map((r) => r.id));
  return { assignments: set(a), testCases: set(t), quizQuestions: set(q) };
}

/** The course's assignments with their test cases and its quizzes with their questions, for tagging. */
export async function catalogue(db: Executor, courseId: number) {
  const [assignmentRows, caseRows, quizRows, questionRows] = await Promise.all([
    db
      .select({ id: assignments.id, title: assignments.title })
      .from(assignmentCourses)
      .innerJoin(assignments, eq(assignments.id, assignmentCourses.assignmentId))
      .where(eq(assignmentCourses.courseId, courseId))
      .orderBy(asc(assignmentCourses.dueAt), asc(assignments.id)),
    db
      .select({
        id: testCases.id,
        name: testCases.name,
        points: testCases.points,
        owner: testCases.assignmentId,
      })
      .from(testCases)
      .innerJoin(assignmentCourses, eq(assignmentCourses.assignmentId, testCases.assignmentId))
      .where(eq(assignmentCourses.courseId, courseId))
      .orderBy(asc(testCases.position), asc(testCases.id)),
    db
      .select({ id: quizzes.id, title: quizzes.title })
      .from(quizCourses)
      .innerJoin(quizzes, eq(quizzes.id, quizCourses.quizId))
      .where(eq(quizCourses.courseId, courseId))
      .orderBy(asc(quizCourses.closesAt), asc(quizzes.id)),
    db
      .select({
        id: quizQuestions.id,
        position: quizQuestions.position,
        prompt: sql<string>`left(${quizQuestions.prompt}, 200)`,
        points: quizQuestions.points,
        owner: quizQuestions.quizId,
      })
      .from(quizQuestions)
      .innerJoin(quizCourses, eq(quizCourses.quizId, quizQuestions.quizId))
      .where(eq(quizCourses.courseId, courseId))
      .orderBy(asc(quizQuestions.position), asc(quizQuestions.id)),
  ]);
  return {
    assignments: assignmentRows.map((a) => ({
      ...a,
      test_cases: caseRows.filter((c) => c.owner === a.id).map(({ owner: _owner, ...c }) => c),
    })),
    quizzes: quizRows.map((q) => ({
      ...q,
      questions: questionRows.filter((c) => c.owner === q.id).map(({ owner: _owner, ...c }) => c),
    })),
  };
}
