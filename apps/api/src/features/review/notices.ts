import type { Executor } from '../../db/client.ts';
import { links, notifyEach } from '../notifications/notify.service.ts';
import type { ReleasedReview } from './reviews.repo.ts';

/* What manual grading tells people (docs/notifications.md, "Events"). */

/**
 * Released feedback, to each student, in one statement for the whole release. The key holds a digest of
 * what the student reads, so retracting and releasing the same feedback again tells nobody twice, while
 * a release after the grading changed does.
 */
export function tellOfFeedback(
  tx: Executor,
  released: readonly ReleasedReview[],
  assignment: { courseId: number; title: string },
  actorId: number,
): Promise<number> {
  return notifyEach(
    tx,
    released.map((review) => ({
      kind: 'feedback_released' as const,
      key: `feedback:${review.reviewId}:${review.contentDigest}`,
      courseId: assignment.courseId,
      link: links.submission(assignment.courseId, review.submissionId),
      facts: { title: assignment.title },
      to: { users: [review.userId] },
      actorId,
    })),
  );
}
