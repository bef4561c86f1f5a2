import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorBody,
  IdParams,
  SetPasswordLink,
  User,
  UserCreate,
  UserCreated,
  UserList,
  UserListQuery,
  UserReplace,
  UserUpdate,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import {
  createAccount,
  createSetPasswordLinkFor,
  deleteAccount,
  getVisibleUser,
  listUsersForStaff,
  updateAccount,
} from './users.service.ts';
import { toUser } from './users.shape.ts';

const tags = ['Users'];

export function registerUserRoutes(fastify: FastifyInstance, ctx: AppContext): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/Auth/User/',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: 'Every account (staff)',
        querystring: UserListQuery,
        response: { 200: UserList },
      },
    },
    async (request) => {
      const { count, rows } = await listUsersForStaff(ctx, request.query);
      return { count, limit: request.query.limit, offset: request.query.offset, results: rows.map(toUser) };
    },
  );

  app.post(
    '/Auth/User/',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: 'Open an account and get its set-password link (staff)',
        body: UserCreate,
        // 409 when the e-mail is taken.
        response: { 201: UserCreated, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const { user, setPassword } = await createAccount(ctx, request.body);
      return reply.code(201).send({ user: toUser(user), set_password: setPassword });
    },
  );

  app.post(
    '/Auth/User/:id/set-password-link/',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: 'A new set-password link for an account (staff)',
        params: IdParams,
        response: { 200: SetPasswordLink },
      },
    },
    async (request) => createSetPasswordLinkFor(ctx, request.params.id),
  );

  app.get(
    '/Auth/User/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'An account: your own, or any for staff',
        params: IdParams,
        response: { 200: User },
      },
    },
    async (request) => toUser(await getVisibleUser(ctx, actorOf(request), request.params.id)),
  );

  app.patch(
    '/Auth/User/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Change some fields of an account',
        params: IdParams,
        body: UserUpdate,
        // 403 for a student sending fields only staff may change; 409 for an e-mail taken.
        response: { 200: User, 403: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => toUser(await updateAccount(ctx, actorOf(request), request.params.id, request.body)),
  );

  app.put(
    '/Auth/User/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Replace the editable fields of an account',
        params: IdParams,
        body: UserReplace,
        // 403 for a student sending fields only staff may change; 409 for an e-mail taken.
        response: { 200: User, 403: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => toUser(await updateAccount(ctx, actorOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/Auth/User/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Delete an account: your own, or another for staff',
        params: IdParams,
        response: { 204: z.null().describe('Deleted') },
      },
    },
    async (request, reply) => {
      await deleteAccount(ctx, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
