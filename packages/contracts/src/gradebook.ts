import { z } from 'zod';
import { CourseIdParams } from './common.ts';
import { UserSummary } from './users.ts';

/** One assignment or quiz of the course: a column of the gradebook, in order of due date. */
export const GradebookColumn = z
  .object({
    /** `a<assignment id>` or `q<quiz-course id>`: unique within the gradebook. */
    key: z.string(),
    kind: z.enum(['assignment', 'quiz']),
    /** The assignment's id, or the quiz's id in this course (its quiz-course). */
    id: z.number().int(),
    /** The assignment's id or the quiz's id: what an extension names (docs/extensions.md). */
    item_id: z.number().int(),
    title: z.string(),
    /** The due date (assignments) or the closing time (quizzes). */
    due_at: z.iso.datetime(),
    max_score: z.number(),
  })
  .meta({ id: 'GradebookColumn' });
export type GradebookColumn = z.infer<typeof GradebookColumn>;

/** One student's result for one column. */
export const GradebookCell = z
  .object({
    /** The final submission's score, else the best graded one's; a quiz's score; null when none. */
    score: z.number().nullable(),
    /** Submissions made (quizzes: 0 or 1). */
    attempts: z.number().int(),
    /** The counted submission came after the due date (or, with none graded yet, one did). */
    late: z.boolean(),
    /** Nothing submitted and the due date (the student's own, with an extension) has passed. */
    missing: z.boolean(),
    /** The student has their own dates for this item (docs/extensions.md). */
    extended: z.boolean(),
  })
  .meta({ id: 'GradebookCell' });
export type GradebookCell = z.infer<typeof GradebookCell>;

export const GradebookRow = z
  .object({
    user: UserSummary,
    /** One per column, in the columns' order. */
    cells: z.array(GradebookCell),
    /** The sum of the scores (a missing one counts 0). */
    total: z.number(),
    late: z.number().int(),
    missing: z.number().int(),
  })
  .meta({ id: 'GradebookRow' });
export type GradebookRow = z.infer<typeof GradebookRow>;

/** Every student of a course against every assignment and quiz (its editors and staff). */
export const Gradebook = z
  .object({
    course_id: z.number().int(),
    columns: z.array(GradebookColumn),
    rows: z.array(GradebookRow),
    /** The sum of the columns' maximum scores. */
    max_total: z.number(),
  })
  .meta({ id: 'Gradebook' });
export type Gradebook = z.infer<typeof Gradebook>;

export const GradebookParams = CourseIdParams;
