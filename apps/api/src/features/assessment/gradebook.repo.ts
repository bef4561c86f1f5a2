import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { countedScore, hasCountedScore, reviewJoins } from '../../db/review-score.ts';

/*
 * What the gradebook reads beyond assessment.repo's columns and students: per student and assignment
 * the counted submission (the final one, else the best graded one; a released review's total counts
 * for its submission: db/review-score.ts), whether it was late, and how many
 * were made; per student and quiz the submitted score.
 */

const num = z.coerce.number();
/** JSON numbers need no coercion: checked as they are, 12,000 cells at a time. */
const int = z.number().int();
/** `[user_id, item, attempts, score, counted_late, any_late]` per student and assignment. */
const AssignmentCells = z.object({
  rows: z.tuple([
    z.object({
      cells: z.array(z.tuple([int, int, int, z.number().nullable(), z.boolean().nullable(), z.boolean()])),
    }),
  ]),
});
/** `[user_id, item, score]` per student and quiz. */
const QuizCells = z.object({
  rows: z.tuple([z.object({ cells: z.array(z.tuple([int, int, z.number().nullable()])) })]),
});

export interface CellFacts {
  attempts: number;
  score: number | null;
  late: boolean;
}

/**
 * The counted submission of each student and assignment (the final one, else the best graded one) as
 * one JSON array: the one rule every reader of scores shares (the gradebook, LTI grade passback).
 */
const assignmentCells = (courseId: number, assignmentId?: number) => sql`
  select coalesce(json_agg(json_build_array(c.user_id, c.item, c.attempts, c.score, c.counted_late, c.any_late)), '[]') as cells
  from (
    select s.user_id, s.assignment_id as item, count(*)::int as attempts,
      (array_agg(${countedScore} order by s.is_final desc, ${countedScore} desc nulls last, s.id desc)
        filter (where ${hasCountedScore}))[1]::float8 as score,
      (array_agg(s.is_late order by s.is_final desc, ${countedScore} desc nulls last, s.id desc)
        filter (where ${hasCountedScore}))[1] as counted_late,
      bool_or(s.is_late) as any_late
    from submissions s ${reviewJoins(true)}
    where s.course_id = ${courseId} and not s.is_reference
      ${assignmentId === undefined ? sql`` : sql`and s.assignment_id = ${assignmentId}`}
    group by 1, 2) c`;

/** Each student's submitted quiz score, by quiz of the course. */
const quizCells = (courseId: number, quizCourseId?: number) => sql`
  select coalesce(json_agg(json_build_array(qs.user_id, qs.quiz_course_id, qs.score::float8)), '[]') as cells
  from quiz_submissions qs join quiz_courses qc on qc.id = qs.quiz_course_id
  where qc.course_id = ${courseId} and qs.submitted_at is not null
    ${quizCourseId === undefined ? sql`` : sql`and qs.quiz_course_id = ${quizCourseId}`}`;

/**
 * `${userId}:${item}` → what the student did; absent when they did nothing.
 *
 * Each kind comes back as one JSON value, not a row per student and item: a course of 300 students and
 * 40 items has 12,000 cells, and PGlite hands a row to JavaScript at a cost per row and field (the
 * assignments' 6,300 rows took 85–600 ms on a loaded box, their one JSON array 35 ms: issue 36).
 */
export async function loadCells(db: Executor, courseId: number) {
  const [assignmentRows, quizRows] = await Promise.all([
    db.execute(assignmentCells(courseId)),
    db.execute(quizCells(courseId)),
  ]);
  const assignments = new Map<string, CellFacts>();
  for (const [userId, item, attempts, score, countedLate, anyLate] of AssignmentCells.parse(assignmentRows)
    .rows[0].cells) {
    assignments.set(`${userId}:${item}`, { attempts, score, late: countedLate ?? anyLate });
  }
  const quizzes = new Map<string, CellFacts>();
  for (const [userId, item, score] of QuizCells.parse(quizRows).rows[0].cells) {
    quizzes.set(`${userId}:${item}`, { attempts: 1, score: score ?? 0, late: false });
  }
  return { assignments, quizzes };
}

/**
 * The score each student has for one assignment or quiz of the course, as the gradebook counts it
 * (students who have none are left out).
 */
export async function loadItemScores(
  db: Executor,
  courseId: number,
  kind: 'assignment' | 'quiz',
  itemId: number,
): Promise<Map<number, number>> {
  const scores = new Map<number, number>();
  if (kind === 'assignment') {
    const result = AssignmentCells.parse(await db.execute(assignmentCells(courseId, itemId)));
    for (const [userId, , , score] of result.rows[0].cells) if (score !== null) scores.set(userId, score);
  } else {
    const result = QuizCells.parse(await db.execute(quizCells(courseId, itemId)));
    for (const [userId, , score] of result.rows[0].cells) scores.set(userId, score ?? 0);
  }
  return scores;
}

const ExtensionRows = z.object({
  rows: z.array(
    z.object({ kind: z.enum(['a', 'q']), user_id: num, item: num, due_at: z.coerce.date().nullable() }),
  ),
});

/**
 * The course's per-student extensions (docs/extensions.md), keyed like the cells: `${userId}:${item}` →
 * the student's own due date or closing time (null: the course's, as with extra quiz minutes only).
 */
export async function loadExtensions(db: Executor, courseId: number) {
  const result = await db.execute(sql`
    select 'a' as kind, x.user_id, x.assignment_id as item, x.due_at
    from assignment_extensions x where x.course_id = ${courseId}
    union all
    select 'q' as kind, x.user_id, x.quiz_course_id as item, x.closes_at as due_at
    from quiz_extensions x join quiz_courses qc on qc.id = x.quiz_course_id
    where qc.course_id = ${courseId}`);
  const assignments = new Map<string, Date | null>();
  const quizzes = new Map<string, Date | null>();
  for (const r of ExtensionRows.parse(result).rows) {
    (r.kind === 'a' ? assignments : quizzes).set(`${r.user_id}:${r.item}`, r.due_at);
  }
  return { assignments, quizzes };
}
