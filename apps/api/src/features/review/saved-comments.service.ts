import {
  MAX_SAVED_COMMENTS,
  type SavedComment,
  type SavedCommentList,
  type SavedCommentSave,
} from '@kadai/contracts';
import type { z } from 'zod';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import * as repo from './comments.repo.ts';
import { requireCourseEditor } from './review-access.ts';
import { listPeople, type Person } from './reviews.repo.ts';

/*
 * A course's saved comments (docs/review.md, "Saved comments"): what editors write again and again,
 * inserted with a few keys; each counts how often it was used. Editors of the course and staff only.
 */

type Body = z.output<typeof SavedCommentSave>;

function toSaved(row: repo.SavedRow, people: Map<number, Person>): SavedComment {
  return {
    id: row.id,
    course_id: row.courseId,
    title: row.title,
    body: row.body,
    rubric_item_id: row.rubricItemId,
    uses: row.uses,
    created_by: row.createdBy === null ? null : (people.get(row.createdBy) ?? null),
    updated_at: row.updatedAt.toISOString(),
  };
}

async function shaped(ctx: AppContext, rows: repo.SavedRow[]): Promise<SavedComment[]> {
  const people = await listPeople(
    ctx.db,
    rows.flatMap((r) => (r.createdBy === null ? [] : [r.createdBy])),
  );
  return rows.map((r) => toSaved(r, people));
}

async function shapedOne(ctx: AppContext, row: repo.SavedRow): Promise<SavedComment> {
  return toSaved(row, await listPeople(ctx.db, row.createdBy === null ? [] : [row.createdBy]));
}

async function checkItem(ctx: AppContext, courseId: number, itemId: number | null): Promise<void> {
  if (itemId !== null && !(await repo.isRubricItemOfCourse(ctx.db, itemId, courseId))) {
    const message = 'Not a rubric item of an assignment of this course.';
    throw badRequest(message, { rubric_item_id: [message] }, 'rubric_item_elsewhere');
  }
}

export async function listSavedComments(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
): Promise<SavedCommentList> {
  await requireCourseEditor(ctx, actor, courseId);
  const rows = await repo.listSaved(ctx.db, courseId, MAX_SAVED_COMMENTS);
  return { count: rows.length, results: await shaped(ctx, rows) };
}

export async function createSavedComment(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  body: Body,
): Promise<SavedComment> {
  await requireCourseEditor(ctx, actor, courseId);
  await checkItem(ctx, courseId, body.rubric_item_id);
  if ((await repo.countSaved(ctx.db, courseId)) >= MAX_SAVED_COMMENTS) {
    throw badRequest(
      `A course keeps at most ${MAX_SAVED_COMMENTS} saved comments.`,
      undefined,
      'review_limit',
    );
  }
  const row = await repo.insertSaved(ctx.db, {
    courseId,
    title: body.title,
    body: body.body,
    rubricItemId: body.rubric_item_id,
    createdBy: actor.userId,
  });
  return shapedOne(ctx, row);
}

/** The saved comment, for an editor of its course; 404 when it does not exist or is not theirs to see. */
async function getEditableSaved(ctx: AppContext, actor: Actor, id: number): Promise<repo.SavedRow> {
  const row = await repo.findSaved(ctx.db, id);
  if (!row) throw notFound();
  await requireCourseEditor(ctx, actor, row.courseId);
  return row;
}

export async function updateSavedComment(
  ctx: AppContext,
  actor: Actor,
  id: number,
  body: Body,
): Promise<SavedComment> {
  const row = await getEditableSaved(ctx, actor, id);
  await checkItem(ctx, row.courseId, body.rubric_item_id);
  const updated = await repo.updateSaved(ctx.db, id, {
    title: body.title,
    body: body.body,
    rubricItemId: body.rubric_item_id,
  });
  if (!updated) throw notFound();
  return shapedOne(ctx, updated);
}

export async function deleteSavedComment(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await getEditableSaved(ctx, actor, id);
  await repo.deleteSaved(ctx.db, id);
}
