import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  getAssignmentInCourse,
  getTotalScore,
  listCourseAssignments,
  listTestCases,
  type CourseAssignmentsParams,
} from './assignments.api.ts';

export const assignmentKeys = {
  all: ['assignments'] as const,
  lists: (courseId: number) => [...assignmentKeys.all, 'list', courseId] as const,
  list: (params: CourseAssignmentsParams) => [...assignmentKeys.lists(params.course_id), params] as const,
  detail: (assignmentId: number, courseId: number) =>
    [...assignmentKeys.all, 'detail', assignmentId, courseId] as const,
  totalScore: (assignmentId: number, courseId: number) =>
    [...assignmentKeys.all, 'totalScore', assignmentId, courseId] as const,
  testCases: (assignmentId: number, courseId: number) =>
    [...assignmentKeys.all, 'testCases', assignmentId, courseId] as const,
};

export function courseAssignmentsQuery(params: CourseAssignmentsParams) {
  return queryOptions({
    queryKey: assignmentKeys.list(params),
    queryFn: ({ signal }) => listCourseAssignments(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function assignmentQuery(assignmentId: number, courseId: number) {
  return queryOptions({
    queryKey: assignmentKeys.detail(assignmentId, courseId),
    queryFn: ({ signal }) => getAssignmentInCourse(assignmentId, courseId, signal),
  });
}

export function totalScoreQuery(assignmentId: number, courseId: number) {
  return queryOptions({
    queryKey: assignmentKeys.totalScore(assignmentId, courseId),
    queryFn: ({ signal }) => getTotalScore(assignmentId, courseId, signal),
  });
}

export function testCasesQuery(assignmentId: number, courseId: number) {
  return queryOptions({
    queryKey: assignmentKeys.testCases(assignmentId, courseId),
    queryFn: ({ signal }) => listTestCases(assignmentId, courseId, signal),
  });
}

/** Breadcrumb title of an assignment: the same query as its page, so the cache serves both. */
export async function resolveAssignmentTitle(
  value: string,
  params: Readonly<Record<string, string | undefined>>,
  queryClient: QueryClient,
) {
  const detail = await queryClient.ensureQueryData(assignmentQuery(Number(value), Number(params.course_id)));
  return detail.assignment.title;
}

/** An id from the URL: a positive integer, or null for anything else. */
export function parseId(value: string | undefined): number | null {
  if (value === undefined || !/^\d+$/.test(value)) return null;
  const id = Number(value);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}
