import type { Rubric, RubricItem } from '@kadai/contracts';
import type { RubricSave } from '@kadai/contracts';
import type { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest } from '../../lib/errors.ts';
import { scoresMayHaveChanged } from '../lti/grades.service.ts';
import { insertAudit } from './audit.repo.ts';
import { requireAssignmentEditor, requireItemsOf } from './review-access.ts';
import { round2 } from './review-shape.ts';
import * as repo from './rubric.repo.ts';

/*
 * An assignment's rubric (docs/review.md, "Rubric"): items with points (negative ones deduct), grouped
 * and ordered, and the settings that weigh them against the autograder. The rubric belongs to the
 * assignment, so every course given it shares it; a save recomputes every review that ticks a changed
 * or removed item, in the same transaction (the UI says how many before saving: each item's `uses`).
 */

function toItem(row: repo.ItemRow): RubricItem {
  return { ...row, points: round2(row.points) };
}

/** The rubric of an assignment as every reader shows it; `recomputed` as given. */
export async function loadRubric(db: Executor, assignmentId: number, recomputed = 0): Promise<Rubric> {
  const [settings, items, autoMax] = await Promise.all([
    repo.findSettings(db, assignmentId),
    repo.listItems(db, assignmentId),
    repo.findAutogradeMax(db, assignmentId),
  ]);
  return {
    assignment_id: assignmentId,
    settings: {
      autograde_weight: settings.autogradeWeight,
      rubric_weight: settings.rubricWeight,
      rubric_max: settings.rubricMax,
    },
    items: items.map(toItem),
    autograde_max: round2(autoMax),
    max_score: round2(settings.autogradeWeight * autoMax + settings.rubricWeight * settings.rubricMax),
    recomputed,
  };
}

export async function getRubric(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  assignmentId: number,
): Promise<Rubric> {
  await requireAssignmentEditor(ctx, actor, courseId, assignmentId);
  return loadRubric(ctx.db, assignmentId);
}

/**
 * Makes the rubric what the body says; 400 `rubric_item_elsewhere` (nothing saved) when an item id is
 * not one of this assignment's. Reviews whose points change are recomputed and audited, and an LMS
 * that receives the grades is told of the new scores.
 */
export async function saveRubric(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  assignmentId: number,
  body: z.output<typeof RubricSave>,
): Promise<Rubric> {
  await requireAssignmentEditor(ctx, actor, courseId, assignmentId);
  const ids = body.items.flatMap((item) => (item.id === undefined ? [] : [item.id]));
  if (new Set(ids).size !== ids.length) {
    throw badRequest('An item appears twice.', { items: ['An item appears twice.'] });
  }
  const recomputed = await ctx.db.transaction(async (tx) => {
    await repo.lockAssignment(tx, assignmentId);
    await requireItemsOf(tx, assignmentId, ids, 'items');
    await repo.upsertSettings(tx, assignmentId, {
      autogradeWeight: body.settings.autograde_weight,
      rubricWeight: body.settings.rubric_weight,
      rubricMax: body.settings.rubric_max,
    });
    await repo.replaceItems(tx, assignmentId, body.items);
    const changed = await repo.recomputeReviews(tx, assignmentId);
    await insertAudit(tx, actor, 'rubric_saved', [{ courseId, assignmentId, submissionId: null }], {
      items: body.items.length,
      recomputed: changed.length,
      settings: body.settings,
    });
    const places = changed.map((t) => ({ courseId: t.courseId, assignmentId, submissionId: t.submissionId }));
    await insertAudit(tx, actor, 'recomputed', places, { reason: 'rubric_saved' });
    return changed.length;
  });
  // Weights and the rubric maximum change every reviewed score, recomputed or not.
  await scoresMayHaveChanged(ctx, 'assignment', assignmentId);
  return loadRubric(ctx.db, assignmentId, recomputed);
}
