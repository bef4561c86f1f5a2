import { Assignment } from '@kadai/contracts';
import { apiCall, apiDownload } from '../../api/client.ts';

type Id = number | null | undefined;

/** The assignment as a .zip bundle (docs/assignments.md, "Bundles"); managers only. */
export function downloadAssignmentBundle(assignmentId: Id, courseId: Id) {
  return apiDownload('downloadAssignmentBundle', '/Assignment/{assignment_id}/{course_id}/export/', {
    path: { assignment_id: assignmentId, course_id: courseId },
    accept: 'application/zip',
  });
}

/**
 * Creates an assignment in the course from a bundle, with the server's default dates. The file goes
 * under a fixed plain name: the server refuses names with spaces or brackets ("bundle (1).zip"), and
 * the name of a bundle means nothing to it.
 */
export function importAssignmentBundle(courseId: Id, file: Blob) {
  const body = new FormData();
  body.append('file', file, 'bundle.zip');
  return apiCall('importAssignmentBundle', 'POST', '/Assignment/import/{course_id}/', {
    path: { course_id: courseId },
    body,
    response: Assignment,
  });
}
