import { z } from 'zod';
import { Id, IsoDate, PageQuery, paginated, text } from './common.ts';

/* Limits of assignments, their attachments and test cases (docs/assignments.md explains the choices). */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
export const MAX_ATTACHMENTS = 20;
export const MAX_SUBMISSION_FILES = 20;
export const MAX_SUBMISSION_FILE_BYTES = 5 * 1024 * 1024;
export const MAX_TEST_CASES = 100;
export const MAX_TEST_TEXT = 1024 * 1024;
export const MAX_SCRIPT_TEXT = 100_000;

/**
 * A plain file name: letters, digits, `_`, `-`, `.`, not starting with a dot, no directory parts.
 * Used for entry files, required files, attachments and submitted files alike.
 */
export const FileName = z
  .string()
  .max(100)
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/, 'Only letters, digits, "_", "-" and "." (no folders).')
  .refine((name) => !name.includes('..'), 'Must not contain "..".');

export const Extension = z
  .string()
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
  statement: z.string().max(200_000).default(''),
  starter_code: z.string().max(MAX_SCRIPT_TEXT).default(''),
  entry_file: FileName.default('main.py'),
  required_files: z.array(FileName).max(MAX_SUBMISSION_FILES).default([]),
  allowed_extensions: z.array(Extension).min(1).max(20).default(['.py']),
  max_files: z.number().int().min(1).max(MAX_SUBMISSION_FILES).default(5),
  max_file_bytes: z
    .number()
    .int()
    .min(1)
    .max(MAX_SUBMISSION_FILE_BYTES)
    .default(1024 * 1024),
  reference_solution: z.string().max(MAX_SCRIPT_TEXT).default(''),
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
  allowed_extensions: z.array(Extension).min(1).max(20),
  max_files: z.number().int().min(1).max(MAX_SUBMISSION_FILES),
  max_file_bytes: z.number().int().min(1).max(MAX_SUBMISSION_FILE_BYTES),
  reference_solution: z.string().max(MAX_SCRIPT_TEXT),
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
  courses: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'Comma-separated course ids.')
    .max(1000)
    .optional(),
  created_by: Id.optional(),
  search: z.string().trim().max(100).optional(),
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
    /** Opened and not past the last moment submissions are accepted. */
    accepts_submissions: z.boolean(),
    total_points: z.number().int(),
    test_case_count: z.number().int(),
    /** The caller's own submissions (for editors, their reference runs are not counted). */
    my_submission_count: z.number().int(),
    my_latest_status: SubmissionStatus.nullable(),
    my_best_score: z.number().int().nullable(),
    my_final_submission_id: z.number().int().nullable(),
    /** Editors and staff: how many students submitted at least once. */
    submitted_students: z.number().int().nullable(),
  })
  .meta({ id: 'AssignmentInCourse' });
export type AssignmentInCourse = z.infer<typeof AssignmentInCourse>;

export const CourseSpecificQuery = z.object({
  course_id: Id,
  search: z.string().trim().max(100).optional(),
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
  /** Sum of the points of every test case. */
  total_points: z.number().int(),
  /** The caller's final submission's score, else their best; null before any graded submission. */
  score: z.number().int().nullable(),
  submission_id: z.number().int().nullable(),
});
export type TotalScore = z.infer<typeof TotalScore>;

/* ─── Test cases ───────────────────────────────────────────────────────────────────────────── */

export const TestCaseKind = z.enum(['io', 'script', 'pytest']);
export type TestCaseKind = z.infer<typeof TestCaseKind>;

/**
 * The file name a `pytest` test module is saved under in the sandbox: pytest's own default pattern
 * (`test_*.py` or `*_test.py`), letters, digits and `_` only, and never a student's file name.
 */
export const TestFileName = z
  .string()
  .max(64)
  .regex(
    /^(test_[A-Za-z0-9_]+|[A-Za-z0-9_]+_test)\.py$/,
    'A Python test file name such as "test_main.py" (test_*.py or *_test.py).',
  );
export const DEFAULT_TEST_FILE_NAME = 'test_main.py';
/** Collected tests (items) a pytest test case may report; more are cut off and reported as an error. */
export const MAX_TEST_ITEMS = 1000;
export const Comparison = z.enum(['exact', 'whitespace', 'numeric']);
export const Visibility = z.enum(['visible', 'hidden', 'after_due']);
export type Visibility = z.infer<typeof Visibility>;

const testCaseCommon = {
  id: z.number().int(),
  assignment_id: z.number().int(),
  position: z.number().int(),
  name: z.string(),
  kind: TestCaseKind,
  points: z.number().int(),
  visibility: Visibility,
  time_limit_ms: z.number().int(),
  memory_limit_mb: z.number().int(),
};

export const TestCaseEditorView = z
  .object({
    view: z.literal('editor'),
    ...testCaseCommon,
    stdin: z.string(),
    expected_stdout: z.string(),
    comparison: Comparison,
    tolerance: z.number(),
    driver: z.string(),
    check_script: z.string(),
    /** `pytest` tests: the module's file name in the sandbox and its code. */
    test_file_name: z.string(),
    test_code: z.string(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'TestCaseEditorView' });
/** A student sees a test's input and expected output only when it is revealed; never scripts. */
export const TestCaseStudentView = z
  .object({
    view: z.literal('student'),
    ...testCaseCommon,
    revealed: z.boolean(),
    stdin: z.string().nullable(),
    expected_stdout: z.string().nullable(),
    test_file_name: z.string(),
    /** A `pytest` test's module, when revealed (visible, or after_due once closed); never for hidden. */
    test_code: z.string().nullable(),
  })
  .meta({ id: 'TestCaseStudentView' });
export const TestCase = z.discriminatedUnion('view', [TestCaseEditorView, TestCaseStudentView]);
export type TestCase = z.infer<typeof TestCase>;
export const TestCaseList = z.object({ count: z.number().int(), results: z.array(TestCase) });

const testCaseInputFields = {
  name: text(200),
  kind: TestCaseKind,
  points: z.number().int().min(0).max(1000),
  visibility: Visibility,
  position: z.number().int().min(0).max(10_000),
  stdin: z.string().max(MAX_TEST_TEXT),
  expected_stdout: z.string().max(MAX_TEST_TEXT),
  comparison: Comparison,
  tolerance: z.number().min(0).max(1e6),
  driver: z.string().max(MAX_SCRIPT_TEXT),
  check_script: z.string().max(MAX_SCRIPT_TEXT),
  test_file_name: TestFileName,
  test_code: z.string().max(MAX_SCRIPT_TEXT),
  time_limit_ms: z.number().int().min(100).max(10_000),
  memory_limit_mb: z.number().int().min(32).max(1024),
};

export const TestCaseCreate = z
  .strictObject({
    name: testCaseInputFields.name,
    kind: testCaseInputFields.kind.default('io'),
    points: testCaseInputFields.points.default(1),
    visibility: testCaseInputFields.visibility.default('visible'),
    position: testCaseInputFields.position.optional(),
    stdin: testCaseInputFields.stdin.default(''),
    expected_stdout: testCaseInputFields.expected_stdout.default(''),
    comparison: testCaseInputFields.comparison.default('whitespace'),
    tolerance: testCaseInputFields.tolerance.default(1e-6),
    driver: testCaseInputFields.driver.default(''),
    check_script: testCaseInputFields.check_script.default(''),
    test_file_name: testCaseInputFields.test_file_name.default(DEFAULT_TEST_FILE_NAME),
    test_code: testCaseInputFields.test_code.default(''),
    time_limit_ms: testCaseInputFields.time_limit_ms.default(2000),
    memory_limit_mb: testCaseInputFields.memory_limit_mb.default(256),
  })
  .superRefine((t, issue) => testCaseRules(t, issue));
export type TestCaseCreate = z.infer<typeof TestCaseCreate>;
/** The rules that tie fields to a kind: checked on a create and on the merged result of a PATCH. */
export function testCaseRules(
  t: { kind: TestCaseKind; check_script: string; test_code: string },
  issue: { addIssue(issue: { code: 'custom'; message: string; path: string[] }): void },
): void {
  if (t.kind === 'script' && t.check_script.trim().length === 0) {
    issue.addIssue({
      code: 'custom',
      message: 'A script test needs a check script.',
      path: ['check_script'],
    });
  }
  if (t.kind === 'pytest' && t.test_code.trim().length === 0) {
    issue.addIssue({ code: 'custom', message: 'A pytest test needs a test module.', path: ['test_code'] });
  }
}

/** PATCH; the service checks the kind rules against the merged result. */
export const TestCaseUpdate = z.strictObject(testCaseInputFields).partial();
export type TestCaseUpdate = z.infer<typeof TestCaseUpdate>;

export const TestCaseParams = z.object({ assignment_id: Id, course_id: Id });
export const TestCaseItemParams = TestCaseParams.extend({ id: Id });

/** Runs the test cases against a reference solution (the stored one when `code` is omitted). */
export const ReferenceRunRequest = z.strictObject({ code: z.string().max(MAX_SCRIPT_TEXT).optional() });
export const ReferenceRunResponse = z.object({ submission_id: z.number().int() });

/* ─── Added with the assignments API ────────────────────────────────────────────────────────── */

/** `FileUpload/`: GET lists the attachments; POST (multipart, one or more files) answers those it added. */
export const AssignmentFileList = z.array(AssignmentFile);
export const AssignmentFileParams = z.object({ assignment_id: Id, course_id: Id, id: Id });

/** `TestCase/reorder/`: every test case of the assignment, each once, in the new order. */
export const TestCaseReorder = z.strictObject({
  ids: z
    .array(Id)
    .min(1)
    .max(MAX_TEST_CASES)
    .refine((ids) => new Set(ids).size === ids.length, 'A test case is listed twice.'),
});
export type TestCaseReorder = z.infer<typeof TestCaseReorder>;

/** `GET /api/Download/{token}`: a signed, short-lived download link. */
export const DownloadParams = z.object({ token: z.string().min(1).max(1000) });

/* ─── Assignment bundles (export and import as one .zip; docs/assignments.md, "Bundles") ──────── */

export const BUNDLE_FORMAT_VERSION = 1;
/** The uploaded .zip itself (413 `too_large` over it). */
export const MAX_BUNDLE_BYTES = 60 * 1024 * 1024;
/** Every entry of a bundle inflated, added up: what a zip bomb runs into. */
export const MAX_BUNDLE_UNCOMPRESSED_BYTES = 50 * 1024 * 1024;
/** Entries of a bundle, folders included. */
export const MAX_BUNDLE_ENTRIES = 1000;

/** `assignment.json`: the assignment without its texts (files of their own) and without course dates. */
export const BundleAssignment = z.strictObject({
  format_version: z.literal(BUNDLE_FORMAT_VERSION),
  title: AssignmentCreate.shape.title,
  entry_file: AssignmentCreate.shape.entry_file,
  required_files: AssignmentCreate.shape.required_files,
  allowed_extensions: AssignmentCreate.shape.allowed_extensions,
  max_files: AssignmentCreate.shape.max_files,
  max_file_bytes: AssignmentCreate.shape.max_file_bytes,
});
export type BundleAssignment = z.infer<typeof BundleAssignment>;

/**
 * `tests/NN-<slug>/test.json`: a test case without its texts, which are files beside it (`input.txt`,
 * `expected.txt`, `driver.py`, `check.py`, the pytest module under `test_file_name`). With those merged
 * in, it must pass `TestCaseCreate`.
 */
export const BundleTestCase = z.object({
  name: z.string(),
  kind: TestCaseKind,
  points: z.number().int(),
  visibility: Visibility,
  time_limit_ms: z.number().int(),
  memory_limit_mb: z.number().int(),
  comparison: Comparison,
  tolerance: z.number(),
  test_file_name: z.string(),
});
export type BundleTestCase = z.infer<typeof BundleTestCase>;

export const AssignmentBundleParams = z.object({ assignment_id: Id, course_id: Id });
export const BundleImportParams = z.object({ course_id: Id });

/**
 * The text fields of an import (multipart, beside the .zip): the assignment's dates in the course.
 * Defaults: opens now; due seven days after it opens, at 23:59 UTC; no late period.
 */
export const BundleImportFields = z.object({
  opens_at: IsoDate.optional(),
  due_at: IsoDate.optional(),
  late_until: IsoDate.optional(),
});
export type BundleImportFields = z.infer<typeof BundleImportFields>;
