import type {
  Assignment,
  AssignmentCourse,
  AssignmentCourseInput,
  AssignmentCreate,
  AssignmentUpdate,
} from '@kadai/contracts';
import { defaultWindow, fromLocalInput, toLocalInput } from './dates.ts';

export type EditorAssignment = Extract<Assignment, { view: 'editor' }>;

/** What the assignment editor edits; dates are `datetime-local` values in the browser's time zone. */
export interface AssignmentFormValues {
  title: string;
  statement: string;
  starter_code: string;
  reference_solution: string;
  entry_file: string;
  required_files: string[];
  allowed_extensions: string[];
  max_files: number;
  /** The per-file limit in kB (1024 bytes): people think in kB and MB, the API in bytes. */
  max_file_kb: number;
  opens_at: string;
  due_at: string;
  /** Empty: no late submissions. */
  late_until: string;
  leaderboard_enabled: boolean;
}

/**
 * A new assignment: open now, due at 23:59 a week from today in the course's zone, Python only, 5 files
 * of 1 MB.
 */
export function emptyAssignmentValues(courseZone: string, now: Date = new Date()): AssignmentFormValues {
  const dates = defaultWindow(courseZone, now);
  return {
    title: '',
    statement: '',
    starter_code: '',
    reference_solution: '',
    entry_file: 'main.py',
    required_files: [],
    allowed_extensions: ['.py'],
    max_files: 5,
    max_file_kb: 1024,
    opens_at: dates.opens,
    due_at: dates.closes,
    late_until: '',
    leaderboard_enabled: true,
  };
}

export function assignmentValues(
  assignment: EditorAssignment,
  course: AssignmentCourse,
): AssignmentFormValues {
  return {
    title: assignment.title,
    statement: assignment.statement,
    starter_code: assignment.starter_code,
    reference_solution: assignment.reference_solution,
    entry_file: assignment.entry_file,
    required_files: assignment.required_files,
    allowed_extensions: assignment.allowed_extensions,
    max_files: assignment.max_files,
    max_file_kb: Math.max(1, Math.round(assignment.max_file_bytes / 1024)),
    opens_at: toLocalInput(course.opens_at),
    due_at: toLocalInput(course.due_at),
    late_until: toLocalInput(course.late_until),
    leaderboard_enabled: course.leaderboard_enabled,
  };
}

/** `py` and `.PY` both mean `.py`. */
export function normaliseExtension(value: string): string {
  const trimmed = value.trim().toLowerCase();
  return trimmed.startsWith('.') ? trimmed : `.${trimmed}`;
}

function courseInput(values: AssignmentFormValues, courseId: number): AssignmentCourseInput {
  return {
    course_id: courseId,
    opens_at: fromLocalInput(values.opens_at) ?? '',
    due_at: fromLocalInput(values.due_at) ?? '',
    late_until: fromLocalInput(values.late_until),
    leaderboard_enabled: values.leaderboard_enabled,
  };
}

function bodyFields(values: AssignmentFormValues) {
  return {
    title: values.title.trim(),
    statement: values.statement,
    starter_code: values.starter_code,
    reference_solution: values.reference_solution,
    entry_file: values.entry_file.trim(),
    required_files: values.required_files.map((name) => name.trim()),
    allowed_extensions: [...new Set(values.allowed_extensions.map(normaliseExtension))],
    max_files: values.max_files,
    max_file_bytes: values.max_file_kb * 1024,
  };
}

export function toAssignmentCreate(values: AssignmentFormValues, courseId: number): AssignmentCreate {
  return { ...bodyFields(values), courses: [courseInput(values, courseId)] };
}

const DATE_FIELDS = ['opens_at', 'due_at', 'late_until', 'leaderboard_enabled'] as const;

/**
 * The PATCH for an edit made in one course. `courses` replaces the assignment's whole course list, so it
 * is sent only when this course's dates changed, and then with the other courses as they were.
 */
export function toAssignmentUpdate(
  values: AssignmentFormValues,
  assignment: EditorAssignment,
  courseId: number,
  changedFields: ReadonlySet<string>,
): AssignmentUpdate {
  const update: AssignmentUpdate = bodyFields(values);
  if (DATE_FIELDS.some((field) => changedFields.has(field))) {
    const others: AssignmentCourseInput[] = assignment.courses
      .filter((course) => course.course_id !== courseId)
      .map(({ course_id, opens_at, due_at, late_until, leaderboard_enabled }) => ({
        course_id,
        opens_at,
        due_at,
        late_until,
        leaderboard_enabled,
      }));
    update.courses = [...others, courseInput(values, courseId)];
  }
  return update;
}
