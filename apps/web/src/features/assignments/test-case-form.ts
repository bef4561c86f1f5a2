import {
  DEFAULT_TEST_FILE_NAME,
  type TestCase,
  type TestCaseCreate,
  type TestCaseUpdate,
} from '@kadai/contracts';

type EditorTestCase = Extract<TestCase, { view: 'editor' }>;

export type TestCaseFormValues = Omit<TestCaseCreate, 'position' | 'points' | 'points_auto'> & {
  /** The editor's own points: what an io or script test sends, and a pytest test whose points are set. */
  points: number;
  /** pytest tests: the points follow the collected tests (then `points` is not sent). */
  points_auto: boolean;
};

/**
 * A new test: input/output, 1 point, visible, whitespace-insensitive, 2 s and 256 MB. Should it become a
 * pytest test, its points follow its tests until the editor types some.
 */
export function emptyTestCaseValues(): TestCaseFormValues {
  return {
    name: '',
    kind: 'io',
    points: 1,
    points_auto: true,
    visibility: 'visible',
    stdin: '',
    expected_stdout: '',
    comparison: 'whitespace',
    tolerance: 1e-6,
    driver: '',
    check_script: '',
    test_file_name: DEFAULT_TEST_FILE_NAME,
    test_code: '',
    time_limit_ms: 2000,
    memory_limit_mb: 256,
  };
}

export function testCaseValues(test: EditorTestCase): TestCaseFormValues {
  return {
    name: test.name,
    kind: test.kind,
    points: test.points,
    points_auto: test.kind === 'pytest' && test.points_auto,
    visibility: test.visibility,
    stdin: test.stdin,
    expected_stdout: test.expected_stdout,
    comparison: test.comparison,
    tolerance: test.tolerance,
    driver: test.driver,
    check_script: test.check_script,
    // A test written before pytest tests existed has no file name; the form always sends a valid one.
    test_file_name: test.test_file_name || DEFAULT_TEST_FILE_NAME,
    test_code: test.test_code,
    time_limit_ms: test.time_limit_ms,
    memory_limit_mb: test.memory_limit_mb,
  };
}

/**
 * What the form sends for a new test (`saved` null) or a change of `saved`. io and script tests send
 * their points as always. A pytest test whose points follow its tests sends no points (the API refuses
 * both together): a new one leaves them out, which makes them follow; a saved one whose points were set
 * asks with `points_auto: true`, and one that already follows needs neither.
 */
export function testCaseBody(
  values: TestCaseFormValues,
  saved: EditorTestCase | null,
): Omit<TestCaseCreate, 'position'> & TestCaseUpdate {
  const { points, points_auto: follow, ...fields } = values;
  if (fields.kind !== 'pytest' || !follow) return { ...fields, points };
  const followsAlready = saved !== null && saved.kind === 'pytest' && saved.points_auto;
  return saved === null || followsAlready ? fields : { ...fields, points_auto: true };
}
