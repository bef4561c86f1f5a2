import { createContext } from 'react';

/**
 * The time zone of the course the page belongs to (`Course.time_zone`), or null outside a course. The
 * course's layout provides it; deadlines read it to tell whether to name the reader's zone
 * (`formatDeadline`), so no page has to pass it down.
 */
export const CourseZoneContext = createContext<string | null>(null);
