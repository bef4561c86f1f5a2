import type { Course, CourseRole } from '@kadai/contracts';

/** A course as the API answers it to someone with `role`: the pages' tests change what they need. */
export function courseAs(role: CourseRole, fields: Partial<Course> = {}): Course {
  const at = '2026-04-01T09:00:00.000Z';
  return {
    id: 1,
    title: 'Python',
    description: '',
    has_videos: false,
    has_assessment: false,
    time_zone: 'Asia/Tokyo',
    created_at: at,
    updated_at: at,
    my_role: role,
    editor_count: 1,
    student_count: 2,
    ...fields,
  };
}
