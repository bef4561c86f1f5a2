import {
  MAX_SIMILARITY_REPORTS_LISTED,
  MAX_SIMILARITY_SUBMISSIONS,
  StoredSimilarityResult,
  type SimilarityPairView,
  type SimilarityReport,
  type SimilarityReportList,
  type SimilarityReportSummary,
  type StoredSimilarityPair,
  type UserSummary,
} from '@kadai/contracts';
import { joinSubmissionFiles } from '@kadai/grader/similarity';
import {
  SIMILARITY_QUEUE,
  type SimilarityInputSnapshot,
  type SimilarityJobData,
} from '@kadai/grader/similarity-job';
import type { Actor, AppContext } from '../../lib/context.ts';
import { contentDisposition } from '../../lib/downloads.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { canManageCourse, getCourseRole, listEditableCourseIds } from '../courses/courses.service.ts';
import { toCsv } from '../submissions/csv-format.ts';
import * as repo from './similarity.repo.ts';
import {
  SIMILARITY_CSV_HEADER,
  clustersOf,
  csvRowOf,
  sideOf,
  swapFragments,
  toPair,
} from './similarity-view.ts';

/*
 * Similarity reports (issue 39, docs/similarity.md): for the editors of a course and staff only. Asking
 * for one takes a snapshot of each student's counted submission and of the boilerplate, and queues a job
 * that a grader (a grader host, or the API's embedded one) works: Dolos is CPU work and never runs on a
 * request. Students are refused every route; people outside the course get 404.
 */

/** Teacher's files larger than this are data, not code anyone copies. */
const MAX_BOILERPLATE_FILE_BYTES = 256 * 1024;

async function requireManager(ctx: AppContext, actor: Actor, courseId: number): Promise<void> {
  const role = await getCourseRole(ctx.db, actor, courseId);
  if (!canManageCourse(role)) throw forbidden('Only editors of the course and staff see similarity reports.');
}

const decode = (bytes: Uint8Array) => new TextDecoder('utf-8', { fatal: false }).decode(bytes);

function toSummary(row: repo.ReportRow): SimilarityReportSummary {
  return {
    id: row.id,
    assignment_id: row.assignmentId,
    course_id: row.courseId,
    include_course_id: row.includeCourseId,
    status: row.status,
    error: row.error,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    submission_count: row.submissionCount,
    pair_count: row.pairCount,
  };
}

/** The other course to compare with: one the caller edits that has the assignment too (else 400). */
async function includedCourse(
  ctx: AppContext,
  actor: Actor,
  assignmentId: number,
  courseId: number,
  includeCourseId: number | null,
): Promise<number | null> {
  if (includeCourseId === null || includeCourseId === courseId) return null;
  const [editable] = await listEditableCourseIds(ctx.db, actor, [includeCourseId]);
  if (editable === undefined || !(await repo.findAssignmentInCourse(ctx.db, assignmentId, editable))) {
    throw badRequest('Choose another course you edit that has this assignment.', {
      include_course_id: ['Not a course you edit that has this assignment.'],
    });
  }
  return editable;
}

/** Starter code, the teacher's Python files and the tests' code: what every student was given. */
async function boilerplateOf(ctx: AppContext, assignmentId: number, starterCode: string): Promise<string[]> {
  const { files, tests } = await repo.listTeacherCode(ctx.db, assignmentId);
  const texts = [starterCode, ...tests];
  for (const file of files.filter((f) => f.filename.endsWith('.py'))) {
    const bytes = await ctx.storage.read(file.storageKey);
    if (bytes.byteLength <= MAX_BOILERPLATE_FILE_BYTES) texts.push(decode(bytes));
  }
  return texts.filter((text) => text.trim() !== '');
}

/** `POST Course/:id/assignments/:assignment_id/similarity/`: snapshot, store, queue (202). */
export async function requestReport(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  assignmentId: number,
  includeCourseId: number | null,
): Promise<SimilarityReportSummary> {
  await requireManager(ctx, actor, courseId);
  const assignment = await repo.findAssignmentInCourse(ctx.db, assignmentId, courseId);
  if (!assignment) throw notFound('No such assignment in this course.');
  const included = await includedCourse(ctx, actor, assignmentId, courseId, includeCourseId);

  const courseIds = included === null ? [courseId] : [courseId, included];
  const counted = await repo.listCountedSubmissions(
    ctx.db,
    assignmentId,
    courseIds,
    MAX_SIMILARITY_SUBMISSIONS + 1,
  );
  if (counted.length > MAX_SIMILARITY_SUBMISSIONS) {
    throw badRequest(`A report compares at most ${MAX_SIMILARITY_SUBMISSIONS} submissions.`);
  }
  const files = await repo.listSubmissionFiles(
    ctx.db,
    counted.map((c) => c.submissionId),
  );
  const input: SimilarityInputSnapshot = {
    submissions: counted.map((c) => ({
      submission_id: c.submissionId,
      user_id: c.userId,
      course_id: c.courseId,
      content: joinSubmissionFiles(
        files
          .filter((f) => f.submissionId === c.submissionId)
          .map((f) => ({ filename: f.filename, content: decode(f.content) })),
      ),
    })),
    boilerplate: await boilerplateOf(ctx, assignmentId, assignment.starterCode),
  };
  // The row commits before its job is queued, so a job never looks for a report that is not there.
  const row = await repo.insertReport(ctx.db, {
    assignmentId,
    courseId,
    includeCourseId: included,
    requestedBy: actor.userId,
    input,
  });
  const data: SimilarityJobData = { reportId: row.id };
  await ctx.jobs.send(SIMILARITY_QUEUE, data, { retryLimit: 2 });
  return toSummary(row);
}

export async function listReports(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  assignmentId: number,
): Promise<SimilarityReportList> {
  await requireManager(ctx, actor, courseId);
  if (!(await repo.findAssignmentInCourse(ctx.db, assignmentId, courseId))) throw notFound();
  const rows = await repo.listReports(ctx.db, courseId, assignmentId, MAX_SIMILARITY_REPORTS_LISTED);
  return { results: rows.map(toSummary) };
}

/**
 * A report and its stored result, for a manager of its course — and of the other course compared, whose
 * students' names and code it shows (404 otherwise, as for anyone outside).
 */
async function readReport(ctx: AppContext, actor: Actor, reportId: number) {
  const row = await repo.findReport(ctx.db, reportId);
  if (!row) throw notFound();
  await requireManager(ctx, actor, row.courseId);
  if (row.includeCourseId !== null) {
    const [editable] = await listEditableCourseIds(ctx.db, actor, [row.includeCourseId]);
    if (editable === undefined) throw notFound();
  }
  const parsed = row.status === 'done' ? StoredSimilarityResult.safeParse(row.result) : null;
  return { row, result: parsed?.success ? parsed.data : null };
}

async function peopleOf(ctx: AppContext, result: StoredSimilarityResult, pairs: StoredSimilarityPair[]) {
  const ids = new Set<number>();
  for (const pair of pairs) {
    for (const index of [pair.a, pair.b]) ids.add(result.submissions[index]?.user_id ?? 0);
  }
  const people = await repo.listUsers(ctx.db, [...ids]);
  return new Map<number, UserSummary>(people.map((p) => [p.id, p]));
}

export async function getReport(
  ctx: AppContext,
  actor: Actor,
  reportId: number,
  query: { threshold: number; limit: number },
): Promise<SimilarityReport> {
  const { row, result } = await readReport(ctx, actor, reportId);
  const atThreshold = result ? result.pairs.filter((p) => p.similarity >= query.threshold) : [];
  const shown = atThreshold.slice(0, query.limit);
  const people = result ? await peopleOf(ctx, result, shown) : new Map<number, UserSummary>();
  return {
    ...toSummary(row),
    threshold: query.threshold,
    pairs_at_threshold: atThreshold.length,
    pairs: result ? shown.map((p) => toPair(result, p, people)) : [],
    clusters: result ? clustersOf(result, atThreshold) : [],
  };
}

export async function exportReportCsv(
  ctx: AppContext,
  actor: Actor,
  reportId: number,
  threshold: number,
): Promise<{ body: string; contentDisposition: string }> {
  const { row, result } = await readReport(ctx, actor, reportId);
  const pairs = result ? result.pairs.filter((p) => p.similarity >= threshold) : [];
  const people = result ? await peopleOf(ctx, result, pairs) : new Map<number, UserSummary>();
  const rows = result ? pairs.map((p) => csvRowOf(toPair(result, p, people))) : [];
  return {
    body: toCsv(SIMILARITY_CSV_HEADER, rows),
    contentDisposition: contentDisposition(`similarity-report-${row.id}.csv`),
  };
}

/** Two submissions of a report side by side (by submission id, in either order) with their fragments. */
export async function getPairView(
  ctx: AppContext,
  actor: Actor,
  reportId: number,
  leftSubmissionId: number,
  rightSubmissionId: number,
): Promise<SimilarityPairView> {
  const { result } = await readReport(ctx, actor, reportId);
  if (!result) throw notFound('The report has no result yet.');
  const indexOf = (id: number) => result.submissions.findIndex((s) => s.submission_id === id);
  const left = indexOf(leftSubmissionId);
  const right = indexOf(rightSubmissionId);
  const pair = result.pairs.find((p) => (p.a === left && p.b === right) || (p.a === right && p.b === left));
  if (!pair) throw notFound('No such pair in this report.');
  const files = await repo.listSubmissionFiles(ctx.db, [leftSubmissionId, rightSubmissionId]);
  const contentOf = (submissionId: number) =>
    joinSubmissionFiles(
      files
        .filter((f) => f.submissionId === submissionId)
        .map((f) => ({ filename: f.filename, content: decode(f.content) })),
    );
  const people = await peopleOf(ctx, result, [pair]);
  return {
    report_id: reportId,
    similarity: pair.similarity,
    longest_fragment: { tokens: pair.longest_tokens, lines: pair.longest_lines },
    overlap: { tokens: pair.overlap_tokens },
    left: { ...sideOf(result, left, people), content: contentOf(leftSubmissionId) },
    right: { ...sideOf(result, right, people), content: contentOf(rightSubmissionId) },
    fragments: pair.a === left ? pair.fragments : swapFragments(pair.fragments),
  };
}
