import { useOutletContext } from 'react-router';
import type { CourseOutletContext } from './CourseLayout.tsx';

/** The course of the current page; only inside CourseLayout. */
export function useCourse() {
  return useOutletContext<CourseOutletContext>().course;
}
