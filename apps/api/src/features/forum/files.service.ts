import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import {
  Id,
  MAX_FORUM_FILE_BYTES,
  MAX_FORUM_FILES_PER_POST,
  MAX_FORUM_PENDING_FILES,
  type CourseRole,
  type ForumFile,
  type ForumSignedUrl,
} from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { signDownload } from '../../lib/downloads.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { newStorageKey, StorageLimitError } from '../../lib/storage.ts';
import { fileTooLarge, inUploadLimitWords, receiveFiles, uploadLimitError } from '../../lib/uploads.ts';
import { getCourseRole } from '../courses/courses.service.ts';
import { canEdit, getVisibleRecord } from './forum-access.ts';
import { canManageCourse } from '../courses/courses.service.ts';
import * as repo from './files.repo.ts';

/* ─── Content types ──────────────────────────────────────────────────────────────────────────── */

const WORD = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const EXCEL = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const POWERPOINT = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

/**
 * The types the forum stores, by extension. What the browser claims is never trusted, and nothing that
 * a browser would run (HTML, SVG, XML, JavaScript) is on the list: those are application/octet-stream.
 */
const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.md': 'text/markdown',
  '.py': 'text/x-python',
  '.ipynb': 'application/x-ipynb+json',
  '.json': 'application/json',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.docx': WORD,
  '.xlsx': EXCEL,
  '.pptx': POWERPOINT,
  '.mp3': 'audio/mpeg',
  '.mp4': 'video/mp4',
};

export function forumContentType(filename: string): string {
  return CONTENT_TYPES[path.extname(filename).toLowerCase()] ?? 'application/octet-stream';
}

/* ─── Who sees and manages a file ────────────────────────────────────────────────────────────── */

/**
 * The file with the caller's role in its course, or 404 when the caller cannot see it: outside the
 * course, on a post they cannot see (a scheduled announcement), or in someone else's tray.
 */
async function getVisibleFile(
  ctx: AppContext,
  actor: Actor,
  fileId: number,
): Promise<{ file: repo.ForumFileRow; role: CourseRole }> {
  const file = await repo.findForumFile(ctx.db, fileId);
  if (!file) throw notFound();
  if (file.recordId !== null) {
    // The post's own rule (forum-access.ts): one place decides who sees a post and its files.
    const { role } = await getVisibleRecord(ctx.db, actor, file.recordId);
    return { file, role };
  }
  const role = await getCourseRole(ctx.db, actor, file.courseId);
  if (file.uploadedBy !== actor.userId && !canManageCourse(role)) throw notFound();
  return { file, role };
}

/** Removes stored objects whose rows are gone; a failure leaves an orphan object, logged, not an error. */
export async function deleteForumStoredFiles(ctx: AppContext, keys: string[]): Promise<void> {
  for (const key of keys) {
    await ctx.storage.delete(key).catch((error: unknown) => {
      ctx.log.warn({ err: error, key }, 'could not delete a stored forum file');
    });
  }
}

/* ─── Upload ─────────────────────────────────────────────────────────────────────────────────── */

interface StoredUpload {
  filename: string;
  key: string;
  size: number;
  contentType: string;
}

/** The optional `record` form field: a post to attach the files to directly. */
function recordField(fields: Record<string, string>): number | null {
  const raw = fields.record?.trim();
  if (raw === undefined || raw === '') return null;
  const parsed = Id.safeParse(raw);
  if (!/^\d+$/.test(raw) || !parsed.success) {
    throw badRequest('Invalid input.', { record: ['A post id is expected.'] });
  }
  return parsed.data;
}

/**
 * Stores the request's files (form field `file`, at most MAX_FORUM_FILES_PER_POST), then records them
 * in one transaction: into the caller's tray of the course, or with the `record` field onto a post the
 * caller may edit. Either every file is recorded or none, and the stored bytes of a failed upload are
 * removed again.
 */
export async function uploadFiles(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  request: FastifyRequest,
): Promise<ForumFile[]> {
  // Before the body is read: outsiders learn nothing and cost no upload.
  const role = await getCourseRole(ctx.db, actor, courseId);
  const stored: StoredUpload[] = [];
  try {
    const { fields } = await receiveFiles(
      request,
      { maxFiles: MAX_FORUM_FILES_PER_POST, maxFileBytes: MAX_FORUM_FILE_BYTES },
      async ({ filename, stream }) => {
        const key = newStorageKey(`forum/${courseId}`);
        const contentType = forumContentType(filename);
        try {
          const { size } = await ctx.storage.put(key, stream, contentType, {
            maxBytes: MAX_FORUM_FILE_BYTES,
          });
          stored.push({ filename, key, size, contentType });
        } catch (error) {
          throw error instanceof StorageLimitError ? fileTooLarge(filename, MAX_FORUM_FILE_BYTES) : error;
        }
      },
    );
    const recordId = recordField(fields);
    const rows = await ctx.db.transaction(async (tx) => {
      if (recordId !== null) {
        const { record } = await getVisibleRecord(tx, actor, recordId);
        if (record.courseId !== courseId) throw notFound();
        if (!canEdit(record, actor, role)) throw forbidden();
        // Under the lock, so two uploads at once cannot both fit into the last free places.
        await repo.lockUploadTarget(tx, `record:${recordId}`);
        const held = await repo.countFilesOfRecord(tx, recordId);
        if (held + stored.length > MAX_FORUM_FILES_PER_POST) {
          throw uploadLimitError(
            400,
            `A post holds at most ${MAX_FORUM_FILES_PER_POST} files; it has ${held}.`,
          );
        }
      } else {
        await repo.lockUploadTarget(tx, `tray:${courseId}:${actor.userId}`);
        const pending = await repo.countTrayFiles(tx, actor.userId, courseId);
        if (pending + stored.length > MAX_FORUM_PENDING_FILES) {
          throw uploadLimitError(
            400,
            `At most ${MAX_FORUM_PENDING_FILES} uploads may wait for a post; attach or remove some first.`,
          );
        }
      }
      return repo.insertForumFiles(
        tx,
        stored.map((f) => ({
          courseId,
          recordId,
          uploadedBy: actor.userId,
          storageKey: f.key,
          filename: f.filename,
          size: f.size,
          contentType: f.contentType,
        })),
      );
    });
    return rows.map(repo.toForumFile);
  } catch (error) {
    await deleteForumStoredFiles(
      ctx,
      stored.map((f) => f.key),
    );
    throw inUploadLimitWords(error, MAX_FORUM_FILE_BYTES);
  }
}

/* ─── Delete, sign ───────────────────────────────────────────────────────────────────────────── */

/** The uploader or a manager of the course; others who can see the file 403, the rest 404. */
export async function deleteFile(ctx: AppContext, actor: Actor, fileId: number): Promise<void> {
  const { file, role } = await getVisibleFile(ctx, actor, fileId);
  if (file.uploadedBy !== actor.userId && !canManageCourse(role)) throw forbidden();
  const key = await repo.deleteForumFile(ctx.db, file.id);
  if (key === null) throw notFound();
  // After the row: a failure here leaves an unreferenced object, never a row without its bytes.
  await deleteForumStoredFiles(ctx, [key]);
}

/** A short-lived download URL of a file, for those who can see the post it is on. */
export async function signFile(
  ctx: AppContext,
  actor: Actor,
  fileId: number,
  now: number = Date.now(),
): Promise<ForumSignedUrl> {
  const { file } = await getVisibleFile(ctx, actor, fileId);
  const ttl = ctx.config.SIGNED_URL_LIFETIME;
  const url = signDownload(
    ctx.config,
    { kind: 'storage', key: file.storageKey, filename: file.filename, contentType: file.contentType },
    ttl,
    now,
  );
  return { url, expires_at: new Date(Math.floor(now / 1000) * 1000 + ttl * 1000).toISOString() };
}

/* ─── Housekeeping ───────────────────────────────────────────────────────────────────────────── */

export const FORUM_FILES_HOUSEKEEPING_QUEUE = 'forum-files-housekeeping';
/** An upload not attached to a post within this time was abandoned (the editor was closed). */
export const FORUM_TRAY_HOURS = 24;
const PRUNE_BATCH = 500;

/** Deletes abandoned tray files, rows first, then their stored objects; returns how many. */
export async function pruneForumTray(ctx: AppContext, now: Date = new Date()): Promise<number> {
  const before = new Date(now.getTime() - FORUM_TRAY_HOURS * 3_600_000);
  let total = 0;
  for (;;) {
    const keys = await repo.deleteStaleTrayFiles(ctx.db, before, PRUNE_BATCH);
    await deleteForumStoredFiles(ctx, keys);
    total += keys.length;
    if (keys.length < PRUNE_BATCH) return total;
  }
}

/** Hourly, once across all API instances (pg-boss cron); whichever instance runs it does the work. */
export async function startForumFileHousekeeping(ctx: AppContext): Promise<void> {
  await ctx.jobs.schedule(FORUM_FILES_HOUSEKEEPING_QUEUE, '41 * * * *');
  await ctx.jobs.work(FORUM_FILES_HOUSEKEEPING_QUEUE, async () => {
    const pruned = await pruneForumTray(ctx);
    ctx.log.info({ pruned }, 'forum files housekeeping');
  });
}
