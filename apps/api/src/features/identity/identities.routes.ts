import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorBody,
  IdentityParams,
  LinkedIdentity,
  LinkedIdentityList,
  LinkIdentityRequest,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { linkIdentity, listIdentities, unlinkIdentity } from './identities.service.ts';

const tags = ['sign-in'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const UserParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

export function registerIdentityRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/Auth/User/:id/identities/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "A user's institutional identities (their own, or staff)",
        params: UserParams,
        response: { 200: LinkedIdentityList, ...errors },
      },
    },
    async (request) => ({ results: await listIdentities(ctx, actorOf(request), request.params.id) }),
  );

  api.post(
    '/Auth/User/:id/identities/',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: 'Link an identity to a user (staff)',
        params: UserParams,
        body: LinkIdentityRequest,
        response: { 201: LinkedIdentity, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await linkIdentity(ctx, actorOf(request), request.params.id, request.body)),
  );

  api.delete(
    '/Auth/User/:id/identities/:identity_id/',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: 'Unlink an identity from a user (staff)',
        params: IdentityParams,
        response: { 204: z.null().describe('Unlinked'), ...errors },
      },
    },
    async (request, reply) => {
      await unlinkIdentity(ctx, actorOf(request), request.params.id, request.params.identity_id);
      return reply.code(204).send(null);
    },
  );
}
