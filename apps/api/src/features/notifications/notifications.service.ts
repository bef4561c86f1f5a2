import {
  DEFAULT_EMAIL_CHOICE,
  EmailChoice,
  NOTIFICATION_KINDS,
  type CourseNotificationSettings,
  type MarkAllRead,
  type MarkedRead,
  type Notification,
  type NotificationList,
  type NotificationListQuery,
  type NotificationSettings,
  type NotificationSettingsUpdate,
} from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { canManageCourse, getCourseRole } from '../courses/courses.service.ts';
import { isMailDelivered } from '../mail/outbox.ts';
import * as repo from './notifications.repo.ts';

/* The bell's list, marking read, and a person's settings (docs/notifications.md). */

function toNotification(row: repo.NotificationRow): Notification {
  return {
    id: row.id,
    kind: row.kind,
    course_id: row.courseId,
    course_title: row.courseTitle,
    link: row.link,
    facts: row.facts,
    created_at: row.createdAt.toISOString(),
    read_at: row.readAt?.toISOString() ?? null,
  };
}

const badCursor = () => badRequest('Not a cursor of this list.', { cursor: ['Not a cursor of this list.'] });

export async function listNotifications(
  ctx: AppContext,
  actor: Actor,
  query: NotificationListQuery,
): Promise<NotificationList> {
  let beforeId: number | null = null;
  if (query.cursor !== undefined) {
    if (!/^[1-9]\d{0,15}$/.test(query.cursor)) throw badCursor();
    beforeId = Number(query.cursor);
  }
  const [rows, unread] = await Promise.all([
    repo.listNotifications(ctx.db, actor.userId, {
      beforeId,
      limit: query.page_size,
      unreadOnly: query.unread === 'true',
    }),
    repo.countUnread(ctx.db, actor.userId),
  ]);
  const last = rows.at(-1);
  return {
    results: rows.map(toNotification),
    next_cursor: last && rows.length === query.page_size ? String(last.id) : null,
    unread,
  };
}

export async function countUnread(ctx: AppContext, actor: Actor): Promise<{ unread: number }> {
  return { unread: await repo.countUnread(ctx.db, actor.userId) };
}

/** Someone else's notification is 404, like one that does not exist. */
export async function markRead(ctx: AppContext, actor: Actor, id: number): Promise<MarkedRead> {
  if (!(await repo.markRead(ctx.db, actor.userId, id))) throw notFound();
  return { marked: 1, unread: await repo.countUnread(ctx.db, actor.userId) };
}

export async function markAllRead(ctx: AppContext, actor: Actor, body: MarkAllRead): Promise<MarkedRead> {
  const marked = await repo.markAllRead(ctx.db, actor.userId, { courseId: body.course_id, link: body.link });
  return { marked, unread: await repo.countUnread(ctx.db, actor.userId) };
}

export async function getSettings(ctx: AppContext, actor: Actor): Promise<NotificationSettings> {
  const [profile, muted] = await Promise.all([
    repo.findProfile(ctx.db, actor.userId),
    repo.listMutedCourseIds(ctx.db, actor.userId),
  ]);
  const chosen = profile?.email ?? {};
  const email = Object.fromEntries(
    NOTIFICATION_KINDS.map((kind) => {
      const choice = EmailChoice.safeParse(chosen[kind]);
      return [kind, choice.success ? choice.data : DEFAULT_EMAIL_CHOICE[kind]];
    }),
  ) as NotificationSettings['email'];
  return {
    email,
    digest_hour: profile?.digestHour ?? 8,
    time_zone: profile?.timeZone ?? ctx.config.DEFAULT_TIME_ZONE,
    muted_course_ids: muted,
    email_refused_at: profile?.emailRefusedAt?.toISOString() ?? null,
    email_delivered: isMailDelivered(ctx.config),
  };
}

/** Only the courses the person belongs to can be muted: another id is 400 and nothing is saved. */
export async function saveSettings(
  ctx: AppContext,
  actor: Actor,
  update: NotificationSettingsUpdate,
): Promise<NotificationSettings> {
  let muted: number[] | undefined;
  if (update.muted_course_ids !== undefined) {
    const wanted = [...new Set(update.muted_course_ids)];
    const member = new Set(await repo.filterMemberCourses(ctx.db, actor.userId, wanted));
    const strangers = wanted.filter((id) => !member.has(id));
    if (strangers.length > 0) {
      const message = `Not a course of yours: ${strangers.join(', ')}.`;
      throw badRequest(message, { muted_course_ids: [message] }, 'not_a_member');
    }
    muted = wanted;
  }
  await ctx.db.transaction(async (tx) => {
    const current = update.email ? ((await repo.findProfile(tx, actor.userId))?.email ?? {}) : undefined;
    await repo.saveProfile(tx, actor.userId, {
      email: update.email ? { ...current, ...update.email } : undefined,
      digestHour: update.digest_hour,
      timeZone: update.time_zone,
    });
    if (muted !== undefined) await repo.replaceMutes(tx, actor.userId, muted);
  });
  return getSettings(ctx, actor);
}

async function requireCourseManager(ctx: AppContext, actor: Actor, courseId: number): Promise<void> {
  const role = await getCourseRole(ctx.db, actor, courseId);
  if (!canManageCourse(role)) throw forbidden('Only editors of the course and staff can change this.');
}

export async function getCourseSettings(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
): Promise<CourseNotificationSettings> {
  await requireCourseManager(ctx, actor, courseId);
  const on = await repo.findCourseSwitch(ctx.db, courseId);
  if (on === null) throw notFound();
  return { notify_editors_of_new_members: on };
}

export async function saveCourseSettings(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  body: CourseNotificationSettings,
): Promise<CourseNotificationSettings> {
  await requireCourseManager(ctx, actor, courseId);
  await repo.setCourseSwitch(ctx.db, courseId, body.notify_editors_of_new_members);
  return { notify_editors_of_new_members: body.notify_editors_of_new_members };
}
