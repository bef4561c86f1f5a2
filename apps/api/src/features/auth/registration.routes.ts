import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DetailResponse,
  ErrorBody,
  RegistrationRequest,
  ResendEmailRequest,
  VerifyEmailRequest,
} from '@kadai/contracts';
import type { AppContext } from '../../lib/context.ts';
import { messageLanguage } from '../../lib/language.ts';
import { register, resendVerificationEmail, verifyEmail } from './registration.service.ts';

const tags = ['Auth'];
const errors = { 400: ErrorBody, 404: ErrorBody, 429: ErrorBody } as const;

/** dj-rest-auth's answers, word for word, so clients of the old API read them as before. */
const VERIFICATION_SENT = 'Verification e-mail sent.';

export function registerRegistrationRoutes(fastify: FastifyInstance, ctx: AppContext): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/Auth/Email/Registration/',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Register with e-mail and password: an inactive account and a verification e-mail',
        description:
          '404 when SELF_REGISTRATION is off. The same 201 whether or not the address has an account.',
        body: RegistrationRequest,
        response: { 201: DetailResponse, ...errors },
      },
    },
    async (request, reply) => {
      await register(ctx, request.body, {
        ip: request.ip,
        lang: messageLanguage(request.headers['accept-language']),
      });
      return reply.code(201).send({ detail: VERIFICATION_SENT });
    },
  );

  app.post(
    '/Registration/verify-email/',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Activate an account with the key of its verification e-mail',
        body: VerifyEmailRequest,
        response: { 200: DetailResponse, ...errors },
      },
    },
    async (request) => {
      await verifyEmail(ctx, request.body);
      return { detail: 'ok' };
    },
  );

  app.post(
    '/Registration/resend-email/',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Send the verification e-mail again (the answer never tells whether the address exists)',
        body: ResendEmailRequest,
        response: { 200: DetailResponse, ...errors },
      },
    },
    async (request) => {
      await resendVerificationEmail(ctx, request.body, { ip: request.ip });
      return { detail: 'ok' };
    },
  );
}
