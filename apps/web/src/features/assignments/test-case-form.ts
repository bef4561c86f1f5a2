import { DEFAULT_TEST_FILE_NAME, type TestCase, type TestCaseCreate } from '@kadai/contracts';

type EditorTestCase = Extract<TestCase, { view: 'editor' }>;

export type TestCaseFormValues = Omit<TestCaseCreate, 'position'>;

/** A new test: input/output, 1 point, visible, whitespace-insensitive, 2 s and 256 MB. */
export function emptyTestCaseValues(): TestCaseFormValues {
  return {
    name: '',
    kind: 'io',
    points: 1,
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
