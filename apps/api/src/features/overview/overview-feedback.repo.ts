import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { OVERVIEW_FEEDBACK_DAYS, OVERVIEW_FEEDBACK_LIMIT } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import { reviewedMax, reviewedTotal } from '../../db/review-score.ts';
import {
  counted,
  COURSE,
  date,
  daysFromNow,
  int,
  prepared,
  text,
  USER,
  type Counted,
  type StudentScope,
} from './overview.repo.ts';

/* What a student's course home reads of the teacher's review (docs/review.md): the feedback released lately. */

const FeedbackRow = z.object({
  submission_id: int,
  assignment_id: int,
  assignment_title: text,
  total_score: z.number(),
  max_score: z.number(),
  released_at: date,
  open_regrade_requests: int,
  answered_regrade_requests: int,
  total: int,
});
export type FeedbackRow = z.infer<typeof FeedbackRow>;

// The student's reviews through reviews_user_idx (a student has a handful per course), joined to their
// submission and its assignment's settings under the aliases db/review-score.ts reads (`rv`, `s`, `rvs`),
// so the total is the very one the gradebook counts. Regrade requests are counted per review through
// regrade_requests_course_idx (the course's, then the review's).
const newFeedback = prepared(
  'overview_new_feedback',
  sql`
    select f.*, g.open_regrade_requests, g.answered_regrade_requests, count(*) over ()::int as total
    from (
      select rv.id as review_id, s.id as submission_id, s.assignment_id, a.title as assignment_title,
             ${reviewedTotal} as total_score, ${reviewedMax}::float8 as max_score, rv.released_at
      from reviews rv
      join submissions s on s.id = rv.submission_id
      left join review_settings rvs on rvs.assignment_id = s.assignment_id
      join assignments a on a.id = s.assignment_id
      where rv.user_id = ${USER} and rv.course_id = ${COURSE}
        and rv.released_at is not null and rv.released_at > ${daysFromNow(-OVERVIEW_FEEDBACK_DAYS)}
        and not s.is_reference
    ) f
    cross join lateral (
      select count(*) filter (where rr.status = 'open')::int as open_regrade_requests,
             count(*) filter (where rr.status = 'answered')::int as answered_regrade_requests
      from regrade_requests rr
      where rr.course_id = ${COURSE} and rr.review_id = f.review_id
    ) g
    order by f.released_at desc, f.submission_id desc
    limit ${sql.raw(String(OVERVIEW_FEEDBACK_LIMIT))}`,
  FeedbackRow,
);

/**
 * The student's own submissions whose review was released within OVERVIEW_FEEDBACK_DAYS, newest first
 * (at most OVERVIEW_FEEDBACK_LIMIT), with the counted total and maximum and the regrade requests on each.
 */
export async function listNewFeedback(db: Executor, s: StudentScope): Promise<Counted<FeedbackRow>> {
  return counted(await newFeedback(db, { courseId: s.courseId, userId: s.userId }));
}
