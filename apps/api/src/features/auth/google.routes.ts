import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { GoogleLoginRequest, LoginResponse } from '@kadai/contracts';
import { clientOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { signInWithGoogle } from './google.service.ts';

export function registerGoogleAuthRoutes(fastify: FastifyInstance, ctx: AppContext): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/Auth/SocialLogin/Google/',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Auth'],
        summary: 'Sign in with a Google access token (404 when Google sign-in is not configured)',
        security: [],
        body: GoogleLoginRequest,
        response: { 200: LoginResponse },
      },
    },
    async (request) => signInWithGoogle(ctx, request.body, clientOf(request)),
  );
}
