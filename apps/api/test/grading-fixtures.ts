/**
 * Data for grader tests, inserted with SQL (the grading pipeline is tested apart from the HTTP routes):
 * an assignment in a course, its test cases, a submission with its files, and waiting for a verdict.
 */
import type { TestApp } from './harness.ts';
import { createCourse, createUser } from './factories.ts';

export interface TestCaseFields {
  name?: string;
  kind?: 'io' | 'script';
  points?: number;
  stdin?: string;
  expected_stdout?: string;
  comparison?: 'exact' | 'whitespace' | 'numeric';
  tolerance?: number;
  driver?: string;
  check_script?: string;
  time_limit_ms?: number;
  memory_limit_mb?: number;
  position?: number;
}

export interface AssignmentFields {
  entry_file?: string;
  required_files?: string[];
  allowed_extensions?: string[];
  max_files?: number;
}

export interface GradingWorld {
  assignmentId: number;
  courseId: number;
  userId: number;
  testCaseIds: number[];
}

export async function createGradingWorld(
  t: TestApp,
  tests: TestCaseFields[],
  assignment: AssignmentFields = {},
): Promise<GradingWorld> {
  const course = await createCourse(t);
  const student = await createUser(t);
  const { rows } = await t.database.query(
    `INSERT INTO assignments (title, entry_file, required_files, allowed_extensions, max_files)
     VALUES ($1, $2, $3::text[], $4::text[], $5) RETURNING id`,
    [
      'Graded',
      assignment.entry_file ?? 'main.py',
      assignment.required_files ?? [],
      assignment.allowed_extensions ?? ['.py'],
      assignment.max_files ?? 5,
    ],
  );
  const assignmentId = Number(rows[0]!.id);
  await t.database.query(
    `INSERT INTO assignment_courses (assignment_id, course_id, opens_at, due_at)
     VALUES ($1, $2, now() - interval '1 day', now() + interval '1 day')`,
    [assignmentId, course.id],
  );
  const testCaseIds: number[] = [];
  for (const [index, test] of tests.entries())
    testCaseIds.push(await addTestCase(t, assignmentId, test, index));
  return { assignmentId, courseId: course.id, userId: student.id, testCaseIds };
}

export async function addTestCase(t: TestApp, assignmentId: number, test: TestCaseFields, position = 0) {
  const { rows } = await t.database.query(
    `INSERT INTO test_cases (assignment_id, position, name, kind, points, stdin, expected_stdout, comparison,
                             tolerance, driver, check_script, time_limit_ms, memory_limit_mb)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
    [
      assignmentId,
      test.position ?? position,
      test.name ?? `test ${position + 1}`,
      test.kind ?? 'io',
      test.points ?? 1,
      test.stdin ?? '',
      test.expected_stdout ?? '',
      test.comparison ?? 'whitespace',
      test.tolerance ?? 1e-6,
      test.driver ?? '',
      test.check_script ?? '',
      test.time_limit_ms ?? 2000,
      test.memory_limit_mb ?? 256,
    ],
  );
  return Number(rows[0]!.id);
}

/** A committed submission with its files, still Pending (not queued). */
export async function createSubmission(
  t: TestApp,
  world: GradingWorld,
  files: Record<string, string | Uint8Array>,
): Promise<number> {
  return t.database.transaction(async (query) => {
    const { rows } = await query(
      `INSERT INTO submissions (assignment_id, course_id, user_id) VALUES ($1, $2, $3) RETURNING id`,
      [world.assignmentId, world.courseId, world.userId],
    );
    const id = Number(rows[0]!.id);
    for (const [filename, content] of Object.entries(files)) {
      const bytes = typeof content === 'string' ? Buffer.from(content) : content;
      await query(
        'INSERT INTO submission_files (submission_id, filename, content, size) VALUES ($1, $2, $3, $4)',
        [id, filename, bytes, bytes.byteLength],
      );
    }
    return id;
  });
}

export interface SubmissionState {
  status: string;
  message: string;
  score: number | null;
  max_score: number | null;
  grading_attempts: number;
  grader_host: string | null;
  grading_token: string | null;
}

export async function submissionState(t: TestApp, id: number): Promise<SubmissionState> {
  const { rows } = await t.database.query(
    `SELECT status, message, score, max_score, grading_attempts, grader_host, grading_token::text AS grading_token
       FROM submissions WHERE id = $1`,
    [id],
  );
  const row = rows[0]!;
  return {
    status: String(row.status),
    message: String(row.message),
    score: row.score === null ? null : Number(row.score),
    max_score: row.max_score === null ? null : Number(row.max_score),
    grading_attempts: Number(row.grading_attempts),
    grader_host: row.grader_host === null ? null : String(row.grader_host),
    grading_token: row.grading_token === null ? null : String(row.grading_token),
  };
}

export interface EvaluationRow {
  test_case_id: number;
  status: string;
  points: number;
  reason: string | null;
  stdout: string;
  stderr: string;
  checker_message: string;
  exit_code: number | null;
}

export async function evaluationsOf(t: TestApp, submissionId: number): Promise<EvaluationRow[]> {
  const { rows } = await t.database.query(
    `SELECT e.test_case_id, e.status, e.points, e.reason, e.stdout, e.stderr, e.checker_message, e.exit_code
       FROM evaluations e JOIN test_cases t ON t.id = e.test_case_id
      WHERE e.submission_id = $1 ORDER BY t.position, t.id`,
    [submissionId],
  );
  return rows.map((r) => ({
    test_case_id: Number(r.test_case_id),
    status: String(r.status),
    points: Number(r.points),
    reason: r.reason === null ? null : String(r.reason),
    stdout: String(r.stdout),
    stderr: String(r.stderr),
    checker_message: String(r.checker_message),
    exit_code: r.exit_code === null ? null : Number(r.exit_code),
  }));
}

const FINAL = new Set(['Completed', 'InvalidFormat', 'InternalError', 'Canceled']);

/** Polls until the submission reaches a final status (or `until` holds), failing after `timeoutMs`. */
export async function waitForSubmission(
  t: TestApp,
  id: number,
  until: (state: SubmissionState) => boolean = (s) => FINAL.has(s.status),
  timeoutMs = 20_000,
): Promise<SubmissionState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await submissionState(t, id);
    if (until(state)) return state;
    if (Date.now() > deadline) {
      throw new Error(`submission ${id} still ${state.status} after ${timeoutMs} ms (${state.message})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
