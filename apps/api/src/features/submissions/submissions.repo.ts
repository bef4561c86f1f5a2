import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  ownAssignmentClosesAt,
  ownAssignmentDates,
  ownAssignmentExtension,
  ownAssignmentExtensionOn,
} from '../../db/own-dates.ts';
import { recentWindow } from '../../db/recent.ts';
import { courseEditors, users } from '../../db/schema.ts';
import { assignmentCourses, assignments, submissionFiles, submissions } from '../../db/schema-assignments.ts';
import { prepareSelect, statementCache } from '../../db/prepared.ts';
import { submitKeys } from '../../db/schema-submissions.ts';

export type SubmissionRow = typeof submissions.$inferSelect;
export type SubmissionStatus = SubmissionRow['status'];

/** A submission with what every response shows beside it: the assignment, its due date, the author. */
export interface SubmissionView {
  id: number;
  assignmentId: number;
  assignmentTitle: string;
  courseId: number;
  userId: number;
  userEmail: string;
  userFirstName: string;
  userLastName: string;
  status: SubmissionStatus;
  message: string;
  score: number | null;
  maxScore: number | null;
  isFinal: boolean;
  isLate: boolean;
  isReference: boolean;
  dueAt: Date;
  /** The last moment submissions are accepted (late cut-off, else due date): after_due tests show after it. */
  closesAt: Date;
  createdAt: Date;
  queuedAt: Date | null;
  startedAt: Date | null;
  gradedAt: Date | null;
  queuePosition: number | null;
  /** Microseconds since the epoch of `createdAt`, exact, for keyset cursors (JS dates keep only ms). */
  createdMicros: string;
}

/*
 * Correlated subqueries name the outer table explicitly: drizzle may leave a column unqualified, and
 * inside `from submissions as q` an unqualified column would bind to the inner table.
 */
const outer = (column: string) => sql`${sql.identifier('submissions')}.${sql.identifier(column)}`;

/** 1 for the next to be graded: Scheduled submissions queued before this one, plus one. */
export const queuePositionSql = sql<number | null>`case when ${outer('status')} = 'Scheduled' then 1 + (
    select count(*)::int from ${submissions} as q
     where q.status = 'Scheduled' and (q.queued_at, q.id) < (${outer('queued_at')}, ${outer('id')})
  ) end`.mapWith((v: unknown) => (v === null ? null : Number(v)));

/** Whether `viewer` (a bound value or placeholder) edits the submission's course. */
export const viewerEditsCourse = (viewer: ReturnType<typeof sql.placeholder> | number) =>
  sql<boolean>`exists (select 1 from ${courseEditors} as m where m.course_id = ${outer('course_id')} and m.user_id = ${viewer})`.mapWith(
    Boolean,
  );

export const submissionColumns = {
  id: submissions.id,
  assignmentId: submissions.assignmentId,
  assignmentTitle: assignments.title,
  courseId: submissions.courseId,
  userId: submissions.userId,
  userEmail: users.email,
  userFirstName: users.firstName,
  userLastName: users.lastName,
  status: submissions.status,
  message: submissions.message,
  score: submissions.score,
  maxScore: submissions.maxScore,
  isFinal: submissions.isFinal,
  isLate: submissions.isLate,
  isReference: submissions.isReference,
  // The author's own dates (an extension's, else the course's: docs/extensions.md).
  dueAt: ownAssignmentDates.dueAt,
  closesAt: ownAssignmentClosesAt,
  createdAt: submissions.createdAt,
  queuedAt: submissions.queuedAt,
  startedAt: submissions.startedAt,
  gradedAt: submissions.gradedAt,
  queuePosition: queuePositionSql,
  createdMicros: sql<string>`((extract(epoch from ${outer('created_at')}) * 1000000)::bigint)::text`,
};

/**
 * A submission is shown only while its assignment is given in its course (an assignment taken out of
 * a course by staff hides that course's submissions with it).
 */
export const submissionJoins = {
  assignment: eq(assignments.id, submissions.assignmentId),
  link: and(
    eq(assignmentCourses.assignmentId, submissions.assignmentId),
    eq(assignmentCourses.courseId, submissions.courseId),
  ),
  user: eq(users.id, submissions.userId),
  /** Left join of `ownAssignmentExtension`: the author's extension, if any. */
  ownExtension: ownAssignmentExtensionOn(submissions.userId),
};

const viewStatement = statementCache(
  () => 'submission_view_by_id',
  (db, _key: null, name) =>
    prepareSelect(
      db,
      db
        .select({ ...submissionColumns, viewerIsEditor: viewerEditsCourse(sql.placeholder('viewerId')) })
        .from(submissions)
        .innerJoin(assignments, submissionJoins.assignment)
        .innerJoin(assignmentCourses, submissionJoins.link)
        .leftJoin(ownAssignmentExtension, submissionJoins.ownExtension)
        .innerJoin(users, submissionJoins.user)
        .where(eq(submissions.id, sql.placeholder('id')))
        .limit(1),
      name,
    ),
);

/** The submission and whether `viewerId` edits its course; null when there is none (or it is hidden). */
export async function findSubmissionView(
  db: Executor,
  id: number,
  viewerId: number,
): Promise<(SubmissionView & { viewerIsEditor: boolean }) | null> {
  const rows = await viewStatement(db, null).execute({ id, viewerId });
  return rows[0] ?? null;
}

export async function listSubmissionViewsByIds(db: Executor, ids: number[]): Promise<SubmissionView[]> {
  if (ids.length === 0) return [];
  return db
    .select(submissionColumns)
    .from(submissions)
    .innerJoin(assignments, submissionJoins.assignment)
    .innerJoin(assignmentCourses, submissionJoins.link)
    .leftJoin(ownAssignmentExtension, submissionJoins.ownExtension)
    .innerJoin(users, submissionJoins.user)
    .where(inArray(submissions.id, ids));
}

/** Takes the submission's row lock; null when it does not exist. */
export async function lockSubmission(db: Executor, id: number): Promise<SubmissionRow | null> {
  const rows = await db.select().from(submissions).where(eq(submissions.id, id)).for('update');
  return rows[0] ?? null;
}

/* ─── Files ──────────────────────────────────────────────────────────────────────────────────── */

export interface SubmissionFileMeta {
  id: number;
  submissionId: number;
  filename: string;
  size: number;
  createdAt: Date;
}

const fileMetaColumns = {
  id: submissionFiles.id,
  submissionId: submissionFiles.submissionId,
  filename: submissionFiles.filename,
  size: submissionFiles.size,
  createdAt: submissionFiles.createdAt,
};

/** The files of the given submissions, without their bytes, by name. */
export function listFileMeta(db: Executor, submissionIds: number[]): Promise<SubmissionFileMeta[]> {
  if (submissionIds.length === 0) return Promise.resolve([]);
  return db
    .select(fileMetaColumns)
    .from(submissionFiles)
    .where(inArray(submissionFiles.submissionId, submissionIds))
    .orderBy(asc(submissionFiles.submissionId), asc(submissionFiles.filename));
}

/**
 * The files of one submission; the bytes only of files up to `maxContentBytes` (larger ones are
 * downloaded through their link instead of being inlined).
 */
export async function listFilesWithContent(
  db: Executor,
  submissionId: number,
  maxContentBytes: number,
): Promise<(SubmissionFileMeta & { content: Buffer | null })[]> {
  const meta = await listFileMeta(db, [submissionId]);
  const small = meta.filter((f) => f.size <= maxContentBytes).map((f) => f.id);
  const contents =
    small.length === 0
      ? []
      : await db
          .select({ id: submissionFiles.id, content: submissionFiles.content })
          .from(submissionFiles)
          .where(inArray(submissionFiles.id, small));
  const byId = new Map(contents.map((c) => [c.id, c.content]));
  return meta.map((f) => ({ ...f, content: byId.get(f.id) ?? null }));
}

export interface NewFile {
  filename: string;
  content: Buffer;
}

export async function insertFiles(
  db: Executor,
  submissionId: number,
  files: NewFile[],
): Promise<SubmissionFileMeta[]> {
  if (files.length === 0) return [];
  return db
    .insert(submissionFiles)
    .values(
      files.map((f) => ({ submissionId, filename: f.filename, content: f.content, size: f.content.length })),
    )
    .returning(fileMetaColumns);
}

export async function deleteFile(db: Executor, submissionId: number, fileId: number): Promise<boolean> {
  const rows = await db
    .delete(submissionFiles)
    .where(and(eq(submissionFiles.id, fileId), eq(submissionFiles.submissionId, submissionId)))
    .returning({ id: submissionFiles.id });
  return rows.length > 0;
}

/* ─── Submitting ─────────────────────────────────────────────────────────────────────────────── */

export async function insertSubmission(
  db: Executor,
  row: { assignmentId: number; courseId: number; userId: number; isLate: boolean },
): Promise<number> {
  const [inserted] = await db
    .insert(submissions)
    .values({ ...row, status: 'Pending' })
    .returning({ id: submissions.id });
  return inserted!.id;
}

/**
 * Takes a lock on one person's submitting to one assignment, held until the transaction ends, so that
 * counting their recent submissions and inserting the next one happen as one step. The two-int4 key
 * space is apart from the single-bigint keys of migrations, seeding and the job queue.
 */
export async function lockSubmitter(
  db: Executor,
  key: { assignmentId: number; userId: number },
): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${key.userId}::int4, ${key.assignmentId}::int4)`);
}

/**
 * How many submissions the user made to the assignment in the course within the last `windowSeconds`,
 * and in how many seconds the oldest of them leaves the window.
 */
export async function countRecentSubmissions(
  db: Executor,
  key: { assignmentId: number; courseId: number; userId: number },
  windowSeconds: number,
): Promise<{ count: number; retryAfterSeconds: number }> {
  const recent = recentWindow(submissions.createdAt, windowSeconds);
  const [row] = await db
    .select(recent.columns)
    .from(submissions)
    .where(
      and(
        eq(submissions.assignmentId, key.assignmentId),
        eq(submissions.courseId, key.courseId),
        eq(submissions.userId, key.userId),
        recent.inWindow,
      ),
    );
  return row ?? { count: 0, retryAfterSeconds: 0 };
}

/* ─── Queueing ───────────────────────────────────────────────────────────────────────────────── */

/**
 * Marks submissions Scheduled for a fresh grading attempt; the ids that were. With `fromStatus`, only
 * rows still in that status change (a concurrent cancel wins); with `isLate`, lateness is set too (an
 * author's hand-in; re-grades keep it).
 */
export async function markScheduled(
  db: Executor,
  ids: number[],
  options: { fromStatus?: SubmissionStatus; isLate?: boolean } = {},
): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .update(submissions)
    .set({
      status: 'Scheduled',
      queuedAt: sql`now()`,
      startedAt: null,
      gradedAt: null,
      gradingToken: null,
      message: '',
      ...(options.isLate === undefined ? {} : { isLate: options.isLate }),
    })
    .where(
      and(
        inArray(submissions.id, ids),
        options.fromStatus === undefined ? undefined : eq(submissions.status, options.fromStatus),
      ),
    )
    .returning({ id: submissions.id });
  return rows.map((r) => r.id);
}

/* ─── Final submission ───────────────────────────────────────────────────────────────────────── */

export interface AuthorKey {
  assignmentId: number;
  courseId: number;
  userId: number;
}

const ofAuthor = (key: AuthorKey) =>
  and(
    eq(submissions.assignmentId, key.assignmentId),
    eq(submissions.courseId, key.courseId),
    eq(submissions.userId, key.userId),
  );

/** Locks every submission of the author to the assignment in the course; their statuses by id. */
export async function lockAuthorSubmissions(
  db: Executor,
  key: AuthorKey,
): Promise<Map<number, SubmissionStatus>> {
  const rows = await db
    .select({ id: submissions.id, status: submissions.status })
    .from(submissions)
    .where(ofAuthor(key))
    .for('update');
  return new Map(rows.map((r) => [r.id, r.status]));
}

/** Unmarks the old final, then marks the new one (in this order, for the partial unique index). */
export async function moveFinal(db: Executor, key: AuthorKey, submissionId: number): Promise<void> {
  await db
    .update(submissions)
    .set({ isFinal: false })
    .where(and(ofAuthor(key), eq(submissions.isFinal, true), ne(submissions.id, submissionId)));
  await db.update(submissions).set({ isFinal: true }).where(eq(submissions.id, submissionId));
}

export async function findFinalId(db: Executor, key: AuthorKey): Promise<number | null> {
  const rows = await db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(ofAuthor(key), eq(submissions.isFinal, true)));
  return rows[0]?.id ?? null;
}

/**
 * Serializes submits carrying the same Idempotency-Key of one person until the transaction ends (the
 * second then finds the first's key), in the two-int4 key space of `lockSubmitter`: a hash that meets an
 * assignment id only makes two submits wait for each other.
 */
export async function lockSubmitKey(db: Executor, userId: number, key: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${userId}::int4, hashtext(${`submit-key:${key}`}))`);
}

/** The submission a person's Idempotency-Key made, with the hash of the body that made it. */
export async function findSubmitKey(
  db: Executor,
  userId: number,
  key: string,
): Promise<{ submissionId: number; requestHash: string } | null> {
  const [row] = await db
    .select({ submissionId: submitKeys.submissionId, requestHash: submitKeys.requestHash })
    .from(submitKeys)
    .where(and(eq(submitKeys.userId, userId), eq(submitKeys.key, key)));
  return row ?? null;
}

export async function insertSubmitKey(
  db: Executor,
  row: { userId: number; key: string; requestHash: string; submissionId: number },
): Promise<void> {
  await db.insert(submitKeys).values(row);
}
