import { CourseOverview } from '@kadai/contracts';
import { apiCall } from '../../api/client.ts';

/** The course home in one call, shaped by the caller's role (docs/course-home.md). */
export function getCourseOverview(courseId: number | null | undefined, signal?: AbortSignal) {
  return apiCall('getCourseOverview', 'GET', '/Course/{id}/overview/', {
    path: { id: courseId },
    response: CourseOverview,
    signal,
  });
}
