import {
  Assignment,
  AssignmentCourseDetail,
  AssignmentFileList,
  AssignmentInCourseList,
  ReferenceRunResponse,
  TestCase,
  TestCaseList,
  TotalScore,
  type AssignmentCreate,
  type AssignmentUpdate,
  type CourseSpecificQuery,
  type TestCaseCreate,
  type TestCaseUpdate,
} from '@kadai/contracts';
import { apiCall } from '../../api/client.ts';

type Id = number | null | undefined;

export type CourseAssignmentsParams = Pick<CourseSpecificQuery, 'course_id' | 'ordering' | 'search'>;

export function listCourseAssignments(params: CourseAssignmentsParams, signal?: AbortSignal) {
  return apiCall('listCourseAssignments', 'GET', '/Assignment/CourseSpecific/', {
    query: { ...params },
    response: AssignmentInCourseList,
    signal,
  });
}

export function getAssignmentInCourse(assignmentId: Id, courseId: Id, signal?: AbortSignal) {
  return apiCall('getAssignmentInCourse', 'GET', '/Assignment/{id}/CourseSpecificDetail/', {
    path: { id: assignmentId },
    query: { course_id: courseId },
    response: AssignmentCourseDetail,
    signal,
  });
}

export function createAssignment(body: AssignmentCreate) {
  return apiCall('createAssignment', 'POST', '/Assignment/', { body, response: Assignment });
}

export function updateAssignment(id: Id, body: AssignmentUpdate) {
  return apiCall('updateAssignment', 'PATCH', '/Assignment/{id}/', {
    path: { id },
    body,
    response: Assignment,
  });
}

export function deleteAssignment(id: Id) {
  return apiCall('deleteAssignment', 'DELETE', '/Assignment/{id}/', { path: { id } });
}

export function getTotalScore(assignmentId: Id, courseId: Id, signal?: AbortSignal) {
  return apiCall('getTotalScore', 'GET', '/Assignment/{id}/total_score/', {
    path: { id: assignmentId },
    query: { course_id: courseId },
    response: TotalScore,
    signal,
  });
}

/* ─── Attachments ─── */

const ATTACHMENTS = '/Assignment/{assignment_id}/{course_id}/FileUpload/';

export function listAttachments(assignmentId: Id, courseId: Id, signal?: AbortSignal) {
  return apiCall('listAttachments', 'GET', ATTACHMENTS, {
    path: { assignment_id: assignmentId, course_id: courseId },
    response: AssignmentFileList,
    signal,
  });
}

/** One multipart request with every chosen file; answers the files it added. */
export function uploadAttachments(assignmentId: Id, courseId: Id, files: readonly File[]) {
  const body = new FormData();
  for (const file of files) body.append('files', file, file.name);
  return apiCall('uploadAttachments', 'POST', ATTACHMENTS, {
    path: { assignment_id: assignmentId, course_id: courseId },
    body,
    response: AssignmentFileList,
  });
}

export function deleteAttachment(assignmentId: Id, courseId: Id, id: Id) {
  return apiCall('deleteAttachment', 'DELETE', `${ATTACHMENTS}{id}/`, {
    path: { assignment_id: assignmentId, course_id: courseId, id },
  });
}

/* ─── Test cases ─── */

const TEST_CASES = '/Assignment/{assignment_id}/{course_id}/TestCase/';

export function listTestCases(assignmentId: Id, courseId: Id, signal?: AbortSignal) {
  return apiCall('listTestCases', 'GET', TEST_CASES, {
    path: { assignment_id: assignmentId, course_id: courseId },
    response: TestCaseList,
    signal,
  });
}

export function createTestCase(assignmentId: Id, courseId: Id, body: Partial<TestCaseCreate>) {
  return apiCall('createTestCase', 'POST', TEST_CASES, {
    path: { assignment_id: assignmentId, course_id: courseId },
    body,
    response: TestCase,
  });
}

export function updateTestCase(assignmentId: Id, courseId: Id, id: Id, body: TestCaseUpdate) {
  return apiCall('updateTestCase', 'PATCH', `${TEST_CASES}{id}/`, {
    path: { assignment_id: assignmentId, course_id: courseId, id },
    body,
    response: TestCase,
  });
}

export function deleteTestCase(assignmentId: Id, courseId: Id, id: Id) {
  return apiCall('deleteTestCase', 'DELETE', `${TEST_CASES}{id}/`, {
    path: { assignment_id: assignmentId, course_id: courseId, id },
  });
}

/** The test cases in their new order, first to last. */
export function reorderTestCases(assignmentId: Id, courseId: Id, ids: number[]) {
  return apiCall('reorderTestCases', 'POST', `${TEST_CASES}reorder/`, {
    path: { assignment_id: assignmentId, course_id: courseId },
    body: { ids },
    response: TestCaseList,
  });
}

export function runReference(assignmentId: Id, courseId: Id, code: string | undefined) {
  return apiCall('runReference', 'POST', `${TEST_CASES}run-reference/`, {
    path: { assignment_id: assignmentId, course_id: courseId },
    body: code === undefined ? {} : { code },
    response: ReferenceRunResponse,
  });
}
