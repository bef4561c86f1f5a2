import type { AssignmentCourse } from '@kadai/contracts';
import type { EditorAssignment } from '../features/assignments/assignment-form.ts';

const AT = '2026-04-01T09:00:00.000Z';

/** An assignment's dates in one course, as the API answers them: the tests change what they need. */
export function assignmentCourse(courseId = 1, fields: Partial<AssignmentCourse> = {}): AssignmentCourse {
  return {
    course_id: courseId,
    course_title: 'Python',
    opens_at: AT,
    due_at: AT,
    late_until: null,
    leaderboard_enabled: true,
    extended: false,
    ...fields,
  };
}

/** An assignment as its editor reads it (with the reference solution): the tests change what they need. */
export function editorAssignment(fields: Partial<EditorAssignment> = {}): EditorAssignment {
  return {
    view: 'editor',
    id: 7,
    title: 'Sum',
    statement: '',
    starter_code: '',
    entry_file: 'main.py',
    required_files: [],
    allowed_extensions: ['.py'],
    max_files: 2,
    max_file_bytes: 1024,
    reference_solution: '',
    created_by: 2,
    created_at: AT,
    updated_at: AT,
    courses: [assignmentCourse()],
    total_points: 0,
    test_case_count: 0,
    ...fields,
  };
}
