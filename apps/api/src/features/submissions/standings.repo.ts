import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { courseStudents, users } from '../../db/schema.ts';
import { submissions } from '../../db/schema-assignments.ts';
import { leaderboardProfiles } from '../../db/schema-submissions.ts';
import type { SubmissionStatus } from './submissions.repo.ts';

/**
 * What the CSV export and the leaderboard rank: per student, the final submission and the best graded
 * one (highest score, the earlier among equals). Reference runs never count.
 */
export interface StudentRow {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
}

/** The students of the course (not its editors), by last name, first name, e-mail. */
export function listCourseStudents(db: Executor, courseId: number): Promise<StudentRow[]> {
  return db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(courseStudents)
    .innerJoin(users, eq(users.id, courseStudents.userId))
    .where(eq(courseStudents.courseId, courseId))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.email), asc(users.id));
}

export interface RankedSubmission {
  id: number;
  userId: number;
  status: SubmissionStatus;
  score: number | null;
  maxScore: number | null;
  isLate: boolean;
  createdAt: Date;
  gradedAt: Date | null;
}

const rankedColumns = {
  id: submissions.id,
  userId: submissions.userId,
  status: submissions.status,
  score: submissions.score,
  maxScore: submissions.maxScore,
  isLate: submissions.isLate,
  createdAt: submissions.createdAt,
  gradedAt: submissions.gradedAt,
};

const ofAssignment = (assignmentId: number, courseId: number) =>
  and(
    eq(submissions.assignmentId, assignmentId),
    eq(submissions.courseId, courseId),
    eq(submissions.isReference, false),
  );

/** Each author's best Completed submission: highest score, then the earliest. */
export async function listBestSubmissions(
  db: Executor,
  assignmentId: number,
  courseId: number,
): Promise<Map<number, RankedSubmission>> {
  const rows = await db
    .selectDistinctOn([submissions.userId], rankedColumns)
    .from(submissions)
    .where(
      and(
        ofAssignment(assignmentId, courseId),
        eq(submissions.status, 'Completed'),
        isNotNull(submissions.score),
      ),
    )
    .orderBy(
      asc(submissions.userId),
      sql`${submissions.score} desc`,
      asc(submissions.createdAt),
      asc(submissions.id),
    );
  return new Map(rows.map((r) => [r.userId, r]));
}

export async function listFinalSubmissions(
  db: Executor,
  assignmentId: number,
  courseId: number,
): Promise<Map<number, RankedSubmission>> {
  const rows = await db
    .select(rankedColumns)
    .from(submissions)
    .where(and(ofAssignment(assignmentId, courseId), eq(submissions.isFinal, true)));
  return new Map(rows.map((r) => [r.userId, r]));
}

export async function countSubmissionsByAuthor(
  db: Executor,
  assignmentId: number,
  courseId: number,
): Promise<Map<number, number>> {
  const rows = await db
    .select({ userId: submissions.userId, n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(submissions)
    .where(ofAssignment(assignmentId, courseId))
    .groupBy(submissions.userId);
  return new Map(rows.map((r) => [r.userId, r.n]));
}

/* ─── Leaderboard profiles ───────────────────────────────────────────────────────────────────── */

export interface ProfileRow {
  userId: number;
  nickname: string | null;
  optOut: boolean;
}

const profileColumns = {
  userId: leaderboardProfiles.userId,
  nickname: leaderboardProfiles.nickname,
  optOut: leaderboardProfiles.optOut,
};

export async function listProfiles(db: Executor, userIds: number[]): Promise<Map<number, ProfileRow>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select(profileColumns)
    .from(leaderboardProfiles)
    .where(inArray(leaderboardProfiles.userId, userIds));
  return new Map(rows.map((r) => [r.userId, r]));
}

export async function findProfile(db: Executor, userId: number): Promise<ProfileRow | null> {
  return (await listProfiles(db, [userId])).get(userId) ?? null;
}

/** Whether another user holds the nickname (case-insensitively). */
export async function isNicknameTaken(db: Executor, nickname: string, userId: number): Promise<boolean> {
  const rows = await db
    .select({ userId: leaderboardProfiles.userId })
    .from(leaderboardProfiles)
    .where(
      sql`lower(${leaderboardProfiles.nickname}) = lower(${nickname}) and ${leaderboardProfiles.userId} <> ${userId}`,
    )
    .limit(1);
  return rows.length > 0;
}

/** Writes the profile; 'nickname_taken' when another user got the nickname first. */
export async function saveProfile(db: Executor, profile: ProfileRow): Promise<ProfileRow | 'nickname_taken'> {
  try {
    const [row] = await db
      .insert(leaderboardProfiles)
      .values(profile)
      .onConflictDoUpdate({
        target: leaderboardProfiles.userId,
        set: { nickname: profile.nickname, optOut: profile.optOut, updatedAt: sql`now()` },
      })
      .returning(profileColumns);
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) return 'nickname_taken';
    throw error;
  }
}

/** PostgreSQL's unique_violation, whether the driver error arrives bare or wrapped by drizzle. */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 3; depth++) {
    if ('code' in e && e.code === '23505') return true;
    e = 'cause' in e ? e.cause : null;
  }
  return false;
}
