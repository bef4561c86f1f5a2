import {
  Course,
  CourseList,
  MemberAddResult,
  MemberList,
  MemberRemoveResult,
  type CourseCreate,
  type CourseOrdering,
  type CourseUpdate,
  type MemberAddRequest,
  type MemberKind,
  type MemberRemoveRequest,
} from '@kadai/contracts';
import { apiCall } from '../../api/client.ts';

export interface CourseListParams {
  limit: number;
  offset: number;
  ordering: CourseOrdering;
  search?: string;
}

type CourseId = number | null | undefined;

export function listCourses(query: CourseListParams, signal?: AbortSignal) {
  return apiCall('listCourses', 'GET', '/Course/', { query: { ...query }, response: CourseList, signal });
}

export function getCourse(id: CourseId, signal?: AbortSignal) {
  return apiCall('getCourse', 'GET', '/Course/{id}/', { path: { id }, response: Course, signal });
}

export function createCourse(body: CourseCreate) {
  return apiCall('createCourse', 'POST', '/Course/', { body, response: Course });
}

export function updateCourse(id: CourseId, body: CourseUpdate) {
  return apiCall('updateCourse', 'PATCH', '/Course/{id}/', { path: { id }, body, response: Course });
}

export function deleteCourse(id: CourseId) {
  return apiCall('deleteCourse', 'DELETE', '/Course/{id}/', { path: { id } });
}

const MEMBER_PATHS = { editor: '/EditorList/{course_id}/', student: '/StudentList/{course_id}/' } as const;

export function listMembers(kind: MemberKind, courseId: CourseId) {
  return apiCall(`list${kind === 'editor' ? 'Editors' : 'Students'}`, 'GET', MEMBER_PATHS[kind], {
    path: { course_id: courseId },
    response: MemberList,
  });
}

export function addMembers(kind: MemberKind, courseId: CourseId, body: Partial<MemberAddRequest>) {
  return apiCall(`add${kind === 'editor' ? 'Editors' : 'Students'}`, 'POST', MEMBER_PATHS[kind], {
    path: { course_id: courseId },
    body,
    response: MemberAddResult,
  });
}

/** Removes members (`user_ids`) and pending institutional ids (`pending_ids`) from the list. */
export function removeMembers(kind: MemberKind, courseId: CourseId, body: Partial<MemberRemoveRequest>) {
  return apiCall(`remove${kind === 'editor' ? 'Editors' : 'Students'}`, 'DELETE', MEMBER_PATHS[kind], {
    path: { course_id: courseId },
    body,
    response: MemberRemoveResult,
  });
}
