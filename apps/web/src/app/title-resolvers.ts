import { resolveAssessmentStudentTitle } from '../features/assessment/assessment.queries.ts';
import { resolveAssignmentTitle } from '../features/assignments/assignments.queries.ts';
import { resolveCourseTitle } from '../features/courses/courses.queries.ts';
import { resolveForumRecordTitle } from '../features/forum/forum.queries.ts';
import { resolveQuizSubmissionTitle, resolveQuizTitle } from '../features/quizzes/quizzes.queries.ts';
import { resolveSubmissionTitle } from '../features/submissions/submissions.queries.ts';
import { resolveVideoTitle } from '../features/videos/videos.queries.ts';
import { registerTitleResolver } from './layout/breadcrumbs.ts';

/**
 * Breadcrumb titles for the path parameters of the route table. A feature whose pages show an object
 * (assignment_id, submission_id, forum_record_id, quiz_id, video_url, …) registers its resolver here.
 */
export function registerTitleResolvers(): void {
  registerTitleResolver('course_id', resolveCourseTitle);
  registerTitleResolver('assignment_id', resolveAssignmentTitle);
  registerTitleResolver('submission_id', resolveSubmissionTitle);
  registerTitleResolver('quiz_id', resolveQuizTitle);
  registerTitleResolver('quiz_submission_id', resolveQuizSubmissionTitle);
  registerTitleResolver('forum_record_id', resolveForumRecordTitle);
  registerTitleResolver('video_url', resolveVideoTitle);
  registerTitleResolver('user_id', resolveAssessmentStudentTitle);
}
