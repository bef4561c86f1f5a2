import { z } from 'zod';
import { Id, str, text } from './common.ts';
import { MAX_SCRIPT_TEXT, MAX_TEST_CASES, MAX_TEST_TEXT } from './assignments.ts';

/* ─── Test cases ───────────────────────────────────────────────────────────────────────────── */

export const TestCaseKind = z.enum(['io', 'script', 'pytest']);
export type TestCaseKind = z.infer<typeof TestCaseKind>;

/**
 * The file name a `pytest` test module is saved under in the sandbox: pytest's own default pattern
 * (`test_*.py` or `*_test.py`), letters, digits and `_` only, and never a student's file name.
 */
export const TestFileName = str()
  .max(64)
  .regex(
    /^(test_[A-Za-z0-9_]+|[A-Za-z0-9_]+_test)\.py$/,
    'A Python test file name such as "test_main.py" (test_*.py or *_test.py).',
  );
export const DEFAULT_TEST_FILE_NAME = 'test_main.py';
export const DEFAULT_TIME_LIMIT_MS = 2000;
export const DEFAULT_MEMORY_LIMIT_MB = 256;
/** Collected tests (items) a pytest test case may report; more are cut off and reported as an error. */
export const MAX_TEST_ITEMS = 1000;
export const Comparison = z.enum(['exact', 'whitespace', 'numeric']);
export const Visibility = z.enum(['visible', 'hidden', 'after_due']);
export type Visibility = z.infer<typeof Visibility>;

/**
 * Why a pytest module does not run, or was not checked, as data: each code is one sentence a client says
 * in its reader's language with the facts given (docs/grading.md, "Checking a module when it is saved").
 * `unknown_module`: it imports a module that is neither the submission's nor the assignment's;
 * `missing_name`: it imports a name the submission's `module` lacks; `syntax_error`; `import_error`: it
 * raised an exception when imported; `submission_*`: the solution it was checked against could not be
 * imported (too slow, its process ended, it read input or exited, it raised); `collection_error`: pytest
 * could not collect it; `pytest_error`: pytest itself failed; `no_tests`; `too_many_tests` (more than
 * MAX_TEST_ITEMS); `bad_points`, `bad_time_limit`: the test `name`'s marker is wrong; `not_checked`: no
 * sandbox could check it here.
 */
export const PytestCheckReason = z
  .object({
    code: z.enum([
      'unknown_module',
      'missing_name',
      'syntax_error',
      'import_error',
      'submission_time_limit',
      'submission_ended',
      'submission_input',
      'submission_exit',
      'submission_error',
      'collection_error',
      'pytest_error',
      'no_tests',
      'too_many_tests',
      'bad_points',
      'bad_time_limit',
      'not_checked',
    ]),
    /** The module imported: one the submission lacks, or the submission's that failed. */
    module: z.string().optional(),
    /** The name a module lacks, or the test whose marker is wrong. */
    name: z.string().optional(),
    /** Where: the test module, or a helper file of the assignment it imports, and the line. */
    file: z.string().optional(),
    line: z.number().int().optional(),
    /** The submission's files. */
    files: z.array(z.string()).optional(),
  })
  .meta({ id: 'PytestCheckReason' });
export type PytestCheckReason = z.infer<typeof PytestCheckReason>;

/**
 * The check of a `pytest` module when it was saved: collected in the sandbox against the assignment's
 * reference solution, else its starter code, else stand-ins for the submission's modules. `ready`: it
 * collects (its tests are listed); `draft`: it does not (`reason` and `message` say why) and students
 * cannot run it; `unchecked`: no sandbox could check it (it runs as saved).
 */
export const PytestCheck = z
  .object({
    status: z.enum(['ready', 'draft', 'unchecked']),
    /** Why, as data; null when it runs, and for checks saved before reasons were given. */
    reason: PytestCheckReason.nullable(),
    /**
     * With a reason, what it leaves out: pytest's or Python's own words, as written ('' when nothing);
     * without one, the whole explanation (in English).
     */
    message: z.string(),
    tests: z.array(z.object({ name: z.string(), points: z.number().int() })),
    against: z.enum(['reference', 'starter', 'stand-ins']).nullable(),
    checked_at: z.iso.datetime(),
  })
  .meta({ id: 'PytestCheck' });
export type PytestCheck = z.infer<typeof PytestCheck>;

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
    /** `pytest` tests: the points follow the collected tests (one a test, or its @points) until set. */
    points_auto: z.boolean(),
    /** The module does not collect: not run, not counted and not shown to students until it does. */
    draft: z.boolean(),
    /** `pytest` tests: the check when the module was last saved; null for other kinds. */
    check: PytestCheck.nullable(),
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
  stdin: str().max(MAX_TEST_TEXT),
  expected_stdout: str().max(MAX_TEST_TEXT),
  comparison: Comparison,
  tolerance: z.number().min(0).max(1e6),
  driver: str().max(MAX_SCRIPT_TEXT),
  check_script: str().max(MAX_SCRIPT_TEXT),
  test_file_name: TestFileName,
  test_code: str().max(MAX_SCRIPT_TEXT),
  time_limit_ms: z.number().int().min(100).max(10_000),
  memory_limit_mb: z.number().int().min(32).max(1024),
  /** `pytest` tests: true makes the points follow the collected tests again (give no `points` with it). */
  points_auto: z.boolean(),
};

export const TestCaseCreate = z
  .strictObject({
    name: testCaseInputFields.name,
    kind: testCaseInputFields.kind.default('io'),
    /** Left out: 1, or for a `pytest` test the number of its collected tests' shares (`points_auto`). */
    points: testCaseInputFields.points.optional(),
    points_auto: testCaseInputFields.points_auto.optional(),
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
    time_limit_ms: testCaseInputFields.time_limit_ms.default(DEFAULT_TIME_LIMIT_MS),
    memory_limit_mb: testCaseInputFields.memory_limit_mb.default(DEFAULT_MEMORY_LIMIT_MB),
  })
  .superRefine((t, issue) => testCaseRules(t, issue));
export type TestCaseCreate = z.infer<typeof TestCaseCreate>;
/** The rules that tie fields to a kind: checked on a create and on the merged result of a PATCH. */
export function testCaseRules(
  t: { kind: TestCaseKind; check_script: string; test_code: string; points?: number; points_auto?: boolean },
  issue: { addIssue(issue: { code: 'custom'; message: string; path: string[] }): void },
): void {
  if (t.points_auto === true && t.points !== undefined) {
    issue.addIssue({
      code: 'custom',
      message: 'Points that follow the tests are counted, not given: leave points out.',
      path: ['points'],
    });
  }
  if (t.points_auto === true && t.kind !== 'pytest') {
    issue.addIssue({
      code: 'custom',
      message: 'Only a pytest test counts its points from its tests.',
      path: ['points_auto'],
    });
  }
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
export const ReferenceRunRequest = z.strictObject({ code: str().max(MAX_SCRIPT_TEXT).optional() });
export const ReferenceRunResponse = z.object({ submission_id: z.number().int() });

/** `TestCase/reorder/`: every test case of the assignment, each once, in the new order. */
export const TestCaseReorder = z.strictObject({
  ids: z
    .array(Id)
    .min(1)
    .max(MAX_TEST_CASES)
    .refine((ids) => new Set(ids).size === ids.length, 'A test case is listed twice.'),
});
export type TestCaseReorder = z.infer<typeof TestCaseReorder>;
