import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { MemberKind } from '@kadai/contracts';
import { getCourse, listCourses, listMembers, type CourseListParams } from './courses.api.ts';

export const courseKeys = {
  all: ['courses'] as const,
  lists: () => [...courseKeys.all, 'list'] as const,
  list: (params: CourseListParams) => [...courseKeys.lists(), params] as const,
  detail: (id: number) => [...courseKeys.all, 'detail', id] as const,
  members: (id: number, kind: MemberKind) => [...courseKeys.all, 'members', id, kind] as const,
};

export function courseListQuery(params: CourseListParams) {
  return queryOptions({
    queryKey: courseKeys.list(params),
    queryFn: ({ signal }) => listCourses(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function courseQuery(id: number) {
  return queryOptions({
    queryKey: courseKeys.detail(id),
    queryFn: ({ signal }) => getCourse(id, signal),
    staleTime: 60_000,
  });
}

export function membersQuery(id: number, kind: MemberKind) {
  return queryOptions({ queryKey: courseKeys.members(id, kind), queryFn: () => listMembers(kind, id) });
}

/** Breadcrumb title of a course; reads the cache first. */
export async function resolveCourseTitle(value: string, _params: unknown, queryClient: QueryClient) {
  const course = await queryClient.ensureQueryData(courseQuery(Number(value)));
  return course.title;
}

/** A course id from the URL: a positive integer, or null for anything else. */
export function parseCourseId(value: string | undefined): number | null {
  if (value === undefined || !/^\d+$/.test(value)) return null;
  const id = Number(value);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}
