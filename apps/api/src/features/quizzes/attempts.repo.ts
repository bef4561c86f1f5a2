import { and, asc, desc, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { AnswerValue } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import { ownQuizExtension, ownQuizExtensionOn } from '../../db/own-dates.ts';
import { courseEditors, courseStudents, courses, users } from '../../db/schema.ts';
import { quizAnswers, quizCourses, quizSubmissions, quizzes } from '../../db/schema-quizzes.ts';
import { statementCache } from '../../db/prepared.ts';
import type { ScoredAnswer } from './scoring.ts';
import { quizCourseColumns, type AttemptRow, type QuizCourseView } from './quizzes.repo.ts';
import { inIntArray } from '../../db/int-array.ts';

const attemptColumns = {
  id: quizSubmissions.id,
  quizCourseId: quizSubmissions.quizCourseId,
  userId: quizSubmissions.userId,
  startedAt: quizSubmissions.startedAt,
  submittedAt: quizSubmissions.submittedAt,
  score: quizSubmissions.score,
  maxScore: quizSubmissions.maxScore,
};

const startStatement = statementCache(
  () => 'quiz_attempt_start',
  (db, _key: null, name) =>
    db
      .insert(quizSubmissions)
      .values({
        quizCourseId: sql.placeholder('quizCourseId'),
        userId: sql.placeholder('userId'),
        startedAt: sql`${sql.placeholder('startedAt')}::timestamptz`,
      })
      .onConflictDoNothing({ target: [quizSubmissions.quizCourseId, quizSubmissions.userId] })
      .returning(attemptColumns)
      .prepare(name),
);

/** Starts the attempt; null when the user already has one (started or submitted) in this quiz course. */
export async function insertAttempt(
  db: Executor,
  key: { quizCourseId: number; userId: number },
  startedAt: Date,
): Promise<AttemptRow | null> {
  const rows = await startStatement(db, null).execute({ ...key, startedAt: startedAt.toISOString() });
  return rows[0] ?? null;
}

export async function findAttempt(
  db: Executor,
  key: { quizCourseId: number; userId: number },
): Promise<AttemptRow | null> {
  const rows = await db
    .select(attemptColumns)
    .from(quizSubmissions)
    .where(and(eq(quizSubmissions.quizCourseId, key.quizCourseId), eq(quizSubmissions.userId, key.userId)))
    .limit(1);
  return rows[0] ?? null;
}

const SubmittedRows = z.object({
  rows: z.array(
    z.object({
      id: z.number(),
      quiz_course_id: z.number(),
      user_id: z.number(),
      started_at: z.coerce.date(),
      submitted_at: z.coerce.date(),
      score: z.number(),
      max_score: z.number(),
    }),
  ),
});

/**
 * Hands the attempt in and stores its scored answers, in one statement: ONE conditional UPDATE
 * (… WHERE submitted_at IS NULL) and, from its result, the insert of the answers. Of two submissions
 * racing, the second waits on the row lock of the first, then finds `submitted_at` set: it updates and
 * inserts nothing, and gets null. Exactly one wins. (Callers run it in their transaction.)
 */
export async function submitAttempt(
  db: Executor,
  key: { quizCourseId: number; userId: number },
  fields: { submittedAt: Date; score: number; maxScore: number },
  answers: ScoredAnswer[],
): Promise<AttemptRow | null> {
  const rows = answers.map((a) => ({
    question_id: a.questionId,
    answer: a.answer,
    is_correct: a.isCorrect,
    points: a.points,
  }));
  const result = await db.execute(sql`
    with submitted as (
      update ${quizSubmissions}
         set submitted_at = ${fields.submittedAt.toISOString()}::timestamptz,
             score = ${fields.score}::int, max_score = ${fields.maxScore}::int
       where quiz_course_id = ${key.quizCourseId}::int and user_id = ${key.userId}::int and submitted_at is null
      returning id, quiz_course_id, user_id, started_at, submitted_at, score, max_score
    ), stored as (
      insert into ${quizAnswers} (submission_id, question_id, answer, is_correct, points)
      select submitted.id, a.question_id, a.answer, a.is_correct, a.points
        from submitted
       cross join jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
                  as a(question_id int, answer jsonb, is_correct boolean, points int)
    )
    select * from submitted`);
  const [row] = SubmittedRows.parse(result).rows;
  if (!row) return null;
  return {
    id: row.id,
    quizCourseId: row.quiz_course_id,
    userId: row.user_id,
    startedAt: row.started_at,
    submittedAt: row.submitted_at,
    score: row.score,
    maxScore: row.max_score,
  };
}

export interface StoredAnswer {
  submissionId: number;
  questionId: number;
  answer: AnswerValue;
  isCorrect: boolean;
  points: number;
}

/** The answers of the given submissions. */
export async function listAnswers(db: Executor, submissionIds: number[]): Promise<StoredAnswer[]> {
  if (submissionIds.length === 0) return [];
  const rows = await db
    .select({
      submissionId: quizAnswers.submissionId,
      questionId: quizAnswers.questionId,
      answer: quizAnswers.answer,
      isCorrect: quizAnswers.isCorrect,
      points: quizAnswers.points,
    })
    .from(quizAnswers)
    .where(inIntArray(quizAnswers.submissionId, submissionIds))
    .orderBy(asc(quizAnswers.submissionId), asc(quizAnswers.questionId));
  return rows.map((r) => ({ ...r, answer: AnswerValue.parse(r.answer) }));
}

/* ─── Submissions with their quiz course and author ───────────────────────────────────────────── */

export interface SubmissionView {
  attempt: AttemptRow;
  quizCourse: QuizCourseView;
  user: { id: number; email: string; firstName: string; lastName: string };
}

const viewColumns = {
  ...quizCourseColumns,
  attempt: attemptColumns,
  userEmail: users.email,
  userFirstName: users.firstName,
  userLastName: users.lastName,
};

function viewsFrom(db: Executor) {
  return (
    db
      .select(viewColumns)
      .from(quizSubmissions)
      .innerJoin(quizCourses, eq(quizCourses.id, quizSubmissions.quizCourseId))
      .innerJoin(quizzes, eq(quizzes.id, quizCourses.quizId))
      .innerJoin(courses, eq(courses.id, quizCourses.courseId))
      .innerJoin(users, eq(users.id, quizSubmissions.userId))
      // The author's own window (docs/extensions.md).
      .leftJoin(ownQuizExtension, ownQuizExtensionOn(quizSubmissions.userId))
      .$dynamic()
  );
}

type ViewRow = Awaited<ReturnType<ReturnType<typeof viewsFrom>['execute']>>[number];

function toView(row: ViewRow): SubmissionView {
  const { attempt, userEmail, userFirstName, userLastName, ...quizCourse } = row;
  return {
    attempt,
    quizCourse,
    user: { id: attempt.userId, email: userEmail, firstName: userFirstName, lastName: userLastName },
  };
}

/** One submission with its quiz course (and the viewer's relation to the course); null if none. */
export async function findSubmissionView(
  db: Executor,
  id: number,
  viewerId: number,
): Promise<SubmissionView | null> {
  const rows = await viewsFrom(db).where(eq(quizSubmissions.id, id)).limit(1).execute({ userId: viewerId });
  return rows[0] ? toView(rows[0]) : null;
}

export interface SubmissionListFilter {
  viewer: { userId: number; isStaff: boolean };
  courseId?: number;
  userId?: number;
  quizId?: number;
  quizCourseId?: number;
  limit: number;
  offset: number;
}

/** What the viewer may see: staff all; others their own and every submission of the courses they edit. */
function whereOf(f: SubmissionListFilter): SQL | undefined {
  const visible = f.viewer.isStaff
    ? undefined
    : sql`(${quizSubmissions.userId} = ${f.viewer.userId} or ${quizCourses.courseId} in (select ${courseEditors.courseId} from ${courseEditors} where ${courseEditors.userId} = ${f.viewer.userId}))`;
  return and(
    visible,
    f.courseId === undefined ? undefined : eq(quizCourses.courseId, f.courseId),
    f.userId === undefined ? undefined : eq(quizSubmissions.userId, f.userId),
    f.quizId === undefined ? undefined : eq(quizCourses.quizId, f.quizId),
    f.quizCourseId === undefined ? undefined : eq(quizSubmissions.quizCourseId, f.quizCourseId),
  );
}

/** A page of submissions, newest first. */
export async function listSubmissionViews(
  db: Executor,
  filter: SubmissionListFilter,
): Promise<{ count: number; rows: SubmissionView[] }> {
  const where = whereOf(filter);
  const [counted] = await db
    .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(quizSubmissions)
    .innerJoin(quizCourses, eq(quizCourses.id, quizSubmissions.quizCourseId))
    .where(where);
  const rows = await viewsFrom(db)
    .where(where)
    .orderBy(desc(quizSubmissions.id))
    .limit(filter.limit)
    .offset(filter.offset)
    .execute({ userId: filter.viewer.userId });
  return { count: counted?.n ?? 0, rows: rows.map(toView) };
}

/** Every submission of a quiz course (for its results). */
export async function listQuizCourseAttempts(db: Executor, quizCourseId: number): Promise<AttemptRow[]> {
  return db
    .select(attemptColumns)
    .from(quizSubmissions)
    .where(eq(quizSubmissions.quizCourseId, quizCourseId))
    .orderBy(asc(quizSubmissions.id));
}

/** Moves an attempt's start (tests and the demo seed: time passes without waiting for it). */
export async function setStartedAt(db: Executor, id: number, startedAt: Date): Promise<void> {
  await db.update(quizSubmissions).set({ startedAt }).where(eq(quizSubmissions.id, id));
}

/** Students of the quiz course's course who submitted. */
export async function countSubmittedStudents(db: Executor, quizCourseId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(quizSubmissions)
    .innerJoin(quizCourses, eq(quizCourses.id, quizSubmissions.quizCourseId))
    .innerJoin(
      courseStudents,
      and(
        eq(courseStudents.courseId, quizCourses.courseId),
        eq(courseStudents.userId, quizSubmissions.userId),
      ),
    )
    .where(and(eq(quizSubmissions.quizCourseId, quizCourseId), isNotNull(quizSubmissions.submittedAt)));
  return row?.n ?? 0;
}
