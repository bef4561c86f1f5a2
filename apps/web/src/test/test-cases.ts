import { TestCaseEditorView, type PytestCheck, type TestCase } from '@kadai/contracts';

/* Test cases as the API answers them to an editor: the one place the web tests build them, so a change of
   the contract is followed here once. Each is parsed with the contract, so a stale fixture fails loudly. */

export type EditorTestCase = Extract<TestCase, { view: 'editor' }>;

const AT = '2026-05-01T00:00:00.000Z';

type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function build(fields: Fields): EditorTestCase {
  return TestCaseEditorView.parse({
    view: 'editor',
    id: 9,
    assignment_id: 5,
    position: 0,
    name: 'Test',
    kind: 'io',
    points: 1,
    visibility: 'visible',
    time_limit_ms: 2000,
    memory_limit_mb: 256,
    stdin: '',
    expected_stdout: '',
    comparison: 'whitespace',
    tolerance: 1e-6,
    driver: '',
    check_script: '',
    test_file_name: 'test_main.py',
    test_code: '',
    points_auto: false,
    draft: false,
    check: null,
    created_at: AT,
    updated_at: AT,
    ...fields,
  });
}

/** An editor's test case: an io test worth 1 point unless `fields` say otherwise. */
export function editorTestCase(fields: Partial<EditorTestCase> = {}): EditorTestCase {
  return build(fields);
}

/** A pytest module's check: ready, one test of one share, checked against the reference solution. */
export function pytestCheck(fields: Partial<PytestCheck> = {}): PytestCheck {
  return {
    status: 'ready',
    reason: null,
    message: '',
    tests: [{ name: 'test_add', points: 1 }],
    against: 'reference',
    checked_at: AT,
    ...fields,
  };
}

/**
 * What the API answers to a create (no `base`) or a PATCH of `base` with `body`, as its service decides:
 * a pytest test gets `check` (ready, one test, unless given), its points follow the tests when none are
 * sent (or `points_auto: true` is), and a module that does not collect is a draft.
 */
export function savedTestCase(
  body: unknown,
  { base, check }: { base?: EditorTestCase; check?: PytestCheck } = {},
): EditorTestCase {
  const { points_auto: askedAuto, ...sent } = isFields(body) ? body : {};
  const merged: Fields = { ...base, ...sent };
  if (merged.kind !== 'pytest') {
    return build({ ...merged, points_auto: false, draft: false, check: null });
  }
  const pointsAuto =
    sent.points !== undefined ? false : askedAuto === true || (base ? base.points_auto : true);
  const checked = check ?? base?.check ?? pytestCheck();
  const shares = checked.tests.reduce((sum, test) => sum + test.points, 0);
  const counted = checked.status === 'ready' ? shares : null;
  const points = pointsAuto ? (counted ?? base?.points ?? 1) : (sent.points ?? base?.points ?? 1);
  return build({
    ...merged,
    points,
    points_auto: pointsAuto,
    draft: checked.status === 'draft',
    check: checked,
  });
}
