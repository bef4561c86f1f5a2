import type { z } from 'zod';
import {
  FORUM_MESSAGES,
  MAX_SCHEDULE_AHEAD_DAYS,
  MIN_SCHEDULE_LEAD_MINUTES,
  type ForumAnnouncementRequest,
  type ForumRecord,
  type ForumRecordCreate,
  type ForumRecordReplace,
  type ForumRecordUpdate,
} from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { getCourseRole } from '../courses/courses.service.ts';
import { attachFiles, listStorageKeysOfRecord } from './files.repo.ts';
import { canEdit, canSeeTopic, getVisibleRecord } from './forum-access.ts';
import { canManageCourse } from '../courses/courses.service.ts';
import { announce, tellOfReply } from './notices.ts';
import { presentRecord } from './present.ts';
import { queueFinalize } from './publish.ts';
import * as repo from './records.repo.ts';
import { forumSearchVector } from './search.ts';
import { deleteForumStoredFiles } from './files.service.ts';

/* Writing, reading and deleting posts (docs/forum.md, "Posts"). */

type CreateInput = z.output<typeof ForumRecordCreate>;
type ReplaceInput = z.output<typeof ForumRecordReplace>;
type UpdateInput = z.output<typeof ForumRecordUpdate>;
type AnnouncementInput = z.output<typeof ForumAnnouncementRequest>;

const MINUTE = 60_000;

function requireContent(content: string): void {
  if (content.trim() === '') {
    throw badRequest(
      FORUM_MESSAGES.emptyContent,
      { content: [FORUM_MESSAGES.emptyContent] },
      'empty_content',
    );
  }
}

function requireTitle(title: string): void {
  if (title.trim() === '')
    throw badRequest('A topic needs a title.', { title: ['This field may not be blank.'] });
}

/** A new schedule: at least MIN_SCHEDULE_LEAD_MINUTES ahead, at most MAX_SCHEDULE_AHEAD_DAYS. */
function parseSchedule(value: string): Date {
  const at = new Date(value);
  const now = Date.now();
  if (at.getTime() < now + MIN_SCHEDULE_LEAD_MINUTES * MINUTE) {
    const message = `Schedule the announcement at least ${MIN_SCHEDULE_LEAD_MINUTES} minutes ahead.`;
    throw badRequest(message, { scheduled_at: [message] }, 'schedule_too_soon');
  }
  if (at.getTime() > now + MAX_SCHEDULE_AHEAD_DAYS * 1440 * MINUTE) {
    const message = `Schedule the announcement at most ${MAX_SCHEDULE_AHEAD_DAYS} days ahead.`;
    throw badRequest(message, { scheduled_at: [message] }, 'schedule_too_late');
  }
  return at;
}

const onlyAnnouncements = () =>
  badRequest('Only announcements can be scheduled.', {
    scheduled_at: ['Only announcements can be scheduled.'],
  });
const alreadyPublished = () =>
  badRequest('This post is already published; its schedule cannot change.', {
    scheduled_at: ['Already published.'],
  });
const notForComments = (field: string) =>
  badRequest('Comments cannot be announcements, pinned or scheduled.', { [field]: ['Not for comments.'] });

/** Deletes files whose rows are gone; a failure leaves an orphan object, never a broken post. */
export async function createRecord(ctx: AppContext, actor: Actor, input: CreateInput): Promise<ForumRecord> {
  const role = await getCourseRole(ctx.db, actor, input.course);
  const manager = canManageCourse(role);
  if (!manager && (input.is_announcement || input.pinned || input.scheduled_at !== null)) {
    throw forbidden('Only editors of the course and staff can post announcements, pin or schedule.');
  }
  let topic: repo.RecordRow | null = null;
  if (input.parent_record !== null) {
    topic = await repo.findRecord(ctx.db, input.parent_record);
    if (!topic || topic.courseId !== input.course || !canSeeTopic(topic, role)) throw notFound();
    if (topic.parentId !== null) {
      throw badRequest('Comments can only be made on topics.', {
        parent_record: ['This is a comment; comment on its topic.'],
      });
    }
    if (input.is_announcement) throw notForComments('is_announcement');
    if (input.pinned) throw notForComments('pinned');
    if (input.scheduled_at !== null) throw notForComments('scheduled_at');
  }
  requireContent(input.content);
  if (!topic) requireTitle(input.title);
  if (input.scheduled_at !== null && !input.is_announcement) throw onlyAnnouncements();
  const scheduledAt = input.scheduled_at === null ? null : parseSchedule(input.scheduled_at);

  const now = new Date();
  const title = topic ? '' : input.title;
  const { row, removedKeys } = await ctx.db.transaction(async (tx) => {
    const row = await repo.insertRecord(tx, {
      courseId: input.course,
      parentId: topic?.id ?? null,
      authorId: actor.userId,
      title,
      content: input.content,
      isAnnouncement: input.is_announcement,
      pinned: input.pinned,
      scheduledAt,
      publishedAt: scheduledAt ? null : now,
      createdAt: now,
      updatedAt: now,
      updatedBy: actor.userId,
      lastActivityAt: now,
      searchVector: forumSearchVector(title, input.content),
    });
    if (topic) {
      await repo.bumpCommentCount(tx, topic.id, 1, now);
      await tellOfReply(tx, topic, row.id, actor.userId);
    } else if (row.publishedAt) {
      await repo.bumpStats(tx, row.courseId, { topics: 1, announcements: row.isAnnouncement ? 1 : 0 });
      if (row.isAnnouncement) await announce(tx, row);
    }
    // Writing a topic (or in it) means having read it.
    await repo.markRead(tx, { userId: actor.userId, recordId: topic?.id ?? row.id, courseId: row.courseId });
    const attached =
      input.attachments.length > 0
        ? await attachFiles(tx, {
            courseId: row.courseId,
            recordId: row.id,
            fileIds: input.attachments,
            userId: actor.userId,
          })
        : { removedKeys: [] };
    return { row, removedKeys: attached.removedKeys };
  });
  await deleteForumStoredFiles(ctx, removedKeys);
  if (scheduledAt) await queueFinalize(ctx, row.id, scheduledAt);
  return presentRecord(ctx.db, row.id, { actor, role });
}

export async function getRecord(ctx: AppContext, actor: Actor, id: number): Promise<ForumRecord> {
  const { role } = await getVisibleRecord(ctx.db, actor, id);
  return presentRecord(ctx.db, id, { actor, role });
}

/** The post the caller may change: 404 when they cannot see it, 403 when they may not edit it. */
async function getEditableRecord(ctx: AppContext, actor: Actor, id: number) {
  const visible = await getVisibleRecord(ctx.db, actor, id);
  if (!canEdit(visible.record, actor, visible.role)) {
    throw forbidden('Only its author, editors of the course and staff can change this post.');
  }
  return visible;
}

/**
 * PUT (every field, defaults for the missing) and PATCH (the given ones). Students cannot pin: a
 * `pinned: true` from them is 403, a `pinned: false` keeps what an editor set. A published post's
 * schedule cannot change; a waiting one can be moved, or published now with `scheduled_at: null`.
 */
export async function updateRecord(
  ctx: AppContext,
  actor: Actor,
  id: number,
  input: ReplaceInput | UpdateInput,
): Promise<ForumRecord> {
  const { record, role } = await getEditableRecord(ctx, actor, id);
  const manager = canManageCourse(role);
  const isComment = record.parentId !== null;
  if (input.pinned === true && !record.pinned) {
    if (!manager) throw forbidden('Only editors of the course and staff can pin posts.');
    if (isComment) throw notForComments('pinned');
  }
  if (input.content !== undefined) requireContent(input.content);
  if (input.title !== undefined && !isComment) requireTitle(input.title);

  const changes: repo.RecordChanges = {};
  let reschedule: Date | null = null;
  let publishNow = false;
  if (input.scheduled_at !== undefined) {
    const stored = record.scheduledAt?.toISOString() ?? null;
    const given = input.scheduled_at === null ? null : new Date(input.scheduled_at).toISOString();
    if (record.publishedAt !== null) {
      // PUT sends null when it means "no change"; every other, different time is a change.
      if (given !== null && given !== stored) {
        if (!manager) throw forbidden('Only editors of the course and staff can schedule posts.');
        throw record.isAnnouncement ? alreadyPublished() : onlyAnnouncements();
      }
    } else if (given === null) {
      publishNow = true;
    } else if (given !== stored) {
      reschedule = parseSchedule(given);
      changes.scheduledAt = reschedule;
    }
  }
  const now = new Date();
  if (input.title !== undefined && !isComment) changes.title = input.title;
  if (input.content !== undefined) changes.content = input.content;
  if (input.pinned !== undefined && manager && !isComment) changes.pinned = input.pinned;
  if (changes.title !== undefined || changes.content !== undefined) {
    changes.searchVector = forumSearchVector(
      changes.title ?? record.title,
      changes.content ?? record.content,
    );
  }
  if (publishNow) {
    Object.assign(changes, { scheduledAt: null, publishedAt: now, createdAt: now, lastActivityAt: now });
  }
  changes.updatedAt = now;
  changes.updatedBy = actor.userId;

  const removedKeys = await ctx.db.transaction(async (tx) => {
    const locked = await repo.lockRecord(tx, id);
    if (!locked) throw notFound();
    // Published meanwhile (the job won the race): publishing again would count it twice.
    if (publishNow && locked.publishedAt !== null) {
      delete changes.publishedAt;
      delete changes.createdAt;
      delete changes.lastActivityAt;
      delete changes.scheduledAt;
    } else if (publishNow) {
      await repo.bumpStats(tx, locked.courseId, { topics: 1, announcements: locked.isAnnouncement ? 1 : 0 });
      if (locked.isAnnouncement) await announce(tx, { ...locked, title: changes.title ?? locked.title });
    } else if (reschedule && locked.publishedAt !== null) {
      throw alreadyPublished();
    }
    await repo.updateRecord(tx, id, changes);
    if (input.attachments === undefined) return [];
    const attached = await attachFiles(tx, {
      courseId: locked.courseId,
      recordId: id,
      fileIds: input.attachments,
      userId: actor.userId,
    });
    return attached.removedKeys;
  });
  await deleteForumStoredFiles(ctx, removedKeys);
  if (reschedule) await queueFinalize(ctx, id, reschedule);
  return presentRecord(ctx.db, id, { actor, role });
}

/** Deletes a post; a topic takes its comments (and everyone's files on them) with it. */
export async function deleteRecord(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await getEditableRecord(ctx, actor, id);
  const keys = await ctx.db.transaction(async (tx) => {
    const keys = await listStorageKeysOfRecord(tx, id);
    const deleted = await repo.deleteRecord(tx, id);
    if (!deleted) throw notFound();
    if (deleted.parentId !== null) {
      await repo.bumpCommentCount(tx, deleted.parentId, -1, null);
    } else if (deleted.publishedAt !== null) {
      await repo.bumpStats(tx, deleted.courseId, {
        topics: -1,
        announcements: deleted.isAnnouncement ? -1 : 0,
      });
    }
    return keys;
  });
  await deleteForumStoredFiles(ctx, keys);
}

/** The topic a manager converts: comments cannot be announcements (400); students 403. */
async function getConvertibleTopic(ctx: AppContext, actor: Actor, id: number) {
  const visible = await getVisibleRecord(ctx.db, actor, id);
  if (!canManageCourse(visible.role)) {
    throw forbidden('Only editors of the course and staff can manage announcements.');
  }
  if (visible.record.parentId !== null) throw notForComments('is_announcement');
  return visible;
}

/** `PUT …/announcement/`: makes a topic an announcement (pinned and scheduled as asked). */
export async function makeAnnouncement(
  ctx: AppContext,
  actor: Actor,
  id: number,
  input: AnnouncementInput,
): Promise<ForumRecord> {
  const { role } = await getConvertibleTopic(ctx, actor, id);
  let reschedule: Date | null = null;
  await ctx.db.transaction(async (tx) => {
    const locked = await repo.lockRecord(tx, id);
    if (!locked) throw notFound();
    const changes: repo.RecordChanges = {
      isAnnouncement: true,
      updatedAt: new Date(),
      updatedBy: actor.userId,
    };
    if (input.pinned !== undefined) changes.pinned = input.pinned;
    if (input.scheduled_at !== undefined && input.scheduled_at !== null) {
      const given = new Date(input.scheduled_at).toISOString();
      if (locked.publishedAt !== null) {
        if (given !== locked.scheduledAt?.toISOString()) throw alreadyPublished();
      } else if (given !== locked.scheduledAt?.toISOString()) {
        reschedule = parseSchedule(given);
        changes.scheduledAt = reschedule;
      }
    }
    if (!locked.isAnnouncement && locked.publishedAt !== null) {
      await repo.bumpStats(tx, locked.courseId, { topics: 0, announcements: 1 });
      await announce(tx, locked);
    }
    await repo.updateRecord(tx, id, changes);
  });
  if (reschedule) await queueFinalize(ctx, id, reschedule);
  return presentRecord(ctx.db, id, { actor, role });
}

/** `DELETE …/announcement/`: back to a discussion. A waiting (scheduled) announcement cannot: 400. */
export async function takeBackAnnouncement(ctx: AppContext, actor: Actor, id: number): Promise<ForumRecord> {
  const { role } = await getConvertibleTopic(ctx, actor, id);
  await ctx.db.transaction(async (tx) => {
    const locked = await repo.lockRecord(tx, id);
    if (!locked) throw notFound();
    if (!locked.isAnnouncement) return;
    if (locked.publishedAt === null) {
      throw badRequest('A scheduled announcement cannot become a discussion; publish or delete it first.', {
        is_announcement: ['Scheduled.'],
      });
    }
    await repo.bumpStats(tx, locked.courseId, { topics: 0, announcements: -1 });
    await repo.updateRecord(tx, id, {
      isAnnouncement: false,
      updatedAt: new Date(),
      updatedBy: actor.userId,
    });
  });
  return presentRecord(ctx.db, id, { actor, role });
}
