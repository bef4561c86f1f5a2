import type { QueryClient } from '@tanstack/react-query';
import type { Params } from 'react-router';
import { resolveAssessmentStudentTitle } from '../features/assessment/assessment.queries.ts';
import { resolveCourseTitle } from '../features/courses/courses.queries.ts';
import { resolveForumRecordTitle } from '../features/forum/forum.queries.ts';
import { registerTitleResolver, type TitleResolver } from './layout/breadcrumbs.ts';

type Resolver = (value: string, params: Params, queryClient: QueryClient) => Promise<string>;

/**
 * A resolver whose feature module loads when a breadcrumb first needs it: the shell does not carry
 * every feature's API calls and schemas (the page showing the object has loaded that module already).
 */
function onDemand(load: () => Promise<Resolver>): TitleResolver {
  return async (value, params, queryClient) => (await load())(value, params, queryClient);
}

/**
 * Breadcrumb titles for the path parameters of the route table. A feature whose pages show an object
 * (assignment_id, submission_id, forum_record_id, quiz_id, video_url, …) registers its resolver here.
 * The course's, the forum's (the side rail's unread count) and the assessment's (its route guard)
 * modules are in the shell already; the others load on demand.
 */
export function registerTitleResolvers(): void {
  registerTitleResolver('course_id', resolveCourseTitle);
  registerTitleResolver(
    'assignment_id',
    onDemand(
      async () => (await import('../features/assignments/assignments.queries.ts')).resolveAssignmentTitle,
    ),
  );
  registerTitleResolver(
    'submission_id',
    onDemand(
      async () => (await import('../features/submissions/submissions.queries.ts')).resolveSubmissionTitle,
    ),
  );
  registerTitleResolver(
    'quiz_id',
    onDemand(async () => (await import('../features/quizzes/quizzes.queries.ts')).resolveQuizTitle),
  );
  registerTitleResolver(
    'quiz_submission_id',
    onDemand(async () => (await import('../features/quizzes/quizzes.queries.ts')).resolveQuizSubmissionTitle),
  );
  registerTitleResolver('forum_record_id', resolveForumRecordTitle);
  registerTitleResolver(
    'video_url',
    onDemand(async () => (await import('../features/videos/videos.queries.ts')).resolveVideoTitle),
  );
  registerTitleResolver('user_id', resolveAssessmentStudentTitle);
}
