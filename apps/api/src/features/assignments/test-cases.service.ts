import {
  DEFAULT_MEMORY_LIMIT_MB,
  DEFAULT_TEST_FILE_NAME,
  DEFAULT_TIME_LIMIT_MS,
  MAX_TEST_CASES,
  testCaseRules,
  type TestCase,
  type TestCaseCreate,
  type TestCaseReorder,
  type TestCaseUpdate,
} from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { enqueueGrading } from '../submissions/grading.ts';
import {
  getAssignmentInCourse,
  isClosed,
  requireManager,
  type AssignmentAccess,
} from './assignment-access.ts';
import { lockAssignment } from './assignments.repo.ts';
import type { LinkView } from './assignments.repo.ts';
import { checkPytestModule, storedAssignment, type AssignmentForCheck } from './test-file-check.ts';
import * as repo from './test-cases.repo.ts';

/** For assessment's demo seeder, which gives its warm-up assignment tests. */
export { insertTestCase } from './test-cases.repo.ts';
export type { TestCaseRow } from './test-cases.repo.ts';

/** The `visible` test cases of an assignment in their order: what a precheck runs (never a draft). */
export async function visibleTestCases(
  db: Executor,
  assignmentId: number,
): Promise<{ visible: repo.TestCaseRow[]; notRun: number }> {
  const rows = (await repo.listTestCases(db, assignmentId)).filter((row) => !row.draft);
  const visible = rows.filter((row) => row.visibility === 'visible');
  return { visible, notRun: rows.length - visible.length };
}

/**
 * Managers get every field. Students get a test's input and expected output only once it is revealed
 * (`visible`: always; `after_due`: after this course's due date; `hidden`: never) and never its driver
 * or check script: the student schema has no such fields. A pytest module is revealed like an input:
 * a hidden one's code is never sent to a student.
 */
export function toTestCase(row: repo.TestCaseRow, access: AssignmentAccess, link: LinkView): TestCase {
  const common = {
    id: row.id,
    assignment_id: row.assignmentId,
    position: row.position,
    name: row.name,
    kind: row.kind,
    points: row.points,
    visibility: row.visibility,
    time_limit_ms: row.timeLimitMs,
    memory_limit_mb: row.memoryLimitMb,
  };
  if (access.canManage) {
    const { points_auto: _auto, ...input } = testCaseInputOf(row);
    return {
      view: 'editor',
      ...common,
      ...input,
      points: row.points,
      points_auto: row.pointsAuto,
      draft: row.draft,
      check:
        row.kind === 'pytest' && row.pytestCheck
          ? { ...row.pytestCheck, reason: row.pytestCheck.reason ?? null }
          : null,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  }
  const revealed = row.visibility === 'visible' || (row.visibility === 'after_due' && isClosed(link));
  return {
    view: 'student',
    ...common,
    revealed,
    stdin: revealed ? row.stdin : null,
    expected_stdout: revealed ? row.expectedStdout : null,
    test_file_name: row.testFileName,
    test_code: revealed && row.kind === 'pytest' ? row.testCode : null,
  };
}

/**
 * A test case's own fields as the API takes them (TestCaseCreate but its position): editors, bundles.
 * Points that follow a pytest module's tests are left out (they are counted again where it lands).
 */
export function testCaseInputOf(row: repo.TestCaseRow): Omit<TestCaseCreate, 'position'> {
  return {
    name: row.name,
    kind: row.kind,
    ...(row.pointsAuto ? { points_auto: true } : { points: row.points }),
    visibility: row.visibility,
    stdin: row.stdin,
    expected_stdout: row.expectedStdout,
    comparison: row.comparison,
    tolerance: row.tolerance,
    driver: row.driver,
    check_script: row.checkScript,
    test_file_name: row.testFileName,
    test_code: row.testCode,
    time_limit_ms: row.timeLimitMs,
    memory_limit_mb: row.memoryLimitMb,
  };
}

/** The row of a whole test case (a bundle's) at `position`: what `fieldsOf` gives for a full input. */
export function newTestCaseFields(
  input: Omit<TestCaseCreate, 'position'>,
  position: number,
): repo.TestCaseFields {
  // Every field of a whole input is defined, so none of fieldsOf's is left undefined.
  return { ...(fieldsOf(input) as Omit<repo.TestCaseFields, 'position'>), position };
}

function fieldsOf(input: Partial<TestCaseCreate>): Partial<repo.TestCaseFields> {
  // pointsAuto, draft and pytestCheck are decided by pytestFields.
  return {
    name: input.name,
    kind: input.kind,
    points: input.points,
    visibility: input.visibility,
    position: input.position,
    stdin: input.stdin,
    expectedStdout: input.expected_stdout,
    comparison: input.comparison,
    tolerance: input.tolerance,
    driver: input.driver,
    checkScript: input.check_script,
    testFileName: input.test_file_name,
    testCode: input.test_code,
    timeLimitMs: input.time_limit_ms,
    memoryLimitMb: input.memory_limit_mb,
  };
}

/** The kind rules of the contracts (a script needs a check script, a pytest test a module), as a 400. */
function checkKindRules(merged: Parameters<typeof testCaseRules>[0]): void {
  const fields: Record<string, string[]> = {};
  testCaseRules(merged, {
    addIssue: ({ message, path }) => {
      (fields[path[0]!] ??= []).push(message);
    },
  });
  if (Object.keys(fields).length > 0) throw badRequest('Invalid input.', fields);
}

/** A draft (a pytest module that does not collect) is the editors' alone until it does. */
const seenBy = (access: AssignmentAccess) => (row: repo.TestCaseRow) => access.canManage || !row.draft;

export async function listTestCases(
  ctx: AppContext,
  actor: Actor,
  assignmentId: number,
  courseId: number,
): Promise<{ count: number; results: TestCase[] }> {
  const { access, link } = await getAssignmentInCourse(ctx.db, actor, assignmentId, courseId);
  const rows = (await repo.listTestCases(ctx.db, assignmentId)).filter(seenBy(access));
  return { count: rows.length, results: rows.map((row) => toTestCase(row, access, link)) };
}

export async function getTestCase(
  ctx: AppContext,
  actor: Actor,
  assignmentId: number,
  courseId: number,
  id: number,
): Promise<TestCase> {
  const { access, link } = await getAssignmentInCourse(ctx.db, actor, assignmentId, courseId);
  const row = await repo.findTestCase(ctx.db, assignmentId, id);
  if (!row || !seenBy(access)(row)) throw notFound();
  return toTestCase(row, access, link);
}

export async function createTestCase(
  ctx: AppContext,
  actor: Actor,
  assignmentId: number,
  courseId: number,
  input: TestCaseCreate,
): Promise<TestCase> {
  // The check runs first, outside any transaction: it takes a sandbox run.
  const before = await getAssignmentInCourse(ctx.db, actor, assignmentId, courseId);
  requireManager(before.access);
  const checked = await pytestFields(
    ctx,
    actor.userId,
    storedAssignment(ctx, before.access.assignment),
    input,
    null,
  );
  return ctx.db.transaction(async (tx) => {
    const { access, link } = await getAssignmentInCourse(tx, actor, assignmentId, courseId);
    requireManager(access);
    await lockAssignment(tx, assignmentId);
    const { count, next } = await repo.testCaseCount(tx, assignmentId);
    if (count >= MAX_TEST_CASES) {
      throw badRequest(
        `An assignment can have at most ${MAX_TEST_CASES} test cases.`,
        undefined,
        'too_many_test_cases',
      );
    }
    const fields = fieldsOf(input);
    const row = await repo.insertTestCase(tx, assignmentId, {
      ...fields,
      ...checked,
      name: input.name,
      kind: input.kind,
      position: input.position ?? next,
    });
    return toTestCase(row, access, link);
  });
}

/** PUT (`replace`: a whole test case, defaults for what is left out; the position is kept) and PATCH. */
export async function updateTestCase(
  ctx: AppContext,
  actor: Actor,
  assignmentId: number,
  courseId: number,
  id: number,
  input: TestCaseUpdate | TestCaseCreate,
  replace = false,
): Promise<TestCase> {
  const before = await getAssignmentInCourse(ctx.db, actor, assignmentId, courseId);
  requireManager(before.access);
  const current = await repo.findTestCase(ctx.db, assignmentId, id);
  if (!current) throw notFound();
  checkKindRules({
    kind: input.kind ?? current.kind,
    check_script: input.check_script ?? current.checkScript,
    test_code: input.test_code ?? current.testCode,
    points: input.points,
    points_auto: input.points_auto,
  });
  const checked = await pytestFields(
    ctx,
    actor.userId,
    storedAssignment(ctx, before.access.assignment),
    input,
    current,
    replace,
  );
  return ctx.db.transaction(async (tx) => {
    const { access, link } = await getAssignmentInCourse(tx, actor, assignmentId, courseId);
    requireManager(access);
    const row = await repo.updateTestCase(tx, assignmentId, id, { ...fieldsOf(input), ...checked });
    if (!row) throw notFound();
    return toTestCase(row, access, link);
  });
}

/**
 * What a pytest module's check decides (docs/assignments.md): whether it is a draft, its last check, and
 * its points when they follow its tests. The module is checked when it is new or changed (its code, file
 * name, limits or kind), not when only a name or a visibility changes.
 */
export async function pytestFields(
  ctx: AppContext,
  /** Whose save this is: the check's sandbox runs wait for the API's test-run slots as theirs. */
  owner: number,
  assignment: AssignmentForCheck,
  input: Partial<TestCaseCreate>,
  current: repo.TestCaseRow | null,
  replace = false,
): Promise<Pick<repo.TestCaseFields, 'pointsAuto' | 'draft' | 'pytestCheck' | 'points'>> {
  const kind = input.kind ?? current?.kind ?? 'io';
  // A PUT starts again from the defaults: of the current test only its module's last check may stay.
  const kept = replace ? null : current;
  // Points given are the editor's; `points_auto` asks for them to follow the tests again.
  const pointsAuto =
    kind === 'pytest' &&
    (input.points !== undefined ? false : (input.points_auto ?? kept?.pointsAuto ?? kept === null));
  if (kind !== 'pytest') {
    return { pointsAuto: false, draft: false, pytestCheck: null, points: input.points ?? kept?.points ?? 1 };
  }
  const module = {
    testFileName: input.test_file_name ?? current?.testFileName ?? DEFAULT_TEST_FILE_NAME,
    testCode: input.test_code ?? current?.testCode ?? '',
    timeLimitMs: input.time_limit_ms ?? current?.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS,
    memoryLimitMb: input.memory_limit_mb ?? current?.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB,
  };
  const changed =
    !current ||
    current.kind !== 'pytest' ||
    current.pytestCheck === null ||
    module.testFileName !== current.testFileName ||
    module.testCode !== current.testCode ||
    module.timeLimitMs !== current.timeLimitMs ||
    module.memoryLimitMb !== current.memoryLimitMb;
  const { check, draft, shares } = changed
    ? await checkPytestModule(ctx, owner, assignment, module)
    : { check: current.pytestCheck, draft: current.draft, shares: null };
  const counted =
    shares ?? (check?.status === 'ready' ? check.tests.reduce((sum, t) => sum + t.points, 0) : null);
  const points = pointsAuto ? (counted ?? kept?.points ?? 1) : (input.points ?? kept?.points ?? 1);
  return { pointsAuto, draft, pytestCheck: check, points: Math.min(1000, points) };
}

export async function deleteTestCase(
  ctx: AppContext,
  actor: Actor,
  assignmentId: number,
  courseId: number,
  id: number,
): Promise<void> {
  const { access } = await getAssignmentInCourse(ctx.db, actor, assignmentId, courseId);
  requireManager(access);
  if (!(await repo.deleteTestCase(ctx.db, assignmentId, id))) throw notFound();
}

export async function reorderTestCases(
  ctx: AppContext,
  actor: Actor,
  assignmentId: number,
  courseId: number,
  input: TestCaseReorder,
): Promise<{ count: number; results: TestCase[] }> {
  return ctx.db.transaction(async (tx) => {
    const { access, link } = await getAssignmentInCourse(tx, actor, assignmentId, courseId);
    requireManager(access);
    await lockAssignment(tx, assignmentId);
    const current = await repo.listTestCases(tx, assignmentId);
    const known = new Set(current.map((row) => row.id));
    if (input.ids.length !== current.length || input.ids.some((testId) => !known.has(testId))) {
      throw badRequest('List every test case of the assignment exactly once.', {
        ids: [`Expected the ${current.length} test case ids of this assignment.`],
      });
    }
    await repo.setPositions(tx, assignmentId, input.ids);
    const rows = await repo.listTestCases(tx, assignmentId);
    return { count: rows.length, results: rows.map((row) => toTestCase(row, access, link)) };
  });
}

/**
 * Grades a reference solution like a submission (marked `is_reference`, so it never counts anywhere):
 * `code` when given (also saved as the assignment's reference solution), else the stored one. The
 * submission and its file are committed before grading is queued.
 */
export async function runReference(
  ctx: AppContext,
  actor: Actor,
  assignmentId: number,
  courseId: number,
  code: string | undefined,
): Promise<{ submission_id: number }> {
  const submissionId = await ctx.db.transaction(async (tx) => {
    const { access } = await getAssignmentInCourse(tx, actor, assignmentId, courseId);
    requireManager(access);
    await lockAssignment(tx, assignmentId);
    const source = code ?? access.assignment.referenceSolution;
    if (source.trim() === '') {
      // Not keyed `code`: that key of the error body is the error's code.
      throw badRequest(
        'There is no reference solution: write one first.',
        { reference_solution: ['Give the code of a reference solution.'] },
        'no_reference_solution',
      );
    }
    const { count } = await repo.testCaseCount(tx, assignmentId);
    if (count === 0) {
      throw badRequest('The assignment has no test cases to run.', undefined, 'no_test_cases');
    }
    if (code !== undefined) await repo.setReferenceSolution(tx, assignmentId, code);
    return repo.insertReferenceSubmission(tx, {
      assignmentId,
      courseId,
      userId: actor.userId,
      filename: access.assignment.entryFile,
      content: Buffer.from(source, 'utf8'),
    });
  });
  await enqueueGrading(ctx, [submissionId]);
  return { submission_id: submissionId };
}
