import type { QuestionResult, QuizResults } from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { contentDisposition } from '../../lib/downloads.ts';
import { toCsv, type CsvCell } from '../submissions/csv-format.ts';
import { listCourseStudents, type StudentRow } from '../submissions/csv.service.ts';
import { getQuizCourseAccess, requireCourseManager } from './quiz-access.ts';
import { toQuizCourse } from './quiz-shape.ts';
import type { QuizQuestion } from './questions.ts';
import { totalPoints } from './scoring.ts';
import * as attempts from './attempts.repo.ts';
import type { AttemptRow } from './quizzes.repo.ts';
import * as repo from './quizzes.repo.ts';

/** Means and fractions with four decimals: enough for a table, stable in tests. */
const round = (x: number) => Math.round(x * 10_000) / 10_000;
const mean = (values: number[]) =>
  values.length === 0 ? null : round(values.reduce((s, v) => s + v, 0) / values.length);

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

/** How often each option was chosen: choice questions by option, true/false by `true`/`false`. */
function optionCounts(
  question: QuizQuestion,
  answers: attempts.StoredAnswer[],
): QuestionResult['option_counts'] {
  const chose = (id: string, answer: attempts.StoredAnswer['answer']) =>
    Array.isArray(answer) ? answer.includes(id) : answer === id;
  switch (question.kind) {
    case 'single':
    case 'multiple':
      return question.options.map((o) => ({
        option_id: o.id,
        text: o.text,
        count: answers.filter((a) => chose(o.id, a.answer)).length,
      }));
    case 'true_false':
      return [true, false].map((value) => ({
        option_id: String(value),
        text: value ? 'True' : 'False',
        count: answers.filter((a) => a.answer === value).length,
      }));
    default:
      return [];
  }
}

export interface ResultFigures {
  students: StudentRow[];
  /** Each student's attempt, if any. */
  attemptOf: Map<number, AttemptRow>;
  /** Points per question of each submitted attempt. */
  pointsOf: Map<number, Map<number, number>>;
  questions: QuizQuestion[];
  results: Omit<QuizResults, 'quiz_course'>;
}

/**
 * Figures over the submitted attempts of the course's current students (someone removed from the course
 * no longer counts). Facility index: the mean fraction of the question's points earned (for a question
 * worth 0 points, the fraction answered correctly).
 */
export function computeResults(
  questions: QuizQuestion[],
  students: StudentRow[],
  allAttempts: AttemptRow[],
  answers: attempts.StoredAnswer[],
): ResultFigures {
  const studentIds = new Set(students.map((s) => s.id));
  const attemptOf = new Map(allAttempts.filter((a) => studentIds.has(a.userId)).map((a) => [a.userId, a]));
  const submitted = [...attemptOf.values()].filter((a) => a.submittedAt !== null);
  const submittedIds = new Set(submitted.map((a) => a.id));
  const counted = answers.filter((a) => submittedIds.has(a.submissionId));
  const pointsOf = new Map<number, Map<number, number>>();
  for (const a of counted) {
    let row = pointsOf.get(a.submissionId);
    if (!row) pointsOf.set(a.submissionId, (row = new Map()));
    row.set(a.questionId, a.points);
  }
  const scores = submitted.map((a) => a.score ?? 0);
  const questionResults = questions.map((q): QuestionResult => {
    const mine = counted.filter((a) => a.questionId === q.id);
    return {
      question_id: q.id,
      position: q.position,
      kind: q.kind,
      prompt: q.prompt,
      points: q.points,
      answered: mine.length,
      correct: mine.filter((a) => a.isCorrect).length,
      mean_points: mean(mine.map((a) => a.points)),
      facility: mean(mine.map((a) => (q.points > 0 ? a.points / q.points : a.isCorrect ? 1 : 0))),
      option_counts: optionCounts(q, mine),
    };
  });
  return {
    students,
    attemptOf,
    pointsOf,
    questions,
    results: {
      student_count: students.length,
      submitted_count: submitted.length,
      max_score: totalPoints(questions),
      mean_score: mean(scores),
      median_score: median(scores),
      questions: questionResults,
      students: students.map((s) => {
        const a = attemptOf.get(s.id);
        return {
          user: { id: s.id, email: s.email, first_name: s.firstName, last_name: s.lastName },
          submission_id: a?.id ?? null,
          status: a ? (a.submittedAt ? 'submitted' : 'in_progress') : null,
          submitted_at: a?.submittedAt?.toISOString() ?? null,
          score: a?.submittedAt ? a.score : null,
        };
      }),
    },
  };
}

async function loadFigures(ctx: AppContext, actor: Actor, quizCourseId: number) {
  const access = await getQuizCourseAccess(ctx.db, actor, { quizCourseId });
  requireCourseManager(access);
  const c = access.context;
  const [students, allAttempts, questions] = await Promise.all([
    listCourseStudents(ctx.db, c.courseId),
    attempts.listQuizCourseAttempts(ctx.db, c.id),
    repo.listQuestions(ctx.db, [c.quizId]),
  ]);
  const answers = await attempts.listAnswers(
    ctx.db,
    allAttempts.filter((a) => a.submittedAt !== null).map((a) => a.id),
  );
  return { context: c, figures: computeResults(questions, students, allAttempts, answers) };
}

/** `GET quiz-courses/{id}/results/`: editors of the course and staff (its students 403, others 404). */
export async function getResults(ctx: AppContext, actor: Actor, quizCourseId: number): Promise<QuizResults> {
  const { context, figures } = await loadFigures(ctx, actor, quizCourseId);
  return { quiz_course: toQuizCourse(context, new Date()), ...figures.results };
}

export const RESULTS_CSV_HEADER = [
  'student_id',
  'email',
  'last_name',
  'first_name',
  'submission_id',
  'status',
  'started_at',
  'submitted_at',
  'score',
  'max_score',
] as const;

function fileNameOf(quizTitle: string, courseTitle: string): string {
  const clean = (text: string) =>
    text
      .replace(/[\\/:*?"<>|\p{Cc}]/gu, '_')
      .trim()
      .slice(0, 80);
  return `${clean(quizTitle)} - ${clean(courseTitle)} - quiz results.csv`;
}

/**
 * `GET quiz-courses/{id}/results/csv/`: one row per student of the course (submitted or not), then a
 * column per question (`q1`, `q2`, … in order) with the points earned; empty where nothing was submitted.
 */
export async function exportResultsCsv(
  ctx: AppContext,
  actor: Actor,
  quizCourseId: number,
): Promise<{ body: string; contentDisposition: string }> {
  const { context, figures } = await loadFigures(ctx, actor, quizCourseId);
  const maxScore = figures.results.max_score;
  const header = [...RESULTS_CSV_HEADER, ...figures.questions.map((_, i) => `q${i + 1}`)];
  const rows = figures.students.map((s): CsvCell[] => {
    const a = figures.attemptOf.get(s.id);
    const points = a && a.submittedAt ? figures.pointsOf.get(a.id) : undefined;
    return [
      s.id,
      s.email,
      s.lastName,
      s.firstName,
      a?.id ?? null,
      a ? (a.submittedAt ? 'submitted' : 'in_progress') : 'not_started',
      a?.startedAt.toISOString() ?? null,
      a?.submittedAt?.toISOString() ?? null,
      a?.submittedAt ? a.score : null,
      maxScore,
      ...figures.questions.map((q) => (points ? (points.get(q.id) ?? 0) : null)),
    ];
  });
  return {
    body: toCsv(header, rows),
    contentDisposition: contentDisposition(fileNameOf(context.quizTitle, context.courseTitle)),
  };
}
