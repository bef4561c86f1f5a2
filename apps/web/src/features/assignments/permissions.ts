import type { Course } from '@kadai/contracts';

/** Editors of the course and staff manage its assignments, test cases and submissions. */
export function canEditCourse(course: Pick<Course, 'my_role'>): boolean {
  return course.my_role === 'editor' || course.my_role === 'staff';
}
