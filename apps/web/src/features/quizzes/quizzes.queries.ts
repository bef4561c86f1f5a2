import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  getQuiz,
  getQuizContent,
  getQuizInCourse,
  getQuizResults,
  getQuizSubmission,
  listCourseQuizzes,
  type CourseQuizzesParams,
} from './quizzes.api.ts';
import { parseId } from '../assignments/assignments.queries.ts';

export const quizKeys = {
  all: ['quizzes'] as const,
  lists: (courseId: number) => [...quizKeys.all, 'list', courseId] as const,
  list: (params: CourseQuizzesParams) => [...quizKeys.lists(params.course_id), params] as const,
  inCourse: (quizId: number, courseId: number) => [...quizKeys.all, 'inCourse', quizId, courseId] as const,
  content: (quizId: number, courseId: number) => [...quizKeys.all, 'content', quizId, courseId] as const,
  quiz: (quizId: number) => [...quizKeys.all, 'quiz', quizId] as const,
  results: (quizCourseId: number) => [...quizKeys.all, 'results', quizCourseId] as const,
  submission: (id: number) => [...quizKeys.all, 'submission', id] as const,
};

export function courseQuizzesQuery(params: CourseQuizzesParams) {
  return queryOptions({
    queryKey: quizKeys.list(params),
    queryFn: ({ signal }) => listCourseQuizzes(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function quizInCourseQuery(quizId: number, courseId: number) {
  return queryOptions({
    queryKey: quizKeys.inCourse(quizId, courseId),
    queryFn: ({ signal }) => getQuizInCourse(quizId, courseId, signal),
  });
}

/** The questions; never retried: a 403 (not open, not started) is an answer, not a failure. */
export function quizContentQuery(quizId: number, courseId: number) {
  return queryOptions({
    queryKey: quizKeys.content(quizId, courseId),
    queryFn: ({ signal }) => getQuizContent(quizId, courseId, signal),
    retry: false,
    // Options are shuffled per student on the server; refetching must not reorder them under the reader.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

export function quizQuery(quizId: number) {
  return queryOptions({
    queryKey: quizKeys.quiz(quizId),
    queryFn: ({ signal }) => getQuiz(quizId, signal),
  });
}

export function quizResultsQuery(quizCourseId: number) {
  return queryOptions({
    queryKey: quizKeys.results(quizCourseId),
    queryFn: ({ signal }) => getQuizResults(quizCourseId, signal),
  });
}

export function quizSubmissionQuery(id: number) {
  return queryOptions({
    queryKey: quizKeys.submission(id),
    queryFn: ({ signal }) => getQuizSubmission(id, signal),
  });
}

/** Breadcrumb title of a quiz: the same query as its page, so the cache serves both. */
export async function resolveQuizTitle(
  value: string,
  params: Readonly<Record<string, string | undefined>>,
  queryClient: QueryClient,
) {
  const detail = await queryClient.ensureQueryData(
    quizInCourseQuery(Number(value), Number(params.course_id)),
  );
  return detail.title;
}

/** Breadcrumb title of a quiz submission: "#12 · Week 1 quiz". */
export async function resolveQuizSubmissionTitle(value: string, _params: unknown, queryClient: QueryClient) {
  const submission = await queryClient.ensureQueryData(quizSubmissionQuery(Number(value)));
  return `#${submission.id} · ${submission.quiz_title}`;
}

/**
 * What the quiz page asks for first, started when the page is opened from its address, beside the
 * page's code (app/page-data.ts): the quiz in its course. The same query the page then reads.
 */
export function prefetchQuizPage(
  queryClient: QueryClient,
  params: Readonly<Record<string, string>>,
  courseId: number,
): void {
  const quizId = parseId(params.quiz_id);
  if (quizId !== null) void queryClient.prefetchQuery(quizInCourseQuery(quizId, courseId));
}
