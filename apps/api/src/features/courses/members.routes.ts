import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CourseIdParams,
  ErrorBody,
  MemberAddRequest,
  MemberAddResult,
  MemberList,
  MemberRemoveRequest,
  MemberRemoveResult,
  type MemberKind,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { toUserSummary } from '../users/users.shape.ts';
import * as members from './members.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody } as const;

const LISTS: { path: string; kind: MemberKind; who: string }[] = [
  { path: '/EditorList/:course_id/', kind: 'editor', who: 'editors (staff change it)' },
  { path: '/StudentList/:course_id/', kind: 'student', who: 'students (editors and staff change it)' },
];

export function registerMemberRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['courses'];

  for (const { path, kind, who } of LISTS) {
    api.get(
      path,
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: `The course's ${who}`,
          params: CourseIdParams,
          response: { 200: MemberList, ...errors },
        },
      },
      async (request) => {
        const { count, rows, pending } = await members.listMembers(
          ctx,
          actorOf(request),
          kind,
          request.params.course_id,
        );
        return {
          count,
          results: rows.map((row) => ({ ...toUserSummary(row), added_at: row.addedAt.toISOString() })),
          pending_count: pending.count,
          pending: pending.rows.map((row) => ({
            id: row.id,
            institutional_id: row.institutionalId,
            added_at: row.addedAt.toISOString(),
          })),
        };
      },
    );

    api.post(
      path,
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: `Add ${kind}s by id, e-mail, institutional id or a pasted list/CSV`,
          params: CourseIdParams,
          body: MemberAddRequest,
          response: { 200: MemberAddResult, ...errors },
        },
      },
      async (request) => {
        const outcome = await members.addMembers(
          ctx,
          actorOf(request),
          kind,
          request.params.course_id,
          request.body,
        );
        return {
          added: outcome.added.map(toUserSummary),
          already: outcome.already.map(toUserSummary),
          created: outcome.created.map((c) => ({ user: toUserSummary(c.user), set_password: c.setPassword })),
          invalid: outcome.invalid,
          unknown_ids: outcome.unknownIds,
          unknown_emails: outcome.unknownEmails,
          pending: outcome.pending,
          ambiguous: outcome.ambiguous,
        };
      },
    );

    api.delete(
      path,
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: `Remove ${kind}s by user id, and pending institutional ids`,
          params: CourseIdParams,
          body: MemberRemoveRequest,
          response: { 200: MemberRemoveResult, ...errors },
        },
      },
      async (request) => {
        const { removed, removedPending } = await members.removeMembers(
          ctx,
          actorOf(request),
          kind,
          request.params.course_id,
          request.body,
        );
        return { removed, removed_pending: removedPending };
      },
    );
  }
}
