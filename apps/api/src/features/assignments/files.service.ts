import type { FastifyRequest } from 'fastify';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS, type AssignmentFile } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { contentTypeOf, signDownload } from '../../lib/downloads.ts';
import { newStorageKey, StorageLimitError } from '../../lib/storage.ts';
import { fileTooLarge, inUploadLimitWords, receiveFiles, uploadLimitError } from '../../lib/uploads.ts';
import { getAssignmentInCourse, requireManager } from './assignment-access.ts';
import { lockAssignment } from './assignments.repo.ts';
import * as repo from './files.repo.ts';

export function toAssignmentFile(ctx: AppContext, row: repo.AssignmentFileRow): AssignmentFile {
  return {
    id: row.id,
    filename: row.filename,
    url: signDownload(ctx.config, {
      kind: 'storage',
      key: row.storageKey,
      filename: row.filename,
      contentType: row.contentType,
    }),
    size: row.size,
    content_type: row.contentType,
    created_at: row.createdAt.toISOString(),
  };
}

/** Removes stored objects whose rows are gone; a failure leaves an orphan file, logged, never an error. */
export async function deleteStoredFiles(ctx: AppContext, keys: string[]): Promise<void> {
  for (const key of keys) {
    await ctx.storage.delete(key).catch((error: unknown) => {
      ctx.log.warn({ err: error, key }, 'could not delete a stored file');
    });
  }
}

/** The attachments' names and storage keys, for running tests beside them (a precheck). */
export async function attachmentSources(
  db: Executor,
  assignmentId: number,
): Promise<{ filename: string; storageKey: string }[]> {
  return (await repo.listFiles(db, assignmentId)).map((row) => ({
    filename: row.filename,
    storageKey: row.storageKey,
  }));
}

export async function listAttachments(
  ctx: AppContext,
  actor: Actor,
  assignmentId: number,
  courseId: number,
): Promise<AssignmentFile[]> {
  await getAssignmentInCourse(ctx.db, actor, assignmentId, courseId);
  return (await repo.listFiles(ctx.db, assignmentId)).map((row) => toAssignmentFile(ctx, row));
}

const duplicateName = (filename: string) =>
  conflict(
    `A file named "${filename}" is already attached to this assignment. Delete it first to replace it.`,
    'duplicate_filename',
    { filename: ['A file with this name is already attached.'] },
  );

/**
 * Stores every file of the request, then records them all in one transaction: either every file is
 * attached or none (stored bytes of a failed upload are removed again). The limits are the spec's for
 * editor uploads, as for forum files (lib/uploads.ts, `uploadLimitError`).
 */
export async function uploadAttachments(
  ctx: AppContext,
  actor: Actor,
  assignmentId: number,
  courseId: number,
  request: FastifyRequest,
): Promise<AssignmentFile[]> {
  const { access } = await getAssignmentInCourse(ctx.db, actor, assignmentId, courseId);
  requireManager(access);
  // Checked before reading the body too, so a full assignment costs no upload.
  const before = await repo.listFiles(ctx.db, assignmentId);
  const room = MAX_ATTACHMENTS - before.length;
  if (room <= 0) throw uploadLimitError(400, attachmentLimitMessage());
  const existing = new Set(before.map((f) => f.filename));

  const stored: { filename: string; key: string; size: number; contentType: string }[] = [];
  try {
    await receiveFiles(
      request,
      { maxFiles: MAX_ATTACHMENTS, maxFileBytes: MAX_ATTACHMENT_BYTES },
      async ({ filename, stream }) => {
        if (stored.length >= room) {
          stream.resume();
          throw uploadLimitError(400, attachmentLimitMessage(before.length));
        }
        if (stored.some((f) => f.filename === filename)) {
          stream.resume();
          throw badRequest(`"${filename}" is sent twice.`, { filename: ['The same name twice.'] });
        }
        if (existing.has(filename)) {
          stream.resume();
          throw duplicateName(filename);
        }
        const key = newStorageKey(`assignments/${assignmentId}`);
        const contentType = contentTypeOf(filename);
        try {
          const { size } = await ctx.storage.put(key, stream, contentType, {
            maxBytes: MAX_ATTACHMENT_BYTES,
          });
          stored.push({ filename, key, size, contentType });
        } catch (error) {
          throw error instanceof StorageLimitError ? fileTooLarge(filename, MAX_ATTACHMENT_BYTES) : error;
        }
      },
    );
    const rows = await ctx.db.transaction(async (tx) => {
      if (!(await lockAssignment(tx, assignmentId))) throw notFound();
      // Another upload may have finished meanwhile: look again under the lock.
      const now = await repo.listFiles(tx, assignmentId);
      const clash = stored.find((f) => now.some((n) => n.filename === f.filename));
      if (clash) throw duplicateName(clash.filename);
      if (now.length + stored.length > MAX_ATTACHMENTS) {
        throw uploadLimitError(400, attachmentLimitMessage(now.length));
      }
      return repo.insertFiles(
        tx,
        stored.map((f) => ({
          assignmentId,
          filename: f.filename,
          storageKey: f.key,
          size: f.size,
          contentType: f.contentType,
          createdBy: actor.userId,
        })),
      );
    });
    return rows.map((row) => toAssignmentFile(ctx, row));
  } catch (error) {
    await deleteStoredFiles(
      ctx,
      stored.map((f) => f.key),
    );
    throw inUploadLimitWords(error, MAX_ATTACHMENT_BYTES);
  }
}

function attachmentLimitMessage(current?: number): string {
  const base = `An assignment can have at most ${MAX_ATTACHMENTS} attached files`;
  return current === undefined
    ? `${base}; delete one first.`
    : `${base}; it has ${current}, so at most ${Math.max(0, MAX_ATTACHMENTS - current)} more can be added.`;
}

export async function deleteAttachment(
  ctx: AppContext,
  actor: Actor,
  assignmentId: number,
  courseId: number,
  id: number,
): Promise<void> {
  const { access } = await getAssignmentInCourse(ctx.db, actor, assignmentId, courseId);
  requireManager(access);
  const row = await repo.deleteFile(ctx.db, assignmentId, id);
  if (!row) throw notFound();
  await deleteStoredFiles(ctx, [row.storageKey]);
}
