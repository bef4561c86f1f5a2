import type { Gradebook, GradebookCell, GradebookColumn } from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import type { Executor } from '../../db/client.ts';
import { forbidden } from '../../lib/errors.ts';
import { canManageCourse, getCourseRole } from '../courses/courses.service.ts';
import { toCsv, type CsvCell } from '../submissions/csv-format.ts';
import * as repo from './assessment.repo.ts';
import { loadCells, loadExtensions, type CellFacts } from './gradebook.repo.ts';

/**
 * The gradebook (docs/assessment.md, "Gradebook"): one row per student of the course, one column per
 * assignment and quiz in order of due date. A cell holds the final submission's score, else the best
 * graded one's (as the assessment table and the submissions CSV count), flags late and missing work,
 * and the row its total. Editors of the course and staff; a student of it gets 403, anyone else 404.
 */
export async function getGradebook(ctx: AppContext, actor: Actor, courseId: number): Promise<Gradebook> {
  const role = await getCourseRole(ctx.db, actor, courseId);
  if (!canManageCourse(role)) throw forbidden('Only editors of the course and staff see the gradebook.');
  const [work, students, cells, extensions] = await Promise.all([
    repo.loadWork(ctx.db, courseId),
    repo.loadStudents(ctx.db, courseId),
    loadCells(ctx.db, courseId),
    loadExtensions(ctx.db, courseId),
  ]);
  type Column = GradebookColumn & {
    facts: Map<string, CellFacts>;
    own: Map<string, Date | null>;
    /** The due date in milliseconds, parsed once rather than once per cell. */
    dueAt: number;
  };
  const columns: Column[] = [
    ...work.assignments.map((c) => ({
      ...c,
      kind: 'assignment' as const,
      facts: cells.assignments,
      own: extensions.assignments,
    })),
    ...work.quizzes.map((c) => ({
      ...c,
      kind: 'quiz' as const,
      facts: cells.quizzes,
      own: extensions.quizzes,
    })),
  ]
    .sort((a, b) => a.dueAt - b.dueAt || a.kind.localeCompare(b.kind) || a.id - b.id)
    .map((c) => ({
      key: `${c.kind === 'assignment' ? 'a' : 'q'}${c.id}`,
      kind: c.kind,
      id: c.id,
      item_id: c.itemId,
      title: c.title,
      due_at: new Date(c.dueAt).toISOString(),
      max_score: c.maxScore,
      facts: c.facts,
      own: c.own,
      dueAt: c.dueAt,
    }));
  const now = Date.now();
  const rows = students.map((user) => {
    const row: GradebookCell[] = columns.map((column) => {
      const key = `${user.id}:${column.id}`;
      const facts = column.facts.get(key);
      const extended = column.own.has(key);
      // The student's own due date with an extension (null there: extra quiz minutes only).
      const dueAt = column.own.get(key)?.getTime() ?? column.dueAt;
      return {
        score: facts?.score ?? null,
        attempts: facts?.attempts ?? 0,
        late: facts?.late ?? false,
        missing: !facts && dueAt < now,
        extended,
      };
    });
    return {
      user,
      cells: row,
      total: row.reduce((sum, cell) => sum + (cell.score ?? 0), 0),
      late: row.filter((cell) => cell.late).length,
      missing: row.filter((cell) => cell.missing).length,
    };
  });
  return {
    course_id: courseId,
    columns: columns.map(({ facts: _facts, own: _own, dueAt: _dueAt, ...column }) => column),
    rows,
    max_total: columns.reduce((sum, column) => sum + column.max_score, 0),
  };
}

/**
 * The gradebook as CSV for spreadsheets (UTF-8 with a byte-order mark, CRLF, formula-safe: see
 * csv-format.ts): student_id, email, last_name, first_name, then per column its score (empty when none),
 * then total, late, missing. A header names each column by its title, kind and maximum (`Week 1
 * (assignment /10)`); the flags are counted in their own columns, so the score cells stay numbers.
 */
export async function gradebookCsv(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
): Promise<{ body: string; filename: string }> {
  const book = await getGradebook(ctx, actor, courseId);
  const header = [
    'student_id',
    'email',
    'last_name',
    'first_name',
    ...book.columns.map((c) => `${c.title} (${c.kind} /${c.max_score})`),
    `total (/${book.max_total})`,
    'late',
    'missing',
  ];
  const rows: CsvCell[][] = book.rows.map((row) => [
    row.user.id,
    row.user.email,
    row.user.last_name,
    row.user.first_name,
    ...row.cells.map((cell) => cell.score),
    row.total,
    row.late,
    row.missing,
  ]);
  return { body: toCsv(header, rows), filename: `gradebook-course-${courseId}.csv` };
}

/*
 * What grade passback to an LMS reads (features/lti): the course's assignments and quizzes with their
 * maximum, and each student's score as the gradebook counts it, so the LMS shows the same number.
 */
export { loadItemScores } from './gradebook.repo.ts';
export const listCourseWork = (db: Executor, courseId: number) => repo.loadWork(db, courseId);
