import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, IdParams, OutboxEmail, OutboxList, OutboxQuery } from '@kadai/contracts';
import type { AppContext } from '../../lib/context.ts';
import { getOutboxEmail, listOutbox } from './mail.service.ts';

const tags = ['Mail'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } as const;

export function registerMailRoutes(fastify: FastifyInstance, ctx: AppContext): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/Mail/outbox/',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: 'E-mails the system wrote, newest first, without bodies (staff)',
        querystring: OutboxQuery,
        response: { 200: OutboxList, ...errors },
      },
    },
    async (request) => listOutbox(ctx, request.query),
  );

  app.get(
    '/Mail/outbox/:id/',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: 'One e-mail with its body (staff)',
        params: IdParams,
        response: { 200: OutboxEmail, ...errors },
      },
    },
    async (request) => getOutboxEmail(ctx, request.params.id),
  );
}
