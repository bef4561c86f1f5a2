import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorBody,
  IdParams,
  LtiPlatform,
  LtiPlatformInput,
  LtiPlatformList,
  LtiPlatformPatch,
  LtiRegistrationLink,
  LtiToolInfo,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { rotateToolKey } from './keys.ts';
import * as platforms from './platforms.service.ts';

const tags = ['lti'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/** Platform registrations and Kadai's own tool details: staff only (docs/lti.md). */
export function registerLtiStaffRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const staff = { access: 'staff' as const };

  api.get(
    '/Lti/Platform/',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Every LMS platform registration',
        response: { 200: LtiPlatformList, ...errors },
      },
    },
    async () => ({ results: await platforms.listPlatforms(ctx) }),
  );
  api.post(
    '/Lti/Platform/',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Register an LMS platform by hand',
        body: LtiPlatformInput,
        response: { 201: LtiPlatform, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await platforms.createPlatform(ctx, request.body)),
  );
  api.patch(
    '/Lti/Platform/:id/',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Change a platform registration',
        params: IdParams,
        body: LtiPlatformPatch,
        response: { 200: LtiPlatform, ...errors },
      },
    },
    async (request) => platforms.updatePlatform(ctx, request.params.id, request.body),
  );
  api.delete(
    '/Lti/Platform/:id/',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Remove a platform registration (its links to people, courses and line items go with it)',
        params: IdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await platforms.deletePlatform(ctx, request.params.id);
      return reply.code(204).send(null);
    },
  );
  api.get(
    '/Lti/Tool/',
    {
      config: staff,
      schema: {
        tags,
        summary: "Kadai's addresses and keys, to register with an LMS",
        response: { 200: LtiToolInfo, ...errors },
      },
    },
    async () => platforms.getToolInfo(ctx),
  );
  api.post(
    '/Lti/Tool/rotate-key/',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Make a new signing key (the previous one stays published until the next rotation)',
        response: { 200: LtiToolInfo, ...errors },
      },
    },
    async () => {
      await rotateToolKey(ctx);
      return platforms.getToolInfo(ctx);
    },
  );
  api.post(
    '/Lti/Registration/',
    {
      config: staff,
      schema: {
        tags,
        summary: 'A one-time dynamic registration address for an LMS administrator',
        response: { 201: LtiRegistrationLink, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await platforms.createRegistrationLink(ctx, actorOf(request))),
  );
}
