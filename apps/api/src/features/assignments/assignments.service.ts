import path from 'node:path';
import type {
  Assignment,
  AssignmentCourseInput,
  AssignmentCreate,
  AssignmentListQuery,
  AssignmentReplace,
  AssignmentUpdate,
  Paginated,
} from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import {
  assertEditsCourses,
  getAssignmentAccess,
  requireManager,
  resolveAccess,
  type AssignmentAccess,
} from './assignment-access.ts';
import * as repo from './assignments.repo.ts';
import * as lists from './assignment-lists.repo.ts';
import { listStorageKeys } from './files.repo.ts';
import { deleteStoredFiles } from './files.service.ts';
import { toAssignment } from './assignments.shape.ts';

/*
 * The assignments as other features reach them (each takes an Executor, so it joins the caller's
 * transaction): submissions read an assignment, its courses and its points; assessment's demo seeder
 * writes an assignment of its own.
 */
export {
  findAssignment,
  insertAssignment,
  listLinks,
  replaceLinks,
  testCaseTotals,
} from './assignments.repo.ts';

type SubmissionRules = Pick<
  AssignmentReplace,
  'entry_file' | 'required_files' | 'allowed_extensions' | 'max_files'
>;

/** What zod cannot see field by field: the entry and required files against the other limits. */
export function checkSubmissionRules(rules: SubmissionRules): void {
  const allowed = new Set(rules.allowed_extensions.map((e) => e.toLowerCase()));
  const hasAllowedExtension = (name: string) => allowed.has(path.extname(name).toLowerCase());
  const fields: Record<string, string[]> = {};
  if (!hasAllowedExtension(rules.entry_file)) {
    fields.entry_file = [
      `The entry file must have one of the allowed extensions (${[...allowed].join(', ')}).`,
    ];
  }
  const badRequired = rules.required_files.filter((f) => !hasAllowedExtension(f));
  if (badRequired.length > 0) {
    fields.required_files = [`Not an allowed extension: ${badRequired.join(', ')}.`];
  } else if (new Set(rules.required_files).size !== rules.required_files.length) {
    fields.required_files = ['A file is listed twice.'];
  }
  const needed = new Set([rules.entry_file, ...rules.required_files]).size;
  if (needed > rules.max_files) {
    fields.max_files = [`Must allow at least ${needed} files: the entry file and every required file.`];
  }
  if (Object.keys(fields).length > 0) throw badRequest('Invalid input.', fields);
}

function assignmentFields(input: Partial<AssignmentReplace>): Partial<repo.AssignmentFields> {
  return {
    title: input.title,
    statement: input.statement,
    starterCode: input.starter_code,
    entryFile: input.entry_file,
    requiredFiles: input.required_files,
    allowedExtensions: input.allowed_extensions,
    maxFiles: input.max_files,
    maxFileBytes: input.max_file_bytes,
    referenceSolution: input.reference_solution,
  };
}

const linkInput = (c: AssignmentCourseInput): repo.LinkInput => ({
  courseId: c.course_id,
  opensAt: new Date(c.opens_at),
  dueAt: new Date(c.due_at),
  lateUntil: c.late_until === null ? null : new Date(c.late_until),
  leaderboardEnabled: c.leaderboard_enabled,
});

/** The assignment as the caller sees it (as `GET Assignment/{id}/` answers); joins `db`'s transaction. */
export async function assignmentOut(db: Executor, actor: Actor, id: number): Promise<Assignment> {
  const access = await getAssignmentAccess(db, actor, id);
  const totals = await repo.testCaseTotals(db, [id]);
  return toAssignment(access, totals.get(id)!);
}

/**
 * Creates the assignment and its course links in the caller's transaction, with every check of
 * `POST Assignment/`; its id. The bundle import adds attachments and test cases in the same transaction.
 */
export async function insertNewAssignment(
  tx: Executor,
  actor: Actor,
  input: AssignmentCreate,
): Promise<number> {
  checkSubmissionRules(input);
  await assertEditsCourses(
    tx,
    actor,
    input.courses.map((c) => c.course_id),
  );
  const fields = assignmentFields(input);
  const row = await repo.insertAssignment(tx, {
    ...fields,
    title: input.title,
    createdBy: actor.userId,
  });
  await repo.replaceLinks(tx, row.id, input.courses.map(linkInput));
  return row.id;
}

export async function createAssignment(
  ctx: AppContext,
  actor: Actor,
  input: AssignmentCreate,
): Promise<Assignment> {
  return ctx.db.transaction(async (tx) =>
    assignmentOut(tx, actor, await insertNewAssignment(tx, actor, input)),
  );
}

const sameLink = (a: repo.LinkInput, b: repo.LinkView) =>
  a.opensAt.getTime() === b.opensAt.getTime() &&
  a.dueAt.getTime() === b.dueAt.getTime() &&
  (a.lateUntil?.getTime() ?? null) === (b.lateUntil?.getTime() ?? null) &&
  a.leaderboardEnabled === b.leaderboardEnabled;

/**
 * A new course list: every course added, removed or given other dates must be one the caller edits;
 * a course whose students have submitted may be removed by staff only (their submissions would be
 * hidden with it).
 */
async function changeCourses(
  tx: Executor,
  actor: Actor,
  access: AssignmentAccess,
  courses: AssignmentCourseInput[],
): Promise<boolean> {
  const wanted = courses.map(linkInput);
  const current = new Map(access.links.map((l) => [l.courseId, l]));
  const wantedIds = new Set(wanted.map((l) => l.courseId));
  const removed = access.links.filter((l) => !wantedIds.has(l.courseId)).map((l) => l.courseId);
  const touched = wanted.filter((l) => {
    const before = current.get(l.courseId);
    return !before || !sameLink(l, before);
  });
  const changed = [...removed, ...touched.map((l) => l.courseId)];
  if (changed.length === 0) return false;
  await assertEditsCourses(tx, actor, changed);
  if (removed.length > 0 && !actor.isStaff) {
    const counts = await repo.countStudentSubmissionsByCourse(tx, access.assignment.id);
    const withWork = removed.filter((id) => (counts.get(id) ?? 0) > 0);
    if (withWork.length > 0) {
      throw conflict(
        `Students of course ${withWork.join(', ')} have submitted to this assignment; only staff can remove it from that course.`,
        'has_submissions',
        { courses: ['A course with submissions cannot be removed.'] },
      );
    }
  }
  await repo.replaceLinks(tx, access.assignment.id, wanted);
  return true;
}

/** PUT (every field) and PATCH (the fields given; `courses` replaces the whole list). */
export async function updateAssignment(
  ctx: AppContext,
  actor: Actor,
  id: number,
  input: AssignmentUpdate | AssignmentReplace,
): Promise<Assignment> {
  return ctx.db.transaction(async (tx) => {
    const access = await getAssignmentAccess(tx, actor, id);
    requireManager(access);
    await repo.lockAssignment(tx, id);
    const a = access.assignment;
    checkSubmissionRules({
      entry_file: input.entry_file ?? a.entryFile,
      required_files: input.required_files ?? a.requiredFiles,
      allowed_extensions: input.allowed_extensions ?? a.allowedExtensions,
      max_files: input.max_files ?? a.maxFiles,
    });
    const coursesChanged = input.courses ? await changeCourses(tx, actor, access, input.courses) : false;
    const fields = assignmentFields(input);
    const hasFields = Object.values(fields).some((v) => v !== undefined);
    if (hasFields || coursesChanged) {
      if (!(await repo.updateAssignment(tx, id, fields))) throw notFound();
    }
    return assignmentOut(tx, actor, id);
  });
}

/**
 * Managers delete; it must be theirs in every course it is given in (staff: always). Students'
 * submissions are deleted with it, so an assignment that has them is deleted by staff only.
 */
export async function deleteAssignment(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  const keys = await ctx.db.transaction(async (tx) => {
    const access = await getAssignmentAccess(tx, actor, id);
    requireManager(access);
    await repo.lockAssignment(tx, id);
    if (!actor.isStaff) {
      if (access.links.some((l) => !l.isEditor)) {
        throw forbidden(
          'This assignment is also given in courses you do not edit; remove your courses from it instead.',
        );
      }
      const counts = await repo.countStudentSubmissionsByCourse(tx, id);
      const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
      if (total > 0) {
        throw conflict(
          `Students have made ${total} submission(s) to this assignment; only staff can delete it.`,
          'has_submissions',
        );
      }
    }
    const stored = await listStorageKeys(tx, id);
    if (!(await repo.deleteAssignment(tx, id))) throw notFound();
    return stored;
  });
  await deleteStoredFiles(ctx, keys);
}

export function getAssignment(ctx: AppContext, actor: Actor, id: number): Promise<Assignment> {
  return assignmentOut(ctx.db, actor, id);
}

const MAX_ID = 2_147_483_647;

export async function listAssignments(
  ctx: AppContext,
  actor: Actor,
  query: AssignmentListQuery,
): Promise<Paginated<Assignment>> {
  const courseIds = query.courses?.split(',').map(Number);
  if (courseIds?.some((id) => id < 1 || id > MAX_ID)) {
    throw badRequest('Invalid input.', { courses: ['Not a course id.'] });
  }
  const { count, ids } = await lists.listVisibleAssignmentIds(ctx.db, actor, {
    courseIds,
    createdBy: query.created_by,
    search: query.search || undefined,
    ordering: query.ordering,
    limit: query.limit,
    offset: query.offset,
  });
  const [rows, links, totals] = await Promise.all([
    repo.listAssignmentsByIds(ctx.db, ids),
    repo.listLinks(ctx.db, ids, actor.userId),
    repo.testCaseTotals(ctx.db, ids),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const results = ids.flatMap((id) => {
    const row = byId.get(id);
    const access =
      row &&
      resolveAccess(
        actor,
        row,
        links.filter((l) => l.assignmentId === id),
      );
    return access ? [toAssignment(access, totals.get(id)!)] : [];
  });
  return { count, limit: query.limit, offset: query.offset, results };
}
