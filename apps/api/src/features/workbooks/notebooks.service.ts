import type { WorkbookNotebook, WorkbookNotebookSave } from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { contentDisposition } from '../../lib/downloads.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { getCourseRole } from '../courses/courses.service.ts';
import { readableConfig } from './configs.service.ts';
import { canManageCourse } from '../courses/courses.service.ts';
import { fromIpynb, NotebookFormatError, toIpynb } from './ipynb.ts';
import * as repo from './workbooks.repo.ts';

/*
 * Saved notebooks (docs/workbooks.md, "Notebooks"): one per user and configuration, made from the
 * starter the first time, saved with a version so two tabs never overwrite each other silently, and
 * downloaded or uploaded as .ipynb. Their owner reads and writes them; editors of the course and staff
 * may read (and download) them.
 */

export function toNotebook(row: repo.NotebookRow): WorkbookNotebook {
  return {
    id: row.id,
    courseId: row.courseId,
    configId: row.configId,
    userId: row.userId,
    name: row.name,
    notebook: row.content,
    version: row.version,
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function myNotebook(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  configId: number,
): Promise<WorkbookNotebook> {
  const { config } = await readableConfig(ctx.db, actor, configId);
  if (config.courseId !== courseId) throw notFound();
  return toNotebook(await repo.notebookFor(ctx.db, actor.userId, config));
}

async function readable(ctx: AppContext, actor: Actor, id: number) {
  const row = await repo.findNotebook(ctx.db, id);
  if (!row) throw notFound();
  const own = row.userId === actor.userId;
  if (
    !own &&
    !canManageCourse(await getCourseRole(ctx.db, actor, row.courseId).catch(() => 'student' as const))
  ) {
    throw notFound();
  }
  return { row, own };
}

async function writable(ctx: AppContext, actor: Actor, id: number) {
  const { row, own } = await readable(ctx, actor, id);
  if (!own) throw forbidden('Only the owner of a notebook changes it.');
  return row;
}

const stale = () =>
  conflict('The notebook was saved elsewhere since you opened it. Reload it to continue.', 'stale_notebook');

export async function saveNotebook(
  ctx: AppContext,
  actor: Actor,
  id: number,
  input: WorkbookNotebookSave,
): Promise<WorkbookNotebook> {
  await writable(ctx, actor, id);
  const saved = await repo.saveNotebook(ctx.db, id, input.version, input.notebook);
  if (!saved) throw stale();
  return toNotebook(saved);
}

export async function downloadIpynb(ctx: AppContext, actor: Actor, id: number) {
  const { row } = await readable(ctx, actor, id);
  // contentDisposition encodes the name; path separators are replaced so it stays one file name.
  const safeName = row.name.replace(/[\\/]/g, '_').slice(0, 100) || 'notebook';
  return {
    body: `${JSON.stringify(toIpynb(row.content, { name: row.name }), null, 1)}\n`,
    contentDisposition: contentDisposition(`${safeName}.ipynb`),
  };
}

/** Replaces the notebook's cells with an uploaded .ipynb (the caller confirmed discarding them). */
export async function uploadIpynb(ctx: AppContext, actor: Actor, id: number, body: unknown) {
  const row = await writable(ctx, actor, id);
  let notebook;
  try {
    notebook = fromIpynb(body);
  } catch (error) {
    if (error instanceof NotebookFormatError) throw badRequest(error.message, undefined, 'not_a_notebook');
    throw error;
  }
  const saved = await repo.saveNotebook(ctx.db, id, row.version, notebook);
  if (!saved) throw stale();
  return toNotebook(saved);
}
