import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { courseEditors, courseStudents, courses, users } from '../../db/schema.ts';
import { quizCourses, quizQuestions, quizSubmissions, quizzes } from '../../db/schema-quizzes.ts';
import { prepareSelect, statementCache } from '../../db/prepared.ts';
import { parseQuestionRow, type NewQuestion, type QuizQuestion } from './questions.ts';
import { inIntArray } from '../../db/int-array.ts';
import { ownQuizExtension, ownQuizExtensionOn, ownQuizWindow } from '../../db/own-dates.ts';

export type QuizRow = typeof quizzes.$inferSelect;

/** A quiz given to a course, with the titles and how the viewer stands to that course. */
export interface QuizCourseView {
  id: number;
  quizId: number;
  quizTitle: string;
  courseId: number;
  courseTitle: string;
  opensAt: Date;
  closesAt: Date;
  timeLimitMinutes: number | null;
  scoresVisibleAt: Date | null;
  answersVisibleAt: Date | null;
  /** `closesAt` and `timeLimitMinutes` are the person's own, from an extension (docs/extensions.md). */
  extended: boolean;
  isEditor: boolean;
  isStudent: boolean;
}

export interface QuizCourseFields {
  courseId: number;
  opensAt: Date;
  closesAt: Date;
  timeLimitMinutes: number | null;
  scoresVisibleAt: Date | null;
  answersVisibleAt: Date | null;
}

export interface AttemptRow {
  id: number;
  quizCourseId: number;
  userId: number;
  startedAt: Date;
  submittedAt: Date | null;
  score: number | null;
  maxScore: number | null;
}

/**
 * Everything a student's call about one quiz course needs, in one query: the quiz course, its quiz,
 * the viewer's relation to the course and to the quiz, and the viewer's attempt. (Question totals come
 * from the cached questions: on PGlite every sub-select of this hot query costs a millisecond.)
 */
export interface QuizCourseContext extends QuizCourseView {
  quizDescription: string;
  quizCreatedBy: number | null;
  /** `updated_at` of the quiz to the microsecond: it changes whenever the questions do. */
  quizVersion: string;
  /** The viewer edits at least one course of the quiz. */
  editsQuiz: boolean;
  attempt: AttemptRow | null;
  viewer: { id: number; email: string; firstName: string; lastName: string };
}

const viewerId = sql.placeholder('userId');
const ident = sql.identifier;
/** Whether the viewer is on `table`'s list of the course of the outer `quiz_courses` row. */
const isMember = (table: typeof courseEditors | typeof courseStudents) =>
  sql<boolean>`exists (select 1 from ${table} as ${ident('m')} where ${ident('m')}.${ident('course_id')} = ${quizCourses.courseId} and ${ident('m')}.${ident('user_id')} = ${viewerId})`.mapWith(
    Boolean,
  );

export const quizCourseColumns = {
  id: quizCourses.id,
  quizId: quizCourses.quizId,
  quizTitle: quizzes.title,
  courseId: quizCourses.courseId,
  courseTitle: courses.title,
  opensAt: quizCourses.opensAt,
  // One person's window: the query left-joins `ownQuizExtension` on them (the viewer, or an author).
  closesAt: ownQuizWindow.closesAt,
  timeLimitMinutes: ownQuizWindow.timeLimitMinutes,
  scoresVisibleAt: quizCourses.scoresVisibleAt,
  answersVisibleAt: quizCourses.answersVisibleAt,
  extended: ownQuizWindow.extended,
  isEditor: isMember(courseEditors),
  isStudent: isMember(courseStudents),
};

const quizStatement = statementCache(
  () => 'quiz_by_id',
  (db, _key: null, name) =>
    prepareSelect(
      db,
      db
        .select()
        .from(quizzes)
        .where(eq(quizzes.id, sql.placeholder('id')))
        .limit(1),
      name,
    ),
);

export async function findQuiz(db: Executor, id: number): Promise<QuizRow | null> {
  const rows = await quizStatement(db, null).execute({ id });
  return rows[0] ?? null;
}

export function listQuizzesByIds(db: Executor, ids: number[]): Promise<QuizRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.select().from(quizzes).where(inArray(quizzes.id, ids));
}

const quizCoursesStatement = statementCache(
  () => 'quiz_courses_of_quizzes',
  (db, _key: null, name) =>
    prepareSelect(
      db,
      db
        .select(quizCourseColumns)
        .from(quizCourses)
        .innerJoin(quizzes, eq(quizzes.id, quizCourses.quizId))
        .innerJoin(courses, eq(courses.id, quizCourses.courseId))
        .leftJoin(ownQuizExtension, ownQuizExtensionOn(viewerId))
        .where(inIntArray(quizCourses.quizId, sql.placeholder('ids')))
        .orderBy(asc(quizCourses.quizId), asc(quizCourses.opensAt), asc(quizCourses.id)),
      name,
    ),
);

/** Every course of the given quizzes, with the viewer's relation to each and their own window. */
export function listQuizCourses(db: Executor, quizIds: number[], userId: number): Promise<QuizCourseView[]> {
  if (quizIds.length === 0) return Promise.resolve([]);
  return quizCoursesStatement(db, null).execute({ ids: quizIds, userId });
}

/** The viewer edits at least one course of the quiz of the outer row. */
const editsQuizSql =
  sql<boolean>`exists (select 1 from ${quizCourses} as ${ident('x')} join ${courseEditors} as ${ident('e')} on ${ident('e')}.${ident('course_id')} = ${ident('x')}.${ident('course_id')} where ${ident('x')}.${ident('quiz_id')} = ${quizzes.id} and ${ident('e')}.${ident('user_id')} = ${viewerId})`.mapWith(
    Boolean,
  );
/** The columns of a `QuizCourseContext` (the query joins quizzes, courses, users and the viewer's attempt). */
export const contextColumns = {
  ...quizCourseColumns,
  quizDescription: quizzes.description,
  quizCreatedBy: quizzes.createdBy,
  quizVersion: sql<string>`${quizzes.updatedAt}::text`,
  editsQuiz: editsQuizSql,
  attemptId: quizSubmissions.id,
  attemptStartedAt: quizSubmissions.startedAt,
  attemptSubmittedAt: quizSubmissions.submittedAt,
  attemptScore: quizSubmissions.score,
  attemptMaxScore: quizSubmissions.maxScore,
  viewerEmail: users.email,
  viewerFirstName: users.firstName,
  viewerLastName: users.lastName,
};

/** `from quiz_courses` with what `contextColumns` reads. */
export function contextFrom(db: Executor) {
  return db
    .select(contextColumns)
    .from(quizCourses)
    .innerJoin(quizzes, eq(quizzes.id, quizCourses.quizId))
    .innerJoin(courses, eq(courses.id, quizCourses.courseId))
    .innerJoin(users, eq(users.id, viewerId))
    .leftJoin(ownQuizExtension, ownQuizExtensionOn(viewerId))
    .leftJoin(
      quizSubmissions,
      and(eq(quizSubmissions.quizCourseId, quizCourses.id), eq(quizSubmissions.userId, viewerId)),
    )
    .$dynamic();
}

type ContextRow = Awaited<ReturnType<ReturnType<typeof contextFrom>['execute']>>[number];

export function toContext(row: ContextRow, userId: number): QuizCourseContext {
  const {
    attemptId,
    attemptStartedAt,
    attemptSubmittedAt,
    attemptScore,
    attemptMaxScore,
    viewerEmail,
    viewerFirstName,
    viewerLastName,
    ...rest
  } = row;
  return {
    ...rest,
    attempt:
      attemptId === null || attemptStartedAt === null
        ? null
        : {
            id: attemptId,
            quizCourseId: row.id,
            userId,
            startedAt: attemptStartedAt,
            submittedAt: attemptSubmittedAt,
            score: attemptScore,
            maxScore: attemptMaxScore,
          },
    viewer: { id: userId, email: viewerEmail, firstName: viewerFirstName, lastName: viewerLastName },
  };
}

type ContextKey = 'id' | 'quiz_and_course';

const contextStatement = statementCache(
  (key: ContextKey) => `quiz_course_context_${key}`,
  (db, key: ContextKey, name) =>
    prepareSelect(
      db,
      contextFrom(db)
        .where(
          key === 'id'
            ? eq(quizCourses.id, sql.placeholder('quizCourseId'))
            : and(
                eq(quizCourses.quizId, sql.placeholder('quizId')),
                eq(quizCourses.courseId, sql.placeholder('courseId')),
              ),
        )
        .limit(1),
      name,
    ),
);

/** One quiz course by its id, or by its quiz and course; null when there is none. */
export async function findQuizCourseContext(
  db: Executor,
  where: { quizCourseId: number } | { quizId: number; courseId: number },
  userId: number,
): Promise<QuizCourseContext | null> {
  const rows =
    'quizCourseId' in where
      ? await contextStatement(db, 'id').execute({ quizCourseId: where.quizCourseId, userId })
      : await contextStatement(db, 'quiz_and_course').execute({ ...where, userId });
  return rows[0] ? toContext(rows[0], userId) : null;
}

const questionsStatement = statementCache(
  () => 'quiz_questions_of_quizzes',
  (db, _key: null, name) =>
    prepareSelect(
      db,
      db
        .select({
          id: quizQuestions.id,
          quizId: quizQuestions.quizId,
          position: quizQuestions.position,
          kind: quizQuestions.kind,
          prompt: quizQuestions.prompt,
          points: quizQuestions.points,
          shuffleOptions: quizQuestions.shuffleOptions,
          options: quizQuestions.options,
          answerKey: quizQuestions.answerKey,
          explanation: quizQuestions.explanation,
        })
        .from(quizQuestions)
        .where(inIntArray(quizQuestions.quizId, sql.placeholder('ids')))
        .orderBy(asc(quizQuestions.quizId), asc(quizQuestions.position), asc(quizQuestions.id)),
      name,
    ),
);

/** The questions of the given quizzes, in order. */
export async function listQuestions(db: Executor, quizIds: number[]): Promise<QuizQuestion[]> {
  if (quizIds.length === 0) return [];
  const rows = await questionsStatement(db, null).execute({ ids: quizIds });
  return rows.map(parseQuestionRow);
}

const questionCache = new WeakMap<Executor, Map<string, QuizQuestion[]>>();
const QUESTION_CACHE_SIZE = 64;

/**
 * The questions of one quiz at one version (`QuizCourseContext.quizVersion`), kept in memory: the
 * start of an exam reads the same questions a thousand times, and a version names one set of them
 * (replacing questions bumps `updated_at` in the same transaction; once anyone started they never
 * change). Shared between callers: never mutate what it returns.
 */
export async function listQuizQuestions(
  db: Executor,
  quizId: number,
  version: string,
): Promise<QuizQuestion[]> {
  let cached = questionCache.get(db);
  if (!cached) questionCache.set(db, (cached = new Map()));
  const key = `${quizId}@${version}`;
  const hit = cached.get(key);
  if (hit) return hit;
  const questions = await listQuestions(db, [quizId]);
  if (cached.size >= QUESTION_CACHE_SIZE) cached.delete(cached.keys().next().value!);
  cached.set(key, questions);
  return questions;
}

export interface QuestionTotals {
  count: number;
  points: number;
}

/** How many questions each quiz has and their points. */
export async function questionTotals(db: Executor, ids: number[]): Promise<Map<number, QuestionTotals>> {
  const totals = new Map<number, QuestionTotals>(ids.map((id) => [id, { count: 0, points: 0 }]));
  if (ids.length === 0) return totals;
  const rows = await db
    .select({
      quizId: quizQuestions.quizId,
      count: sql<number>`count(*)::int`.mapWith(Number),
      points: sql<number>`coalesce(sum(${quizQuestions.points}), 0)::int`.mapWith(Number),
    })
    .from(quizQuestions)
    .where(inArray(quizQuestions.quizId, ids))
    .groupBy(quizQuestions.quizId);
  for (const row of rows) totals.set(row.quizId, { count: row.count, points: row.points });
  return totals;
}

/** Attempts (started or submitted) per quiz, for the editor view's `submission_count`. */
export async function countAttemptsByQuiz(db: Executor, quizIds: number[]): Promise<Map<number, number>> {
  if (quizIds.length === 0) return new Map();
  const rows = await db
    .select({ quizId: quizCourses.quizId, n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(quizSubmissions)
    .innerJoin(quizCourses, eq(quizCourses.id, quizSubmissions.quizCourseId))
    .where(inArray(quizCourses.quizId, quizIds))
    .groupBy(quizCourses.quizId);
  return new Map(rows.map((r) => [r.quizId, r.n]));
}

/** Takes the quiz's row lock: changes to its questions and courses queue behind each other. */
export async function lockQuiz(db: Executor, id: number): Promise<boolean> {
  const rows = await db.select({ id: quizzes.id }).from(quizzes).where(eq(quizzes.id, id)).for('update');
  return rows.length > 0;
}

export async function insertQuiz(
  db: Executor,
  fields: { title: string; description: string; createdBy: number | null },
): Promise<QuizRow> {
  const [row] = await db.insert(quizzes).values(fields).returning();
  return row!;
}

export async function updateQuiz(
  db: Executor,
  id: number,
  fields: { title?: string; description?: string },
): Promise<boolean> {
  const rows = await db
    .update(quizzes)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(eq(quizzes.id, id))
    .returning({ id: quizzes.id });
  return rows.length > 0;
}

export async function deleteQuiz(db: Executor, id: number): Promise<boolean> {
  const rows = await db.delete(quizzes).where(eq(quizzes.id, id)).returning({ id: quizzes.id });
  return rows.length > 0;
}

/** Makes the quiz's questions exactly `questions` (new ids: only done before anyone started). */
export async function replaceQuestions(
  db: Executor,
  quizId: number,
  questions: NewQuestion[],
): Promise<void> {
  await db.delete(quizQuestions).where(eq(quizQuestions.quizId, quizId));
  if (questions.length === 0) return;
  await db.insert(quizQuestions).values(questions.map((q) => ({ ...q, quizId })));
}
