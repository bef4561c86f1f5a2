import type { Evaluation, EvaluationItemFull, PrecheckTest } from '@kadai/contracts';

/* Data for the web tests of submitting, prechecking and results, shaped as the API answers. */

const NOW = Date.now();
export const iso = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();
const DAY = 86_400_000;

export const COURSE = {
  id: 1,
  title: 'Python',
  description: '',
  has_videos: false,
  has_assessment: false,
  time_zone: 'Asia/Tokyo',
  created_at: iso(-DAY),
  updated_at: iso(-DAY),
  my_role: 'student',
  editor_count: 1,
  student_count: 3,
};

const DATES = {
  course_id: 1,
  course_title: 'Python',
  opens_at: iso(-DAY),
  due_at: iso(DAY),
  late_until: null,
  leaderboard_enabled: true,
  extended: false,
};

export const ASSIGNMENT_DETAIL = {
  assignment: {
    view: 'student',
    id: 5,
    title: 'Adding numbers',
    statement: 'Write `add(a, b)`.',
    starter_code: 'def add(a, b):\n    pass\n',
    entry_file: 'main.py',
    required_files: [],
    allowed_extensions: ['.py'],
    max_files: 2,
    max_file_bytes: 1024,
    created_by: 2,
    created_at: iso(-DAY),
    updated_at: iso(-DAY),
    courses: [DATES],
    total_points: 15,
    test_case_count: 3,
  },
  course: DATES,
  accepts_submissions: true,
  is_late_period: false,
  files: [],
  can_edit: false,
};

export function item(
  name: string,
  outcome: EvaluationItemFull['outcome'],
  extra: Partial<EvaluationItemFull> = {},
): EvaluationItemFull {
  const passed = outcome === 'passed';
  return { name, outcome, points: passed ? 1 : 0, max_points: 1, message: '', output: '', ...extra };
}

const ASSERTION = [
  'def test_lists():',
  '>       assert add([1, 2], [3]) == [1, 2, 4]',
  'E       assert [1, 2, 3] == [1, 2, 4]',
  'E         At index 2 diff: 3 != 4',
].join('\n');

/** One test case's result in a precheck (or, with the stored fields added, an evaluation). */
export function precheckTest(
  position: number,
  name: string,
  status: 'Correct' | 'Wrong',
  extra: Partial<PrecheckTest> = {},
): PrecheckTest {
  return {
    test_case_id: 100 + position,
    test_case_name: name,
    position,
    status,
    points: status === 'Correct' ? 5 : 0,
    max_points: 5,
    reason: status === 'Correct' ? null : 'wrong_answer',
    time_ms: 120,
    memory_kb: 9000,
    stdin: '',
    expected_stdout: '',
    stdout: '',
    stderr: '',
    exit_code: 0,
    signal: null,
    checker_message: '',
    items: [],
    ...extra,
  };
}

/** A pytest file with a pass, an assertion failure (with pytest's diff), a skip and a time-out. */
export const PYTEST_TEST = precheckTest(2, 'Unit tests', 'Wrong', {
  points: 2,
  max_points: 5,
  reason: 'wrong_answer',
  items: [
    item('test_add', 'passed'),
    item('test_lists', 'failed', { message: ASSERTION, output: 'debug: [1, 2, 3]\n' }),
    item('TestAdd::test_zero', 'passed'),
    item('test_later', 'skipped', { message: 'not today' }),
    item('test_slow', 'time_limit'),
  ],
});

export const ASSERTION_MESSAGE = ASSERTION;

/** A stored evaluation of `test`: full, or hidden (no output, items without message). */
export function evaluation(test: PrecheckTest, view: 'full' | 'hidden' = 'full'): Evaluation {
  const stored = {
    id: test.test_case_id * 10,
    submission_id: 42,
    overridden: false,
    comment: '',
    created_at: iso(0),
  };
  if (view === 'full') return { view, ...stored, ...test };
  return {
    view,
    ...stored,
    test_case_id: test.test_case_id,
    test_case_name: test.test_case_name,
    position: test.position,
    status: test.status,
    points: test.points,
    max_points: test.max_points,
    reason: test.reason,
    items: test.items.map(({ name, outcome, points, max_points }) => ({ name, outcome, points, max_points })),
  };
}

export function submission(status: string, extra: Record<string, unknown> = {}) {
  return {
    id: 42,
    assignment_id: 5,
    assignment_title: ASSIGNMENT_DETAIL.assignment.title,
    course_id: 1,
    user: { id: 4, email: 'student1@example.com', first_name: 'Taro', last_name: 'Yamada' },
    status,
    message: '',
    score: null,
    max_score: 15,
    is_final: false,
    is_late: false,
    is_reference: false,
    due_at: DATES.due_at,
    created_at: iso(0),
    queued_at: iso(0),
    started_at: null,
    graded_at: null,
    queue_position: null,
    files: [],
    ...extra,
  };
}
