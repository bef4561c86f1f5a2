import { Calendar, CalendarFeed, CourseEvent, type EventCreate, type EventReplace } from '@kadai/contracts';
import { apiCall } from '../../api/client.ts';

type Id = number | null | undefined;

export interface CalendarRange {
  from: string;
  to: string;
}

export function getCalendar(courseId: Id, range: CalendarRange, signal?: AbortSignal) {
  return apiCall('getCalendar', 'GET', '/Event/{course_id}/', {
    path: { course_id: courseId },
    query: { from: range.from, to: range.to },
    response: Calendar,
    signal,
  });
}

export function getEvent(courseId: Id, id: Id, signal?: AbortSignal) {
  return apiCall('getEvent', 'GET', '/Event/{course_id}/{id}/', {
    path: { course_id: courseId, id },
    response: CourseEvent,
    signal,
  });
}

export function createEvent(courseId: Id, body: EventCreate) {
  return apiCall('createEvent', 'POST', '/Event/{course_id}/', {
    path: { course_id: courseId },
    body,
    response: CourseEvent,
  });
}

/** The editor sends every field (PUT): what the form shows is what is stored. */
export function replaceEvent(courseId: Id, id: Id, body: EventReplace) {
  return apiCall('replaceEvent', 'PUT', '/Event/{course_id}/{id}/', {
    path: { course_id: courseId, id },
    body,
    response: CourseEvent,
  });
}

export function deleteEvent(courseId: Id, id: Id) {
  return apiCall('deleteEvent', 'DELETE', '/Event/{course_id}/{id}/', { path: { course_id: courseId, id } });
}

export function getCalendarFeed(signal?: AbortSignal) {
  return apiCall('getCalendarFeed', 'GET', '/Calendar/feed/', { response: CalendarFeed, signal });
}

export function resetCalendarFeed() {
  return apiCall('resetCalendarFeed', 'POST', '/Calendar/feed/reset/', { response: CalendarFeed });
}
