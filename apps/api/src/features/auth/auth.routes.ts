import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DetailResponse,
  ErrorBody,
  LoginRequest,
  LoginResponse,
  LogoutRequest,
  LogoutResponse,
  PasswordChangeRequest,
  PasswordResetConfirmRequest,
  RefreshRequest,
  ROLES,
  RolesList,
  TokenPair,
  UserInfo,
} from '@kadai/contracts';
import { actorOf, clientOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { messageLanguage } from '../../lib/language.ts';
import { samlLogoutUrl } from '../identity/slo.service.ts';
import { getUserInfo, login, logout, refreshTokens } from './auth.service.ts';
import { prepareDummyHash } from './password-hash.ts';
import { changePassword, confirmPasswordReset } from './password.service.ts';

const tags = ['Auth'];

export function registerAuthRoutes(fastify: FastifyInstance, ctx: AppContext): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Made now, not on the first unknown e-mail, whose answer would otherwise take two hashes.
  void prepareDummyHash();

  // The spec names two sign-in paths that behave the same (simplejwt's and dj-rest-auth's).
  for (const url of ['/Auth/Token/', '/Auth/Email/Login/']) {
    app.post(
      url,
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'Sign in with e-mail and password',
          body: LoginRequest,
          // 401 for a wrong e-mail or password, 429 over the throttle's limit (with Retry-After).
          response: { 200: LoginResponse, 401: ErrorBody, 429: ErrorBody },
        },
      },
      async (request) => login(ctx, request.body, clientOf(request)),
    );
  }

  app.post(
    '/Auth/Token/Refresh/',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Exchange a refresh token for a new pair (each refresh token works once)',
        body: RefreshRequest,
        response: { 200: TokenPair, 401: ErrorBody },
      },
    },
    async (request) => refreshTokens(ctx, request.body.refresh),
  );

  app.post(
    '/Auth/Logout/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'End this session, or every session with `all`',
        // Clients often post no body at all to sign out.
        body: LogoutRequest.nullish(),
        response: { 200: LogoutResponse },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      // Made before the session ends: it names the IdP session this one came from (SAML single logout).
      const ssoLogoutUrl = await samlLogoutUrl(ctx, actor.sessionId);
      await logout(ctx, actor, request.body ?? { all: false });
      return { detail: 'Successfully logged out.', sso_logout_url: ssoLogoutUrl };
    },
  );

  app.get(
    '/Auth/UserInfo/',
    {
      config: { access: 'user' },
      schema: { tags, summary: 'The signed-in user', response: { 200: UserInfo } },
    },
    async (request) => getUserInfo(ctx, actorOf(request)),
  );

  app.get(
    '/Auth/RolesList/',
    {
      config: { access: 'user' },
      schema: { tags, summary: 'Every role a user may hold', response: { 200: RolesList } },
    },
    async () => ({ roles: [...ROLES] }),
  );

  app.post(
    '/Auth/password/change/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Set a new password, giving the current one if there is one; other sessions end',
        body: PasswordChangeRequest,
        response: { 200: DetailResponse, 429: ErrorBody },
      },
    },
    async (request) => {
      await changePassword(ctx, actorOf(request), request.body, {
        ip: request.ip,
        lang: messageLanguage(request.headers['accept-language']),
      });
      return { detail: 'New password has been saved.' };
    },
  );

  app.post(
    '/Auth/password/reset/confirm/',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Set a password from a set-password link; every session ends',
        body: PasswordResetConfirmRequest,
        response: { 200: DetailResponse },
      },
    },
    async (request) => {
      await confirmPasswordReset(ctx, request.body, messageLanguage(request.headers['accept-language']));
      return { detail: 'Password has been reset with the new password.' };
    },
  );
}
