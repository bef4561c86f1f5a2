import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';

/*
 * What the gradebook reads beyond assessment.repo's columns and students: per student and assignment
 * the counted submission (the final one, else the best graded one), whether it was late, and how many
 * were made; per student and quiz the submitted score.
 */

const num = z.coerce.number();
const AssignmentCells = z.object({
  rows: z.array(
    z.object({
      user_id: num,
      item: num,
      attempts: num,
      score: num.nullable(),
      counted_late: z.boolean().nullable(),
      any_late: z.boolean(),
    }),
  ),
});
const QuizCells = z.object({ rows: z.array(z.object({ user_id: num, item: num, score: num.nullable() })) });

export interface CellFacts {
  attempts: number;
  score: number | null;
  late: boolean;
}

/** `${userId}:${item}` → what the student did; absent when they did nothing. */
export async function loadCells(db: Executor, courseId: number) {
  const [assignmentRows, quizRows] = await Promise.all([
    db.execute(sql`
      select s.user_id, s.assignment_id as item, count(*)::int as attempts,
        (array_agg(s.score order by s.is_final desc, s.score desc, s.id desc)
          filter (where s.status = 'Completed' and s.score is not null))[1]::float8 as score,
        (array_agg(s.is_late order by s.is_final desc, s.score desc, s.id desc)
          filter (where s.status = 'Completed' and s.score is not null))[1] as counted_late,
        bool_or(s.is_late) as any_late
      from submissions s
      where s.course_id = ${courseId} and not s.is_reference
      group by 1, 2`),
    db.execute(sql`
      select qs.user_id, qs.quiz_course_id as item, qs.score::float8 as score
      from quiz_submissions qs join quiz_courses qc on qc.id = qs.quiz_course_id
      where qc.course_id = ${courseId} and qs.submitted_at is not null`),
  ]);
  const assignments = new Map<string, CellFacts>();
  for (const r of AssignmentCells.parse(assignmentRows).rows) {
    assignments.set(`${r.user_id}:${r.item}`, {
      attempts: r.attempts,
      score: r.score,
      late: r.counted_late ?? r.any_late,
    });
  }
  const quizzes = new Map<string, CellFacts>();
  for (const r of QuizCells.parse(quizRows).rows) {
    quizzes.set(`${r.user_id}:${r.item}`, { attempts: 1, score: r.score ?? 0, late: false });
  }
  return { assignments, quizzes };
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
