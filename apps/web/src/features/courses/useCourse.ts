import type { Course } from '@kadai/contracts';
import { useOutletContext } from 'react-router';

/** What the shell's CourseLayout hands the pages under /course/{course_id}/: the course, loaded once. */
export interface CourseOutletContext {
  course: Course;
}

/** The course of the current page; only inside CourseLayout. */
export function useCourse() {
  return useOutletContext<CourseOutletContext>().course;
}
