import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ErrorBody,
  ExtensionAuditPage,
  ExtensionAuditQuery,
  ExtensionGrant,
  ExtensionList,
  ExtensionListQuery,
  ExtensionParams,
  ExtensionRevoke,
  IdParams,
} from '@kadai/contracts';
import { z } from 'zod';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { grantExtensions, listAudit, listExtensions, revokeExtension } from './extensions.service.ts';

const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } as const;
const tags = ['extensions'];

/** Per-student extensions of a course (docs/extensions.md): editors of the course and staff. */
export function registerExtensionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/Course/:id/extensions/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "The course's per-student extensions (editors, staff)",
        params: IdParams,
        querystring: ExtensionListQuery,
        response: { 200: ExtensionList, 400: ErrorBody, ...errors },
      },
    },
    async (request) => listExtensions(ctx, actorOf(request), request.params.id, request.query),
  );

  api.post(
    '/Course/:id/extensions/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Give students their own dates for an assignment or a quiz (editors, staff)',
        description:
          'Replaces what each student had for that item; every change is written to the audit. 400 ' +
          '`not_students` when a user is not a student of the course (nothing is granted then).',
        params: IdParams,
        body: ExtensionGrant,
        response: { 201: ExtensionList, 400: ErrorBody, ...errors },
      },
    },
    async (request, reply) => {
      const granted = await grantExtensions(ctx, actorOf(request), request.params.id, request.body);
      return reply.code(201).send(granted);
    },
  );

  api.delete(
    '/Course/:id/extensions/:kind/:item_id/:user_id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "Take a student's extension away, with a reason (editors, staff)",
        description: 'The reason is written to the audit row of the revocation.',
        params: ExtensionParams,
        body: ExtensionRevoke,
        response: { 204: z.null().describe('Revoked'), 400: ErrorBody, ...errors },
      },
    },
    async (request, reply) => {
      const { id, kind, item_id, user_id } = request.params;
      await revokeExtension(ctx, actorOf(request), { id, kind, item_id, user_id }, request.body.reason);
      return reply.code(204).send(null);
    },
  );

  api.get(
    '/Course/:id/extensions/audit/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Who granted, changed or revoked which extension, newest first (editors, staff)',
        params: IdParams,
        querystring: ExtensionAuditQuery,
        response: { 200: ExtensionAuditPage, 400: ErrorBody, ...errors },
      },
    },
    async (request) => listAudit(ctx, actorOf(request), request.params.id, request.query),
  );
}
