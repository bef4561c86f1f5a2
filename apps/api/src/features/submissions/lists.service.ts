import type {
  Submission,
  SubmissionCourseListQuery,
  SubmissionDetail,
  SubmissionList,
  SubmissionListQueryWithReference,
} from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { getCourseRole } from '../courses/courses.service.ts';
import { listEvaluationsOfSubmission } from './evaluations.repo.ts';
import * as lists from './lists.repo.ts';
import { getVisibleSubmission, type SubmissionAccess } from './submission-access.ts';
import * as repo from './submissions.repo.ts';
import {
  showsFullEvaluation,
  toEvaluation,
  toSubmission,
  toSubmissionFile,
  toSubmissions,
} from './submissions.shape.ts';

/** The detail view inlines the text of files up to this size, and of all files together up to the total. */
export const INLINE_FILE_BYTES = 512 * 1024;
export const INLINE_TOTAL_BYTES = 2 * 1024 * 1024;

/* ─── Keyset cursors ─────────────────────────────────────────────────────────────────────────── */

export function encodeCursor(row: Pick<repo.SubmissionView, 'createdMicros' | 'id'>): string {
  return Buffer.from(`${row.createdMicros}.${row.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): lists.Keyset | null {
  const match = /^(\d{1,19})\.(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) return null;
  const id = Number(match[2]);
  return id > 0 && id <= 2_147_483_647 ? { micros: BigInt(match[1]!), id } : null;
}

type ListQuery = Omit<SubmissionListQueryWithReference, 'course_id' | 'is_reference'> & {
  is_reference?: boolean;
};

async function page(
  ctx: AppContext,
  actor: Actor,
  query: ListQuery,
  scope: { courseId?: number; userId?: number },
): Promise<SubmissionList> {
  let after: lists.Keyset | undefined;
  if (query.cursor !== undefined) {
    if (query.ordering !== '-created_at') {
      throw badRequest('A cursor pages only the ordering -created_at.', {
        cursor: ['Use a cursor only with ordering=-created_at.'],
      });
    }
    after = decodeCursor(query.cursor) ?? undefined;
    if (!after) throw badRequest('Invalid cursor.', { cursor: ['Not a cursor given by this API.'] });
  }
  const { count, rows } = await lists.listSubmissions(ctx.db, {
    viewer: actor,
    courseId: scope.courseId,
    userId: scope.userId,
    assignmentId: query.assignment_id,
    status: query.status,
    isFinal: query.is_final,
    isLate: query.is_late,
    isReference: query.is_reference ?? false,
    search: query.search || undefined,
    ordering: query.ordering,
    limit: query.limit,
    offset: query.offset,
    after,
  });
  const files = await repo.listFileMeta(
    ctx.db,
    rows.map((r) => r.id),
  );
  const last = rows.at(-1);
  return {
    count,
    limit: query.limit,
    offset: after ? 0 : query.offset,
    results: toSubmissions(ctx.config, rows, files),
    next_cursor:
      query.ordering === '-created_at' && last && rows.length === query.limit ? encodeCursor(last) : null,
  };
}

/** `GET Submission/`: everything the caller may see, filtered. */
export function listSubmissions(
  ctx: AppContext,
  actor: Actor,
  query: SubmissionListQueryWithReference,
): Promise<SubmissionList> {
  return page(ctx, actor, query, { courseId: query.course_id });
}

/**
 * `GET Submission/by-course/course/{course_id}/` and `…/user/{user_id}/`: members only (else 404); a
 * student gets their own submissions, and asking for someone else's list is answered 404.
 */
export async function listCourseSubmissions(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  userId: number | undefined,
  query: SubmissionCourseListQuery,
): Promise<SubmissionList> {
  const role = await getCourseRole(ctx.db, actor, courseId);
  if (role === 'student') {
    if (userId !== undefined && userId !== actor.userId) throw notFound();
    return page(ctx, actor, query, { courseId, userId: actor.userId });
  }
  return page(ctx, actor, query, { courseId, userId });
}

/** A submission with the metadata of its files, for answers of calls already authorised. */
export async function loadSubmission(
  ctx: AppContext,
  id: number,
  db: Executor = ctx.db,
): Promise<Submission> {
  const [view] = await repo.listSubmissionViewsByIds(db, [id]);
  if (!view) throw notFound();
  return toSubmissions(ctx.config, [view], await repo.listFileMeta(db, [id]))[0]!;
}

/** The detail of a submission the caller may see: files with their text, role-shaped evaluations. */
export async function detailOf(
  ctx: AppContext,
  access: SubmissionAccess,
  db: Executor = ctx.db,
): Promise<SubmissionDetail> {
  const { submission, canManage } = access;
  let budget = INLINE_TOTAL_BYTES;
  const files = (await repo.listFilesWithContent(db, submission.id, INLINE_FILE_BYTES)).map((file) => {
    if (file.content === null || file.content.length > budget) return { ...file, content: null };
    budget -= file.content.length;
    return file;
  });
  const now = new Date();
  const evaluations = (await listEvaluationsOfSubmission(db, submission.id)).map((row) =>
    toEvaluation(row, showsFullEvaluation(row.visibility, canManage, submission.closesAt, now)),
  );
  return {
    ...toSubmission(
      submission,
      files.map((f) => toSubmissionFile(ctx.config, f)),
    ),
    evaluations,
    can_manage: canManage,
  };
}

/** `GET Submission/{id}/`. */
export async function getSubmissionDetail(
  ctx: AppContext,
  actor: Actor,
  id: number,
): Promise<SubmissionDetail> {
  return detailOf(ctx, await getVisibleSubmission(ctx.db, actor, id));
}
