import { and, count, desc, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import { courseStudents, users } from '../../db/schema.ts';
import { assessmentFeedback, skills, workshopParticipants, workshops } from '../../db/schema-assessment.ts';

/* Feedback to students and workshops, with the names they are shown with. */

const author = {
  id: users.id,
  email: users.email,
  first_name: users.firstName,
  last_name: users.lastName,
};

export type FeedbackRow = typeof assessmentFeedback.$inferSelect & {
  skillName: string | null;
  author: { id: number; email: string; first_name: string; last_name: string } | null;
};

export async function listFeedback(
  db: Executor,
  filter: { courseId: number; userId?: number },
  page: { limit: number; offset: number },
): Promise<{ count: number; rows: FeedbackRow[] }> {
  const where = and(
    eq(assessmentFeedback.courseId, filter.courseId),
    filter.userId === undefined ? undefined : eq(assessmentFeedback.userId, filter.userId),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ feedback: assessmentFeedback, skillName: skills.name, author })
      .from(assessmentFeedback)
      .leftJoin(skills, eq(skills.id, assessmentFeedback.skillId))
      .leftJoin(users, eq(users.id, assessmentFeedback.authorId))
      .where(where)
      .orderBy(desc(assessmentFeedback.createdAt), desc(assessmentFeedback.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(assessmentFeedback).where(where),
  ]);
  return {
    count: total?.n ?? 0,
    rows: rows.map((r) => ({ ...r.feedback, skillName: r.skillName, author: r.author })),
  };
}

export async function findFeedback(db: Executor, id: number): Promise<FeedbackRow | null> {
  const [row] = await db
    .select({ feedback: assessmentFeedback, skillName: skills.name, author })
    .from(assessmentFeedback)
    .leftJoin(skills, eq(skills.id, assessmentFeedback.skillId))
    .leftJoin(users, eq(users.id, assessmentFeedback.authorId))
    .where(eq(assessmentFeedback.id, id))
    .limit(1);
  return row ? { ...row.feedback, skillName: row.skillName, author: row.author } : null;
}

export async function insertFeedback(
  db: Executor,
  values: typeof assessmentFeedback.$inferInsert,
): Promise<number> {
  const [row] = await db.insert(assessmentFeedback).values(values).returning({ id: assessmentFeedback.id });
  return row!.id;
}

export async function updateFeedback(db: Executor, id: number, body: string): Promise<void> {
  await db
    .update(assessmentFeedback)
    .set({ body, updatedAt: sql`now()` })
    .where(eq(assessmentFeedback.id, id));
}

export async function deleteFeedback(db: Executor, id: number): Promise<void> {
  await db.delete(assessmentFeedback).where(eq(assessmentFeedback.id, id));
}

export type WorkshopRow = typeof workshops.$inferSelect & { skillName: string | null };

export async function listWorkshops(
  db: Executor,
  filter: { courseId: number; participantId?: number },
  page: { limit: number; offset: number },
): Promise<{ count: number; rows: WorkshopRow[] }> {
  const conditions: SQL[] = [eq(workshops.courseId, filter.courseId)];
  if (filter.participantId !== undefined) {
    conditions.push(
      sql`exists (select 1 from ${workshopParticipants} p where p.workshop_id = ${workshops.id} and p.user_id = ${filter.participantId})`,
    );
  }
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select({ workshop: workshops, skillName: skills.name })
      .from(workshops)
      .leftJoin(skills, eq(skills.id, workshops.skillId))
      .where(where)
      .orderBy(desc(workshops.startsAt), desc(workshops.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(workshops).where(where),
  ]);
  return { count: total?.n ?? 0, rows: rows.map((r) => ({ ...r.workshop, skillName: r.skillName })) };
}

export async function findWorkshop(db: Executor, id: number): Promise<WorkshopRow | null> {
  const [row] = await db
    .select({ workshop: workshops, skillName: skills.name })
    .from(workshops)
    .leftJoin(skills, eq(skills.id, workshops.skillId))
    .where(eq(workshops.id, id))
    .limit(1);
  return row ? { ...row.workshop, skillName: row.skillName } : null;
}

export async function participantsOf(db: Executor, workshopIds: number[], onlyUserId?: number) {
  if (workshopIds.length === 0) return [];
  return db
    .select({
      workshopId: workshopParticipants.workshopId,
      status: workshopParticipants.status,
      user: author,
    })
    .from(workshopParticipants)
    .innerJoin(users, eq(users.id, workshopParticipants.userId))
    .where(
      and(
        inArray(workshopParticipants.workshopId, workshopIds),
        onlyUserId === undefined ? undefined : eq(workshopParticipants.userId, onlyUserId),
      ),
    )
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.email));
}

export async function insertWorkshop(tx: Tx, values: typeof workshops.$inferInsert): Promise<number> {
  const [row] = await tx.insert(workshops).values(values).returning({ id: workshops.id });
  return row!.id;
}

export async function updateWorkshop(
  tx: Tx,
  id: number,
  values: Partial<Omit<typeof workshops.$inferInsert, 'id' | 'courseId'>>,
): Promise<void> {
  if (Object.values(values).every((v) => v === undefined)) return;
  await tx.update(workshops).set(values).where(eq(workshops.id, id));
}

export async function replaceParticipants(
  tx: Tx,
  workshopId: number,
  participants: { user: number; status: 'invited' | 'attended' | 'absent' }[],
): Promise<void> {
  await tx.delete(workshopParticipants).where(eq(workshopParticipants.workshopId, workshopId));
  if (participants.length === 0) return;
  await tx
    .insert(workshopParticipants)
    .values(participants.map((p) => ({ workshopId, userId: p.user, status: p.status })));
}

export async function deleteWorkshop(db: Executor, id: number): Promise<void> {
  await db.delete(workshops).where(eq(workshops.id, id));
}

/** Which of the users are students of the course. */
export async function studentsAmong(db: Executor, courseId: number, userIds: number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ id: courseStudents.userId })
    .from(courseStudents)
    .where(and(eq(courseStudents.courseId, courseId), inArray(courseStudents.userId, userIds)));
  return new Set(rows.map((r) => r.id));
}

export async function skillInCourse(db: Executor, courseId: number, skillId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: skills.id })
    .from(skills)
    .where(and(eq(skills.id, skillId), eq(skills.courseId, courseId)))
    .limit(1);
  return row !== undefined;
}
