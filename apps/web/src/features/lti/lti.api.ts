import {
  LtiContext,
  LtiCourseLinks,
  LtiDeepLinkInfo,
  LtiDeepLinkResponse,
  LtiNext,
  LtiPlatform,
  LtiPlatformList,
  LtiRegistrationLink,
  LtiResendResult,
  LtiRosterSyncResult,
  LtiToolInfo,
  type LtiContextLink,
  type LtiDeepLinkChoice,
  type LtiPlatformInput,
  type LtiPlatformPatch,
} from '@kadai/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';

type Id = number | null | undefined;

export const ltiKeys = {
  all: ['lti'] as const,
  platforms: () => [...ltiKeys.all, 'platforms'] as const,
  tool: () => [...ltiKeys.all, 'tool'] as const,
  context: (id: number) => [...ltiKeys.all, 'context', id] as const,
  deepLink: (id: string) => [...ltiKeys.all, 'deep-link', id] as const,
  course: (courseId: number) => [...ltiKeys.all, 'course', courseId] as const,
};

// Staff: the platforms (LMSs) Kadai trusts, and Kadai's own side of a registration.

export function platformsQuery() {
  return queryOptions({
    queryKey: ltiKeys.platforms(),
    queryFn: () => apiCall('listLtiPlatforms', 'GET', '/Lti/Platform/', { response: LtiPlatformList }),
  });
}

export function toolInfoQuery() {
  return queryOptions({
    queryKey: ltiKeys.tool(),
    queryFn: () => apiCall('getLtiToolInfo', 'GET', '/Lti/Tool/', { response: LtiToolInfo }),
  });
}

export function createPlatform(body: LtiPlatformInput) {
  return apiCall('createLtiPlatform', 'POST', '/Lti/Platform/', { body, response: LtiPlatform });
}

export function updatePlatform(id: Id, body: LtiPlatformPatch) {
  return apiCall('updateLtiPlatform', 'PATCH', '/Lti/Platform/{id}/', {
    path: { id },
    body,
    response: LtiPlatform,
  });
}

export function deletePlatform(id: Id) {
  return apiCall('deleteLtiPlatform', 'DELETE', '/Lti/Platform/{id}/', { path: { id } });
}

export function rotateToolKey() {
  return apiCall('rotateLtiToolKey', 'POST', '/Lti/Tool/rotate-key/', { response: LtiToolInfo });
}

export function createRegistrationLink() {
  return apiCall('createLtiRegistration', 'POST', '/Lti/Registration/', { response: LtiRegistrationLink });
}

// Instructors, after a launch: link the LMS course, pick what the LMS links to.

export function contextQuery(id: number) {
  return queryOptions({
    queryKey: ltiKeys.context(id),
    queryFn: () =>
      apiCall('getLtiContext', 'GET', '/Lti/Context/{id}/', { path: { id }, response: LtiContext }),
  });
}

export function linkContext(id: Id, body: LtiContextLink) {
  return apiCall('linkLtiContext', 'POST', '/Lti/Context/{id}/', { path: { id }, body, response: LtiNext });
}

export function deepLinkQuery(id: string) {
  return queryOptions({
    queryKey: ltiKeys.deepLink(id),
    queryFn: () =>
      apiCall('getLtiDeepLink', 'GET', '/Lti/DeepLink/{id}/', { path: { id }, response: LtiDeepLinkInfo }),
  });
}

export function chooseDeepLinkItems(id: string, body: LtiDeepLinkChoice) {
  return apiCall('chooseLtiDeepLinkItems', 'POST', '/Lti/DeepLink/{id}/', {
    path: { id },
    body,
    response: LtiDeepLinkResponse,
  });
}

// A course's editors: its LMS courses, their rosters and the grades sent to their gradebooks.

export function courseLinksQuery(courseId: number) {
  return queryOptions({
    queryKey: ltiKeys.course(courseId),
    queryFn: () =>
      apiCall('getLtiCourseLinks', 'GET', '/Lti/Course/{course_id}/', {
        path: { course_id: courseId },
        response: LtiCourseLinks,
      }),
  });
}

export function syncRoster(courseId: Id, contextId: number) {
  return apiCall('syncLtiRoster', 'POST', '/Lti/Course/{course_id}/roster-sync/', {
    path: { course_id: courseId },
    body: { context_id: contextId },
    response: LtiRosterSyncResult,
  });
}

export function resendLineItem(id: Id) {
  return apiCall('resendLtiLineItem', 'POST', '/Lti/LineItem/{id}/resend/', {
    path: { id },
    response: LtiResendResult,
  });
}
