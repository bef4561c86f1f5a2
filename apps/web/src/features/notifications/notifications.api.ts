import {
  CourseNotificationSettings,
  MarkedRead,
  NotificationList,
  NotificationSettings,
  UnreadCount,
  UnsubscribeResult,
  type MarkAllRead,
  type NotificationSettingsUpdate,
} from '@kadai/contracts';
import { apiCall } from '../../api/client.ts';

/** What a list asks for: only the unread ones or all, and how many a page. */
export interface NotificationListParams {
  unread: boolean;
  page_size: number;
}

export function listNotifications(
  params: NotificationListParams,
  cursor: string | null,
  signal?: AbortSignal,
) {
  return apiCall('listNotifications', 'GET', '/Notification/', {
    query: {
      page_size: params.page_size,
      unread: params.unread ? 'true' : undefined,
      cursor: cursor ?? undefined,
    },
    response: NotificationList,
    signal,
  });
}

export function getUnreadCount(signal?: AbortSignal) {
  return apiCall('getUnreadCount', 'GET', '/Notification/unread/', { response: UnreadCount, signal });
}

export function markRead(id: number) {
  return apiCall('markRead', 'POST', '/Notification/{id}/read/', { path: { id }, response: MarkedRead });
}

/** Every unread one (or those of a course, or about one page: `link`). */
export function markAllRead(body: MarkAllRead) {
  return apiCall('markAllRead', 'POST', '/Notification/read-all/', { body, response: MarkedRead });
}

export function getNotificationSettings(signal?: AbortSignal) {
  return apiCall('getNotificationSettings', 'GET', '/NotificationSettings/', {
    response: NotificationSettings,
    signal,
  });
}

export function updateNotificationSettings(body: NotificationSettingsUpdate) {
  return apiCall('updateNotificationSettings', 'PUT', '/NotificationSettings/', {
    body,
    response: NotificationSettings,
  });
}

export function getCourseNotificationSettings(courseId: number, signal?: AbortSignal) {
  return apiCall('getCourseNotificationSettings', 'GET', '/Course/{id}/notification-settings/', {
    path: { id: courseId },
    response: CourseNotificationSettings,
    signal,
  });
}

export function updateCourseNotificationSettings(courseId: number, body: CourseNotificationSettings) {
  return apiCall('updateCourseNotificationSettings', 'PUT', '/Course/{id}/notification-settings/', {
    path: { id: courseId },
    body,
    response: CourseNotificationSettings,
  });
}

/** What an e-mail's unsubscribe link turns off, without turning it off (no sign-in: the token is the key). */
export function describeUnsubscribe(token: string, signal?: AbortSignal) {
  return apiCall('describeUnsubscribe', 'GET', '/Notification/unsubscribe/', {
    query: { token },
    response: UnsubscribeResult,
    auth: false,
    signal,
  });
}

export function unsubscribe(token: string) {
  return apiCall('unsubscribe', 'POST', '/Notification/unsubscribe/', {
    query: { token },
    response: UnsubscribeResult,
    auth: false,
  });
}
