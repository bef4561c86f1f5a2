import {
  AssessmentExistence,
  AssessmentTable,
  Feedback,
  FeedbackList,
  Histogram,
  Skill,
  SkillCatalogue,
  SkillList,
  StudentAnalysis,
  Workshop,
  WorkshopList,
  type FeedbackCreate,
  type SkillCreate,
  type SkillItemsUpdate,
  type SkillUpdate,
  type WorkshopCreate,
  type WorkshopUpdate,
} from '@kadai/contracts';
import { apiCall } from '../../api/client.ts';

type Id = number | null | undefined;

/** Feedback and workshops of one student come in one page: a student has few of either. */
export const PARTICIPANT_PAGE_SIZE = 100;

export function getAssessmentExistence(courseId: Id, signal?: AbortSignal) {
  return apiCall('getAssessmentExistence', 'GET', '/assessment/Existence/Course/{course_id}', {
    path: { course_id: courseId },
    response: AssessmentExistence,
    signal,
  });
}

export function getAssessmentTable(courseId: Id, signal?: AbortSignal) {
  return apiCall('getAssessmentTable', 'GET', '/assessment/{course_id}', {
    path: { course_id: courseId },
    response: AssessmentTable,
    signal,
  });
}

export function getStudentAnalysis(courseId: Id, userId: Id, skillType: string | null, signal?: AbortSignal) {
  return apiCall('getStudentAnalysis', 'GET', '/assessment/{course_id}/{user_id}', {
    path: { course_id: courseId, user_id: userId },
    query: { skill_type: skillType },
    response: StudentAnalysis,
    signal,
  });
}

export function getAssignmentHistogram(courseId: Id, userId: Id, assignmentId: Id, signal?: AbortSignal) {
  return apiCall(
    'getAssignmentHistogram',
    'GET',
    '/assessment/histogram/assignment/{course_id}/{user_id}/{assignment_id}',
    {
      path: { course_id: courseId, user_id: userId, assignment_id: assignmentId },
      response: Histogram,
      signal,
    },
  );
}

/** The skill's name is a path segment: `buildUrl` encodes it (a name may hold spaces or Japanese). */
export function getSkillHistogram(courseId: Id, userId: Id, skillName: string | null, signal?: AbortSignal) {
  return apiCall(
    'getSkillHistogram',
    'GET',
    '/assessment/histogram/skill/{course_id}/{user_id}/{skill_name}',
    {
      path: { course_id: courseId, user_id: userId, skill_name: skillName },
      response: Histogram,
      signal,
    },
  );
}

export function listFeedback(courseId: Id, userId: Id, signal?: AbortSignal) {
  return apiCall('listFeedback', 'GET', '/assessment/Feedback/', {
    query: { course: courseId, user: userId, limit: PARTICIPANT_PAGE_SIZE, offset: 0 },
    response: FeedbackList,
    signal,
  });
}

export function createFeedback(body: FeedbackCreate) {
  return apiCall('createFeedback', 'POST', '/assessment/Feedback/', { body, response: Feedback });
}

export function updateFeedback(id: Id, body: { body: string }) {
  return apiCall('updateFeedback', 'PATCH', '/assessment/Feedback/{id}/', {
    path: { id },
    body,
    response: Feedback,
  });
}

export function deleteFeedback(id: Id) {
  return apiCall('deleteFeedback', 'DELETE', '/assessment/Feedback/{id}/', { path: { id } });
}

/** The course's workshops (`userId` null: all of them, for editors) in one page. */
export function listWorkshops(courseId: Id, userId: number | null, offset = 0, signal?: AbortSignal) {
  return apiCall('listWorkshops', 'GET', '/assessment/Workshop/', {
    query: { course: courseId, user: userId, limit: PARTICIPANT_PAGE_SIZE, offset },
    response: WorkshopList,
    signal,
  });
}

export function createWorkshop(body: WorkshopCreate) {
  return apiCall('createWorkshop', 'POST', '/assessment/Workshop/', { body, response: Workshop });
}

export function updateWorkshop(id: Id, body: WorkshopUpdate) {
  return apiCall('updateWorkshop', 'PATCH', '/assessment/Workshop/{id}/', {
    path: { id },
    body,
    response: Workshop,
  });
}

export function deleteWorkshop(id: Id) {
  return apiCall('deleteWorkshop', 'DELETE', '/assessment/Workshop/{id}/', { path: { id } });
}

export function listSkills(courseId: Id, signal?: AbortSignal) {
  return apiCall('listSkills', 'GET', '/assessment/Skill/', {
    query: { course: courseId },
    response: SkillList,
    signal,
  });
}

export function getSkillCatalogue(courseId: Id, signal?: AbortSignal) {
  return apiCall('getSkillCatalogue', 'GET', '/assessment/Skill/catalogue', {
    query: { course: courseId },
    response: SkillCatalogue,
    signal,
  });
}

export function createSkill(body: SkillCreate) {
  return apiCall('createSkill', 'POST', '/assessment/Skill/', { body, response: Skill });
}

export function updateSkill(id: Id, body: SkillUpdate) {
  return apiCall('updateSkill', 'PATCH', '/assessment/Skill/{id}/', { path: { id }, body, response: Skill });
}

export function deleteSkill(id: Id) {
  return apiCall('deleteSkill', 'DELETE', '/assessment/Skill/{id}/', { path: { id } });
}

export function setSkillItems(id: Id, body: SkillItemsUpdate) {
  return apiCall('setSkillItems', 'PUT', '/assessment/Skill/{id}/items', {
    path: { id },
    body,
    response: Skill,
  });
}
