import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CourseNotificationSettings,
  ErrorBody,
  IdParams,
  MarkAllRead,
  MarkedRead,
  NotificationList,
  NotificationListQuery,
  NotificationSettings,
  NotificationSettingsUpdate,
  UnreadCount,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import {
  countUnread,
  getCourseSettings,
  getSettings,
  listNotifications,
  markAllRead,
  markRead,
  saveCourseSettings,
  saveSettings,
} from './notifications.service.ts';

const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } as const;
const tags = ['notifications'];

/** The bell, its list and a person's notification settings (docs/notifications.md). */
export function registerNotificationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/Notification/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "The caller's notifications, newest first",
        description:
          "Deep pages pass the previous page's `next_cursor` as `cursor`; `unread=true` lists only unread ones.",
        querystring: NotificationListQuery,
        response: { 200: NotificationList, 400: ErrorBody, ...errors },
      },
    },
    async (request) => listNotifications(ctx, actorOf(request), request.query),
  );

  api.get(
    '/Notification/unread/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "How many of the caller's notifications are unread (the bell's badge)",
        response: { 200: UnreadCount, ...errors },
      },
    },
    async (request) => countUnread(ctx, actorOf(request)),
  );

  api.post(
    '/Notification/:id/read/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "Mark one notification read (404 for someone else's)",
        params: IdParams,
        response: { 200: MarkedRead, ...errors },
      },
    },
    async (request) => markRead(ctx, actorOf(request), request.params.id),
  );

  api.post(
    '/Notification/read-all/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "Mark the caller's notifications read: all, a course's, or those about one page",
        body: MarkAllRead,
        response: { 200: MarkedRead, 400: ErrorBody, ...errors },
      },
    },
    async (request) => markAllRead(ctx, actorOf(request), request.body),
  );

  api.get(
    '/NotificationSettings/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "The caller's e-mail choices per kind, digest hour, time zone and muted courses",
        response: { 200: NotificationSettings, ...errors },
      },
    },
    async (request) => getSettings(ctx, actorOf(request)),
  );

  api.put(
    '/NotificationSettings/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "Change the caller's notification settings (what is absent stays)",
        description:
          'Saving asks for mail again after a refused address. 400 `not_a_member` for a muted course the caller does not belong to.',
        body: NotificationSettingsUpdate,
        response: { 200: NotificationSettings, 400: ErrorBody, ...errors },
      },
    },
    async (request) => saveSettings(ctx, actorOf(request), request.body),
  );

  api.get(
    '/Course/:id/notification-settings/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "The course's notification switches (editors, staff)",
        params: IdParams,
        response: { 200: CourseNotificationSettings, ...errors },
      },
    },
    async (request) => getCourseSettings(ctx, actorOf(request), request.params.id),
  );

  api.put(
    '/Course/:id/notification-settings/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "Change the course's notification switches (editors, staff)",
        params: IdParams,
        body: CourseNotificationSettings,
        response: { 200: CourseNotificationSettings, 400: ErrorBody, ...errors },
      },
    },
    async (request) => saveCourseSettings(ctx, actorOf(request), request.params.id, request.body),
  );
}
