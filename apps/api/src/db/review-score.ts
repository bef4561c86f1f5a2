import { sql, type SQL } from 'drizzle-orm';

/*
 * A submission's score with its teacher's review (docs/review.md, "Score"), written once for every
 * reader: the gradebook and its CSV, grade passback to an LMS, the grading queue, the review itself
 * and the student's feedback. A query joins
 *   `reviews rv` on the submission (only released ones where students' numbers are made) and
 *   `review_settings rvs` on its assignment,
 * with the submission as `s`, and reads `reviewedTotal` (or `countedScore`, which is the weighted
 * autograder's score where no review is joined). No settings row: weights 1, rubric maximum 0.
 */

/** The two left joins, for a submission aliased `s`; `released` keeps only reviews students may see. */
export const reviewJoins = (released: boolean): SQL => sql`
  left join reviews rv on rv.submission_id = s.id ${released ? sql`and rv.released_at is not null` : sql``}
  left join review_settings rvs on rvs.assignment_id = s.assignment_id`;

const autogradeWeight = sql`coalesce(rvs.autograde_weight, 1)`;
const rubricWeight = sql`coalesce(rvs.rubric_weight, 1)`;

/** The most a reviewed submission can count: the weighted autograder maximum and the rubric's own. */
export const reviewedMax = sql`(${autogradeWeight} * coalesce(s.max_score, 0) + ${rubricWeight} * coalesce(rvs.rubric_max, 0))`;

/** weights × parts, kept within 0 and the maximum; rounded to hundredths like the points it adds. */
export const reviewedTotal = sql`round(least(greatest(
    ${autogradeWeight} * coalesce(s.score, 0) + ${rubricWeight} * (rv.rubric_points + rv.adjustment), 0),
    ${reviewedMax})::numeric, 2)::float8`;

/**
 * The score that counts: with a joined review its total, else the autograder's weighed as the review
 * would (so every student of an assignment counts on the same scale, reviewed or not).
 */
export const countedScore = sql`(case when rv.id is not null then ${reviewedTotal}
  else round((${autogradeWeight} * s.score)::numeric, 2)::float8 end)`;

/** Whether the submission has a score to count: graded by the autograder, or reviewed. */
export const hasCountedScore = sql`((s.status = 'Completed' and s.score is not null) or rv.id is not null)`;

/** An assignment's column maximum, for a query with `a` (assignments) and the test-case sum `auto`. */
export const assignmentMax = (autoMax: SQL) => sql`(
  coalesce((select rs.autograde_weight from review_settings rs where rs.assignment_id = a.id), 1) * ${autoMax}
  + coalesce((select rs.rubric_weight * rs.rubric_max from review_settings rs where rs.assignment_id = a.id), 0))`;
