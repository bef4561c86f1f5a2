import { useParams } from 'react-router';
import { useSession } from '../auth/session.ts';
import { parseId } from '../assignments/assignments.queries.ts';
import { canManageCourse } from '../courses/course-access.ts';
import { useCourse } from '../courses/useCourse.ts';
import type { AssignmentRef } from './review.api.ts';

/**
 * The course, the assignment and the submission a review page is about, and whether the reader may
 * see it: editors of the course and staff (the API answers 403 to students; the pages say NotFound).
 */
export function useReviewPage() {
  const course = useCourse();
  const isStaff = useSession((s) => s.is_staff);
  const params = useParams();
  const assignmentId = parseId(params.assignment_id);
  const ref: AssignmentRef = { courseId: course.id, assignmentId: assignmentId ?? 0 };
  return {
    course,
    ref,
    assignmentId,
    submissionId: parseId(params.submission_id),
    isEditor: canManageCourse(course, isStaff),
  };
}
