import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  Calendar,
  CalendarQuery,
  CourseEvent,
  CourseIdParams,
  ErrorBody,
  EventCreate,
  EventParams,
  EventReplace,
  EventUpdate,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import * as events from './events.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } as const;

/** `Event/{course_id}/`: the course calendar (events, assignment dates, quiz windows) and its events. */
export function registerEventRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['calendar'];

  api.get(
    '/Event/:course_id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "The course's calendar in a range: events, assignment due dates, quiz windows (members)",
        params: CourseIdParams,
        querystring: CalendarQuery,
        response: { 200: Calendar, ...errors },
      },
    },
    async (request) => events.getCalendar(ctx, actorOf(request), request.params.course_id, request.query),
  );

  api.post(
    '/Event/:course_id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Add an event to the course calendar (its editors and staff)',
        params: CourseIdParams,
        body: EventCreate,
        response: { 201: CourseEvent, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await events.createEvent(ctx, actorOf(request), request.params.course_id, request.body)),
  );

  api.get(
    '/Event/:course_id/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'One event of the course calendar (members)',
        params: EventParams,
        response: { 200: CourseEvent, ...errors },
      },
    },
    async (request) => events.getEvent(ctx, actorOf(request), request.params.course_id, request.params.id),
  );

  api.put(
    '/Event/:course_id/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Replace an event (its editors and staff)',
        params: EventParams,
        body: EventReplace,
        response: { 200: CourseEvent, ...errors },
      },
    },
    async (request) =>
      events.updateEvent(ctx, actorOf(request), request.params.course_id, request.params.id, request.body),
  );

  api.patch(
    '/Event/:course_id/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Change some fields of an event (its editors and staff)',
        params: EventParams,
        body: EventUpdate,
        response: { 200: CourseEvent, ...errors },
      },
    },
    async (request) =>
      events.updateEvent(ctx, actorOf(request), request.params.course_id, request.params.id, request.body),
  );

  api.delete(
    '/Event/:course_id/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Delete an event (its editors and staff)',
        params: EventParams,
        response: { 204: z.null().describe('Deleted'), ...errors },
      },
    },
    async (request, reply) => {
      await events.deleteEvent(ctx, actorOf(request), request.params.course_id, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
