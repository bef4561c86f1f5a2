import type { Course } from '@kadai/contracts';

/**
 * The course's editors and staff: they edit its details, read both member lists and change its students
 * (docs/courses.md, "Permissions"); only staff change its editors and delete it. The Members page and its
 * side-rail entry follow this.
 */
export function canManageCourse(course: Pick<Course, 'my_role'>, isStaff: boolean): boolean {
  return isStaff || course.my_role === 'editor' || course.my_role === 'staff';
}
