import { z } from 'zod';
import { Id, IsoDate, PageQuery, paginated, str, text } from './common.ts';
import { MAX_UPLOAD_FILE_BYTES, MAX_UPLOAD_FILES } from './files.ts';

/* Limits of assignments, their attachments and test cases (docs/assignments.md explains the choices). */
/** Attachments follow the spec's rule for editor uploads, as forum files do (files.ts). */
export const MAX_ATTACHMENT_BYTES = MAX_UPLOAD_FILE_BYTES;
/** Attached to one assignment, counting those already there. */
export const MAX_ATTACHMENTS = MAX_UPLOAD_FILES;
export const MAX_SUBMISSION_FILES = 20;
export const MAX_SUBMISSION_FILE_BYTES = 5 * 1024 * 1024;
export const MAX_TEST_CASES = 100;
export const MAX_TEST_TEXT = 1024 * 1024;
export const MAX_SCRIPT_TEXT = 100_000;

/**
 * The name of a code file: letters, digits, `_`, `-`, `.`, not starting with a dot, no directory parts,
 * so that `import` and the sandbox's command lines take it as it is. Used for an assignment's entry file
 * and required files and for every file of a submission. Attachments and other uploads take any script
 * (`UploadFileName`, files.ts).
 */
export const FileName = str()
  .max(100)
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/, 'Only letters, digits, "_", "-" and "." (no folders).')
  .refine((name) => !name.includes('..'), 'Must not contain "..".');

export const FileExtension = str()
  .max(20)
  .regex(/^\.[A-Za-z0-9]+$/, 'An extension such as ".py".');

/** The dates of an assignment in one course. */
export const AssignmentCourse = z
  .object({
    course_id: z.number().int(),
    course_title: z.string(),
    opens_at: z.iso.datetime(),
    due_at: z.iso.datetime(),
    /** Submissions after `due_at` and until this moment are accepted and marked late. */
    late_until: z.iso.datetime().nullable(),
    leaderboard_enabled: z.boolean(),
    /** The dates are the caller's own, from an extension (docs/extensions.md), not the course's. */
    extended: z.boolean(),
  })
  .meta({ id: 'AssignmentCourse' });
export type AssignmentCourse = z.infer<typeof AssignmentCourse>;

export const AssignmentCourseInput = z
  .strictObject({
    course_id: Id,
    opens_at: IsoDate,
    due_at: IsoDate,
    late_until: IsoDate.nullable().default(null),
    leaderboard_enabled: z.boolean().default(true),
  })
  .refine((c) => Date.parse(c.due_at) > Date.parse(c.opens_at), {
    message: 'The due date must be after the opening date.',
    path: ['due_at'],
  })
  .refine((c) => c.late_until === null || Date.parse(c.late_until) >= Date.parse(c.due_at), {
    message: 'The late cut-off must not be before the due date.',
    path: ['late_until'],
  });
export type AssignmentCourseInput = z.infer<typeof AssignmentCourseInput>;

const assignmentFields = {
  id: z.number().int(),
  title: z.string(),
  /** Markdown. */
  statement: z.string(),
  starter_code: z.string(),
  entry_file: z.string(),
  required_files: z.array(z.string()),
  allowed_extensions: z.array(z.string()),
  max_files: z.number().int(),
  max_file_bytes: z.number().int(),
  created_by: z.number().int().nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  /** The courses of the assignment the caller can see (students: only theirs, only opened ones). */
  courses: z.array(AssignmentCourse),
  total_points: z.number().int(),
  test_case_count: z.number().int(),
};

/**
 * Role-shaped: editors of one of its courses and staff get the `editor` view (with the reference
 * solution); everyone else the `student` view, whose schema has no such field, so it cannot leak.
 */
export const AssignmentEditorView = z
  .object({ view: z.literal('editor'), ...assignmentFields, reference_solution: z.string() })
  .meta({ id: 'AssignmentEditorView' });
export const AssignmentStudentView = z
  .object({ view: z.literal('student'), ...assignmentFields })
  .meta({ id: 'AssignmentStudentView' });
export const Assignment = z.discriminatedUnion('view', [AssignmentEditorView, AssignmentStudentView]);
export type Assignment = z.infer<typeof Assignment>;

const Title = text(200);
const AssignmentBody = {
  title: Title,
  statement: str().max(200_000).default(''),
  starter_code: str().max(MAX_SCRIPT_TEXT).default(''),
  entry_file: FileName.default('main.py'),
  required_files: z.array(FileName).max(MAX_SUBMISSION_FILES).default([]),
  allowed_extensions: z.array(FileExtension).min(1).max(20).default(['.py']),
  max_files: z.number().int().min(1).max(MAX_SUBMISSION_FILES).default(5),
  max_file_bytes: z
    .number()
    .int()
    .min(1)
    .max(MAX_SUBMISSION_FILE_BYTES)
    .default(1024 * 1024),
  reference_solution: str().max(MAX_SCRIPT_TEXT).default(''),
};

export const AssignmentCreate = z.strictObject({
  ...AssignmentBody,
  /** At least one course, each at most once. */
  courses: z
    .array(AssignmentCourseInput)
    .min(1)
    .max(50)
    .refine(
      (list) => new Set(list.map((c) => c.course_id)).size === list.length,
      'A course is listed twice.',
    ),
});
export type AssignmentCreate = z.infer<typeof AssignmentCreate>;

/** PUT: every field. */
export const AssignmentReplace = z.strictObject({
  title: Title,
  statement: AssignmentBody.statement.unwrap(),
  starter_code: AssignmentBody.starter_code.unwrap(),
  entry_file: FileName,
  required_files: z.array(FileName).max(MAX_SUBMISSION_FILES),
  allowed_extensions: z.array(FileExtension).min(1).max(20),
  max_files: z.number().int().min(1).max(MAX_SUBMISSION_FILES),
  max_file_bytes: z.number().int().min(1).max(MAX_SUBMISSION_FILE_BYTES),
  reference_solution: str().max(MAX_SCRIPT_TEXT),
  courses: AssignmentCreate.shape.courses,
});
export type AssignmentReplace = z.infer<typeof AssignmentReplace>;
/**
 * PATCH: a subset of the fields; `courses`, when given, replaces the whole list (courses left out are removed).
 * Built from the schema without defaults: zod 4 fills defaults even in optional fields, which would
 * reset every field a PATCH leaves out.
 */
export const AssignmentUpdate = AssignmentReplace.partial();
export type AssignmentUpdate = z.infer<typeof AssignmentUpdate>;

export const ASSIGNMENT_ORDERINGS = [
  'id',
  '-id',
  'title',
  '-title',
  'created_at',
  '-created_at',
  'due_at',
  '-due_at',
] as const;
export type AssignmentOrdering = (typeof ASSIGNMENT_ORDERINGS)[number];

/** `courses`: comma-separated course ids. */
export const AssignmentListQuery = PageQuery.extend({
  courses: str()
    .regex(/^\d+(,\d+)*$/, 'Comma-separated course ids.')
    .max(1000)
    .optional(),
  created_by: Id.optional(),
  search: str().trim().normalize('NFC').max(100).optional(),
  ordering: z.enum(ASSIGNMENT_ORDERINGS).default('-created_at'),
});
export type AssignmentListQuery = z.infer<typeof AssignmentListQuery>;
export const AssignmentList = paginated(Assignment);
export type AssignmentList = z.infer<typeof AssignmentList>;

export const SUBMISSION_STATUSES = [
  'Pending',
  'Scheduled',
  'Executing',
  'Completed',
  'Canceled',
  'InternalError',
  'InvalidFormat',
] as const;
export const SubmissionStatus = z.enum(SUBMISSION_STATUSES);
export type SubmissionStatus = z.infer<typeof SubmissionStatus>;

/** One assignment in one course, as the course's assignment list shows it. */
export const AssignmentInCourse = z
  .object({
    id: z.number().int(),
    title: z.string(),
    course_id: z.number().int(),
    opens_at: z.iso.datetime(),
    due_at: z.iso.datetime(),
    late_until: z.iso.datetime().nullable(),
    /** `due_at` and `late_until` are the caller's own, from an extension (docs/extensions.md). */
    extended: z.boolean(),
    /** Opened and not past the last moment submissions are accepted. */
    accepts_submissions: z.boolean(),
    total_points: z.number().int(),
    test_case_count: z.number().int(),
    /** The caller's own submissions (for editors, their reference runs are not counted). */
    my_submission_count: z.number().int(),
    my_latest_status: SubmissionStatus.nullable(),
    /** The latest submission's score and maximum (null until it is graded): its badge's outcome. */
    my_latest_score: z.number().int().nullable(),
    my_latest_max_score: z.number().int().nullable(),
    my_best_score: z.number().int().nullable(),
    my_final_submission_id: z.number().int().nullable(),
    /** Editors and staff: how many students submitted at least once. */
    submitted_students: z.number().int().nullable(),
  })
  .meta({ id: 'AssignmentInCourse' });
export type AssignmentInCourse = z.infer<typeof AssignmentInCourse>;

export const CourseSpecificQuery = z.object({
  course_id: Id,
  search: str().trim().normalize('NFC').max(100).optional(),
  ordering: z.enum(['due_at', '-due_at', 'title', '-title', 'opens_at', '-opens_at']).default('due_at'),
});
export type CourseSpecificQuery = z.infer<typeof CourseSpecificQuery>;
export const AssignmentInCourseList = z.object({
  count: z.number().int(),
  results: z.array(AssignmentInCourse),
});

export const CourseIdQuery = z.object({ course_id: Id });

export const AssignmentFile = z
  .object({
    id: z.number().int(),
    filename: z.string(),
    /** A short-lived signed download URL. */
    url: z.string(),
    size: z.number().int(),
    content_type: z.string(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'AssignmentFile' });
export type AssignmentFile = z.infer<typeof AssignmentFile>;

/** `CourseSpecificDetail`: the assignment with the dates of one course and its attachments. */
export const AssignmentCourseDetail = z.object({
  assignment: Assignment,
  course: AssignmentCourse,
  accepts_submissions: z.boolean(),
  /** True between the due date and the late cut-off. */
  is_late_period: z.boolean(),
  files: z.array(AssignmentFile),
  can_edit: z.boolean(),
});
export type AssignmentCourseDetail = z.infer<typeof AssignmentCourseDetail>;

export const TotalScore = z.object({
  assignment_id: z.number().int(),
  course_id: z.number().int(),
  /**
   * Sum of the points of every test case; with a rubric (docs/review.md) weighted and with the rubric's
   * maximum added, so hundredths are possible.
   */
  total_points: z.number(),
  /**
   * The caller's final submission's score, else their best, with its released review's total; null
   * before the first graded submission.
   */
  score: z.number().nullable(),
  submission_id: z.number().int().nullable(),
});
export type TotalScore = z.infer<typeof TotalScore>;

/* ─── Added with the assignments API ────────────────────────────────────────────────────────── */

/** `FileUpload/`: GET lists the attachments; POST (multipart, one or more files) answers those it added. */
export const AssignmentFileList = z.array(AssignmentFile);
export const AssignmentFileParams = z.object({ assignment_id: Id, course_id: Id, id: Id });

/** `GET /api/Download/{token}`: a signed, short-lived download link. */
export const DownloadParams = z.object({ token: str().min(1).max(1000) });
