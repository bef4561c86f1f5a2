import {
  MAX_EXTENSIONS_LISTED,
  type Extension,
  type ExtensionAuditEntry,
  type ExtensionAuditPage,
  type ExtensionDates,
  type ExtensionKind,
  type ExtensionList,
} from '@kadai/contracts';
import type { z } from 'zod';
import type { ExtensionGrant as GrantSchema } from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { canManageCourse, getCourseRole } from '../courses/courses.service.ts';
import { forgetRenderedFeeds } from '../events/feed-cache.ts';
import * as repo from './extensions.repo.ts';
import { tellOfExtensions } from './notices.ts';

/*
 * Per-student extensions (docs/extensions.md). An editor of the course (or staff) gives students their
 * own dates for an assignment or a quiz of the course; every grant, change and revocation is written to
 * the course's audit. The dates take effect through db/own-dates.ts, which the features that read
 * dates for a person join; this service only keeps the rows.
 */

/** A grant as the route hands it over (defaults filled in). */
export type Grant = z.output<typeof GrantSchema>;

async function requireManager(ctx: AppContext, actor: Actor, courseId: number): Promise<void> {
  const role = await getCourseRole(ctx.db, actor, courseId);
  if (!canManageCourse(role)) throw forbidden('Only editors of the course and staff manage extensions.');
}

async function requireItem(ctx: AppContext, courseId: number, kind: ExtensionKind, itemId: number) {
  const item = await repo.findItem(ctx.db, courseId, kind, itemId);
  if (!item) throw notFound(`No such ${kind} in this course.`);
  return item;
}

function toExtension(row: repo.ExtensionRow): Extension {
  return {
    kind: row.kind,
    item_id: row.itemId,
    item_title: row.itemTitle,
    user: row.user,
    due_at: row.due_at,
    late_until: row.late_until,
    closes_at: row.closes_at,
    extra_minutes: row.extra_minutes,
    course_due_at: row.courseDueAt.toISOString(),
    course_late_until: row.courseLateUntil?.toISOString() ?? null,
    time_limit_minutes: row.timeLimitMinutes,
    reason: row.reason,
    granted_by: row.grantedBy,
    granted_at: row.grantedAt.toISOString(),
  };
}

export async function listExtensions(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  query: { kind?: ExtensionKind; item_id?: number; user_id?: number },
): Promise<ExtensionList> {
  await requireManager(ctx, actor, courseId);
  const { count, rows } = await repo.listExtensions(
    ctx.db,
    courseId,
    { kind: query.kind, itemId: query.item_id, userIds: query.user_id ? [query.user_id] : undefined },
    MAX_EXTENSIONS_LISTED,
  );
  return { count, results: rows.map(toExtension) };
}

const at = (iso: string) => Date.parse(iso);

/** The dates a grant gives, checked against the item's own (400 naming the field). */
function datesOf(grant: Grant, item: repo.ItemInCourse): ExtensionDates {
  if (grant.kind === 'assignment') {
    if (at(grant.due_at) <= item.opensAt.getTime()) {
      throw badRequest('The due date must be after the assignment opens.', {
        due_at: ['The due date must be after the assignment opens in this course.'],
      });
    }
    if (grant.late_until !== null && at(grant.late_until) < at(grant.due_at)) {
      throw badRequest('The late cut-off must not be before the due date.', {
        late_until: ['The late cut-off must not be before the due date.'],
      });
    }
    return {
      due_at: new Date(grant.due_at).toISOString(),
      late_until: grant.late_until === null ? null : new Date(grant.late_until).toISOString(),
      closes_at: null,
      extra_minutes: null,
    };
  }
  if (grant.closes_at === null && grant.extra_minutes === null) {
    throw badRequest('Give a later closing time, extra minutes, or both.', {
      closes_at: ['Give a later closing time, extra minutes, or both.'],
    });
  }
  if (grant.closes_at !== null && at(grant.closes_at) <= item.opensAt.getTime()) {
    throw badRequest('The closing time must be after the quiz opens.', {
      closes_at: ['The closing time must be after the quiz opens in this course.'],
    });
  }
  if (grant.extra_minutes !== null && item.timeLimitMinutes === null) {
    throw badRequest('This quiz has no time limit to extend.', {
      extra_minutes: ['This quiz has no time limit in this course: give a later closing time instead.'],
    });
  }
  return {
    due_at: null,
    late_until: null,
    closes_at: grant.closes_at === null ? null : new Date(grant.closes_at).toISOString(),
    extra_minutes: grant.extra_minutes,
  };
}

/**
 * Gives the students named the same own dates for one item, replacing what they had; 201 with their
 * extensions. Every name must be a student of the course (400 `not_students` otherwise, nothing granted).
 * Those whose dates changed are notified in the same transaction (notices.ts).
 */
export async function grantExtensions(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  body: Grant,
): Promise<ExtensionList> {
  await requireManager(ctx, actor, courseId);
  const item = await requireItem(ctx, courseId, body.kind, body.item_id);
  const dates = datesOf(body, item);
  const userIds = [...new Set(body.user_ids)];
  const students = await repo.listStudents(ctx.db, courseId, userIds);
  const known = new Set(students.map((s) => s.id));
  const strangers = userIds.filter((id) => !known.has(id));
  if (strangers.length > 0) {
    const message = `Not students of this course: ${strangers.join(', ')}.`;
    throw badRequest(message, { user_ids: [message] }, 'not_students');
  }
  const emails = new Map(students.map((s) => [s.id, s.email]));
  await ctx.db.transaction(async (tx) => {
    const before = await repo.lockCurrent(tx, courseId, item, userIds);
    await repo.upsertExtensions(tx, courseId, item, userIds, dates, body.reason, actor.userId);
    await tellOfExtensions(tx, { courseId, item, dates, userIds }, before, actor.userId);
    await repo.insertAudit(
      tx,
      userIds.map((userId) => ({
        courseId,
        kind: item.kind,
        itemId: item.itemId,
        itemTitle: item.title,
        userId,
        userEmail: emails.get(userId) ?? '',
        action: before.has(userId) ? ('changed' as const) : ('granted' as const),
        before: before.has(userId) ? datesOnly(before.get(userId)!) : null,
        after: dates,
        reason: body.reason,
        actorId: actor.userId,
        actorEmail: actor.email,
      })),
    );
  });
  // Calendar feeds this process rendered show the new dates at once (others within FEED_CACHE_SECONDS).
  forgetRenderedFeeds(ctx.db);
  const { count, rows } = await repo.listExtensions(
    ctx.db,
    courseId,
    { kind: item.kind, itemId: item.itemId, userIds },
    MAX_EXTENSIONS_LISTED,
  );
  return { count, results: rows.map(toExtension) };
}

const datesOnly = ({ due_at, late_until, closes_at, extra_minutes }: ExtensionDates): ExtensionDates => ({
  due_at,
  late_until,
  closes_at,
  extra_minutes,
});

/** Which student's extension, for which item of which course: the path of a revocation. */
export interface RevokeTarget {
  id: number;
  kind: ExtensionKind;
  item_id: number;
  user_id: number;
}

/** Takes a student's extension away, audited with the reason given for that; 404 when none. */
export async function revokeExtension(
  ctx: AppContext,
  actor: Actor,
  target: RevokeTarget,
  reason: string,
): Promise<void> {
  const { id: courseId, kind, item_id: itemId, user_id: userId } = target;
  await requireManager(ctx, actor, courseId);
  const item = await requireItem(ctx, courseId, kind, itemId);
  const [student] = await repo.listStudents(ctx.db, courseId, [userId]);
  const found = await ctx.db.transaction(async (tx) => {
    const before = (await repo.lockCurrent(tx, courseId, item, [userId])).get(userId);
    if (!before || !(await repo.deleteExtension(tx, courseId, item, userId))) return false;
    await repo.insertAudit(tx, [
      {
        courseId,
        kind,
        itemId,
        itemTitle: item.title,
        userId,
        userEmail: student?.email ?? '',
        action: 'revoked',
        before: datesOnly(before),
        after: null,
        reason,
        actorId: actor.userId,
        actorEmail: actor.email,
      },
    ]);
    return true;
  });
  if (!found) throw notFound('This student has no extension for it.');
  forgetRenderedFeeds(ctx.db);
}

function toAuditEntry(row: repo.AuditRow): ExtensionAuditEntry {
  return {
    id: row.id,
    kind: row.kind,
    item_id: row.itemId,
    item_title: row.itemTitle,
    user_id: row.userId,
    user_email: row.userEmail,
    action: row.action,
    before: (row.before as ExtensionDates | null) ?? null,
    after: (row.after as ExtensionDates | null) ?? null,
    reason: row.reason,
    actor_email: row.actorEmail,
    at: row.at.toISOString(),
  };
}

/** The course's audit of extensions, newest first. */
export async function listAudit(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  page: { limit: number; offset: number },
): Promise<ExtensionAuditPage> {
  await requireManager(ctx, actor, courseId);
  const { count, rows } = await repo.listAudit(ctx.db, courseId, page);
  return { count, limit: page.limit, offset: page.offset, results: rows.map(toAuditEntry) };
}
