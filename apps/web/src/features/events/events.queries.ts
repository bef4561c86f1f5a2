import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getCalendar, getCalendarFeed, getEvent, type CalendarRange } from './events.api.ts';

export const calendarKeys = {
  all: ['calendar'] as const,
  course: (courseId: number) => [...calendarKeys.all, 'course', courseId] as const,
  range: (courseId: number, range: CalendarRange) => [...calendarKeys.course(courseId), range] as const,
  event: (courseId: number, id: number) => [...calendarKeys.course(courseId), 'event', id] as const,
  feed: () => [...calendarKeys.all, 'feed'] as const,
};

export function calendarQuery(courseId: number, range: CalendarRange) {
  return queryOptions({
    queryKey: calendarKeys.range(courseId, range),
    queryFn: ({ signal }) => getCalendar(courseId, range, signal),
    // Moving to the next month keeps the last one on screen until the new one arrives.
    placeholderData: keepPreviousData,
  });
}

export function calendarFeedQuery() {
  return queryOptions({
    queryKey: calendarKeys.feed(),
    queryFn: ({ signal }) => getCalendarFeed(signal),
    staleTime: Infinity,
  });
}

export function eventQuery(courseId: number, id: number) {
  return queryOptions({
    queryKey: calendarKeys.event(courseId, id),
    queryFn: ({ signal }) => getEvent(courseId, id, signal),
  });
}
