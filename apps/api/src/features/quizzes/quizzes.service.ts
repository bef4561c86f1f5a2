import type {
  Paginated,
  Quiz,
  QuizCourseInput,
  QuizCreate,
  QuizListQuery,
  QuizReplace,
  QuizUpdate,
} from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import {
  assertEditsCourses,
  getQuizAccess,
  requireManager,
  resolveQuizAccess,
  type QuizAccess,
} from './quiz-access.ts';
import { toNewQuestions, type NewQuestion } from './questions.ts';
import { toQuiz } from './quiz-shape.ts';
import * as lists from './quiz-lists.repo.ts';
import * as repo from './quizzes.repo.ts';
import { insertQuizCourses } from './quiz-courses.repo.ts';

export const quizCourseFields = (
  c: Omit<QuizCourseInput, 'course_id'> & { course_id: number },
): repo.QuizCourseFields => ({
  courseId: c.course_id,
  opensAt: new Date(c.opens_at),
  closesAt: new Date(c.closes_at),
  timeLimitMinutes: c.time_limit_minutes,
  scoresVisibleAt: c.scores_visible_at === null ? null : new Date(c.scores_visible_at),
  answersVisibleAt: c.answers_visible_at === null ? null : new Date(c.answers_visible_at),
});

/** The quizzes as their callers see them: managers get the questions with their keys. */
async function shapeQuizzes(db: Executor, accesses: QuizAccess[]): Promise<Quiz[]> {
  const ids = accesses.map((a) => a.quiz.id);
  const managed = accesses.filter((a) => a.canManage).map((a) => a.quiz.id);
  const [totals, questions, attempts] = await Promise.all([
    repo.questionTotals(db, ids),
    repo.listQuestions(db, managed),
    repo.countAttemptsByQuiz(db, managed),
  ]);
  const now = new Date();
  return accesses.map((access) =>
    toQuiz(
      access,
      totals.get(access.quiz.id)!,
      {
        questions: questions.filter((q) => q.quizId === access.quiz.id),
        attempts: attempts.get(access.quiz.id) ?? 0,
      },
      now,
    ),
  );
}

async function quizOut(db: Executor, actor: Actor, id: number): Promise<Quiz> {
  const [quiz] = await shapeQuizzes(db, [await getQuizAccess(db, actor, id)]);
  return quiz!;
}

export function getQuiz(ctx: AppContext, actor: Actor, id: number): Promise<Quiz> {
  return quizOut(ctx.db, actor, id);
}

/**
 * Writes a quiz, its questions and its courses, checking nothing: createQuiz checks the caller first, and
 * the demo seed and bench:quiz write quizzes of their own. Run it in the caller's transaction. Returns the
 * quiz and the ids of the quiz courses it made.
 */
export async function insertQuizWithCourses(
  db: Executor,
  fields: { title: string; description: string; createdBy: number | null },
  questions: NewQuestion[],
  courses: repo.QuizCourseFields[],
): Promise<{ quiz: repo.QuizRow; quizCourseIds: number[] }> {
  const quiz = await repo.insertQuiz(db, fields);
  await repo.replaceQuestions(db, quiz.id, questions);
  const quizCourseIds = await insertQuizCourses(db, quiz.id, courses);
  return { quiz, quizCourseIds };
}

/** `POST Quiz/`: the caller must edit every course listed (staff: every existing course). */
export async function createQuiz(ctx: AppContext, actor: Actor, input: QuizCreate): Promise<Quiz> {
  const questions = toNewQuestions(input.questions);
  return ctx.db.transaction(async (tx) => {
    await assertEditsCourses(
      tx,
      actor,
      input.courses.map((c) => c.course_id),
    );
    const { quiz } = await insertQuizWithCourses(
      tx,
      { title: input.title, description: input.description, createdBy: actor.userId },
      questions,
      input.courses.map(quizCourseFields),
    );
    return quizOut(tx, actor, quiz.id);
  });
}

export const questionsLocked = (attempts: number) =>
  conflict(
    `Students have started or submitted this quiz ${attempts} time(s); its questions can no longer change, so that stored scores stay true.`,
    'questions_locked',
    { questions: ['The questions are locked once anyone has started the quiz.'] },
  );

/** PUT (title, description, questions) and PATCH (any of them); new questions only before any attempt. */
export async function updateQuiz(
  ctx: AppContext,
  actor: Actor,
  id: number,
  input: QuizUpdate | QuizReplace,
): Promise<Quiz> {
  const questions = input.questions ? toNewQuestions(input.questions) : null;
  return ctx.db.transaction(async (tx) => {
    const access = await getQuizAccess(tx, actor, id);
    requireManager(access);
    await repo.lockQuiz(tx, id);
    if (questions) {
      const attempts = async () => (await repo.countAttemptsByQuiz(tx, [id])).get(id) ?? 0;
      const before = await attempts();
      if (before > 0) throw questionsLocked(before);
      await repo.replaceQuestions(tx, id, questions);
      // A submission in flight while we counted holds its questions (foreign keys): deleting them waited
      // for it to commit, and counting again now sees it, so its answers are never deleted with them.
      // One that had not stored its answers yet fails on the missing questions instead (409 quiz_changed).
      const after = await attempts();
      if (after > 0) throw questionsLocked(after);
    }
    if (!(await repo.updateQuiz(tx, id, { title: input.title, description: input.description }))) {
      throw notFound();
    }
    return quizOut(tx, actor, id);
  });
}

/**
 * Managers delete, when it is theirs in every course it is given in (staff: always). Students' attempts
 * and answers go with it, so a quiz anyone has started is deleted by staff only (409 for others).
 */
export async function deleteQuiz(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const access = await getQuizAccess(tx, actor, id);
    requireManager(access);
    await repo.lockQuiz(tx, id);
    if (!actor.isStaff) {
      if (access.links.some((l) => !l.isEditor)) {
        throw forbidden(
          'This quiz is also given in courses you do not edit; remove your courses from it instead.',
        );
      }
      const attempts = (await repo.countAttemptsByQuiz(tx, [id])).get(id) ?? 0;
      if (attempts > 0) {
        throw conflict(
          `Students have started or submitted this quiz ${attempts} time(s); only staff can delete it.`,
          'has_submissions',
        );
      }
    }
    if (!(await repo.deleteQuiz(tx, id))) throw notFound();
  });
}

const MAX_ID = 2_147_483_647;

/** `GET Quiz/` and `GET quizzes/`. */
export async function listQuizzes(
  ctx: AppContext,
  actor: Actor,
  query: QuizListQuery,
): Promise<Paginated<Quiz>> {
  const courseIds = query.courses?.split(',').map(Number);
  if (courseIds?.some((id) => id < 1 || id > MAX_ID)) {
    throw badRequest('Invalid input.', { courses: ['Not a course id.'] });
  }
  const { count, ids } = await lists.listVisibleQuizIds(ctx.db, actor, {
    courseIds,
    search: query.search || undefined,
    ordering: query.ordering,
    limit: query.limit,
    offset: query.offset,
  });
  const [rows, links] = await Promise.all([
    repo.listQuizzesByIds(ctx.db, ids),
    repo.listQuizCourses(ctx.db, ids, actor.userId),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const accesses = ids.flatMap((id) => {
    const row = byId.get(id);
    const access =
      row &&
      resolveQuizAccess(
        actor,
        row,
        links.filter((l) => l.quizId === id),
      );
    return access ? [access] : [];
  });
  return { count, limit: query.limit, offset: query.offset, results: await shapeQuizzes(ctx.db, accesses) };
}
