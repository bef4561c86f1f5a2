import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorBody,
  LtiCodeRequest,
  LtiExchangeResponse,
  LtiLinkInfo,
  SsoLinkRequest,
  str,
} from '@kadai/contracts';
import { clientOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { HttpError } from '../../lib/errors.ts';
import { LtiFailure } from './failure.ts';
import { htmlPage } from './html-page.ts';
import { toolJwks } from './keys.ts';
import { finishLaunch, startLogin } from './launch.service.ts';
import { canvasConfiguration, currentFrameOrigins } from './platforms.service.ts';
import { registerDynamically } from './registration.service.ts';
import { exchangeLtiCode, linkLtiWithPassword, ltiLinkInfo } from './session.service.ts';

const tags = ['lti'];
const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  410: ErrorBody,
  429: ErrorBody,
  502: ErrorBody,
};
const redirect = { 302: z.null().describe('To the platform, or on to the web app'), 303: z.null() };
/** An id_token with a few claims is a few KB; Canvas's are larger with custom fields. */
const FORM_LIMIT = 64 * 1024;

const LoginParams = z.object({
  iss: str().max(2000).optional(),
  login_hint: str().max(2000).optional(),
  target_link_uri: str().max(2000).optional(),
  lti_message_hint: str().max(4000).optional(),
  client_id: str().max(255).optional(),
  lti_deployment_id: str().max(255).optional(),
});
const LaunchForm = z.object({
  id_token: str().max(FORM_LIMIT).optional(),
  state: str().max(200).optional(),
});
const RegisterQuery = z.object({
  token: str().max(200).optional(),
  openid_configuration: str().max(2000).optional(),
  registration_token: str().max(8000).optional(),
});

const wantsHtml = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/html');

/** An HTML answer framed only by the registered LMS sites (the page inside the LMS). */
async function sendPage(
  ctx: AppContext,
  reply: FastifyReply,
  status: number,
  page: Omit<Parameters<typeof htmlPage>[0], 'frameOrigins'>,
) {
  const { html, csp } = htmlPage({ ...page, frameOrigins: await currentFrameOrigins(ctx).catch(() => []) });
  reply.raw.removeHeader('x-frame-options');
  return reply
    .code(status)
    .header('content-security-policy', csp)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .serializer((payload: unknown) => String(payload))
    .send(html);
}

/**
 * A browser step that failed: its status, and for a browser a page that moves on to the web app's
 * explanation in the person's language (`/lti?error=…`); the cause goes to the log only.
 */
async function refuse(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, error: unknown) {
  if (!(error instanceof HttpError)) throw error;
  ctx.log.warn({ code: error.code, cause: error.message }, 'lti: browser step refused');
  if (!wantsHtml(request)) throw error;
  const reason =
    error instanceof LtiFailure
      ? error.reason
      : error.statusCode === 502
        ? 'unreachable'
        : error.statusCode === 410
          ? 'expired'
          : 'invalid';
  return sendPage(ctx, reply, error.statusCode, {
    title: 'Kadai',
    message: 'LTI: この操作はできませんでした。 / This could not be done.',
    refreshTo: `/lti?error=${reason}`,
  });
}

const go = (reply: FastifyReply, status: 302 | 303, location: string) =>
  reply.code(status).header('cache-control', 'no-store').header('location', location).send();

/** The LMS's side of LTI: login initiation, launch, keys, dynamic registration; and the page's code. */
export async function registerLtiRoutes(parent: FastifyInstance, ctx: AppContext): Promise<void> {
  await parent.register(async (scope) => {
    await scope.register(formbody, { bodyLimit: FORM_LIMIT * 2 });
    const api = scope.withTypeProvider<ZodTypeProvider>();
    const open = { access: 'public' as const };
    const login = async (
      request: FastifyRequest,
      reply: FastifyReply,
      params: z.infer<typeof LoginParams>,
    ) => {
      try {
        return go(reply, 302, await startLogin(ctx, params));
      } catch (error) {
        return refuse(ctx, request, reply, error);
      }
    };
    const loginSchema = {
      tags,
      summary: 'LTI third-party login initiation (from the platform)',
      security: [],
      response: { ...redirect, ...errors },
    };

    api.get(
      '/Lti/login/',
      { config: open, schema: { ...loginSchema, querystring: LoginParams } },
      (request, reply) => login(request, reply, request.query),
    );
    api.post(
      '/Lti/login/',
      { config: open, schema: { ...loginSchema, body: LoginParams } },
      (request, reply) => login(request, reply, request.body),
    );

    api.post(
      '/Lti/launch/',
      {
        config: open,
        schema: {
          tags,
          summary:
            "The platform's id_token (form_post): checked, then on to the web app with a one-time code",
          security: [],
          body: LaunchForm,
          response: { ...redirect, ...errors },
        },
      },
      async (request, reply) => {
        try {
          return go(reply, 303, await finishLaunch(ctx, request.body));
        } catch (error) {
          return refuse(ctx, request, reply, error);
        }
      },
    );

    api.get(
      '/Lti/jwks/',
      {
        config: open,
        schema: {
          tags,
          summary: "Kadai's public keys (JWKS)",
          security: [],
          response: { 200: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }) },
        },
      },
      async (_request, reply) =>
        reply.header('cache-control', 'public, max-age=300').send(await toolJwks(ctx)),
    );

    api.get(
      '/Lti/canvas.json',
      {
        config: open,
        schema: {
          tags,
          summary: 'The Canvas developer key JSON configuration',
          security: [],
          response: { 200: z.record(z.string(), z.unknown()) },
        },
      },
      async () => canvasConfiguration(ctx),
    );

    api.get(
      '/Lti/register/',
      {
        config: open,
        schema: {
          tags,
          summary: 'LTI Dynamic Registration, opened by the LMS with a one-time address staff made',
          security: [],
          querystring: RegisterQuery,
          response: { 200: z.string(), ...errors },
        },
      },
      async (request, reply) => {
        try {
          const { platform } = await registerDynamically(ctx, request.query);
          const close =
            "(window.opener||window.parent).postMessage({subject:'org.imsglobal.lti.close'},'*');";
          return sendPage(ctx, reply, 200, {
            title: 'Kadai',
            message: `${platform} に登録しました。この画面は閉じてかまいません。 / Kadai is registered with ${platform}. You can close this window.`,
            script: close,
          });
        } catch (error) {
          if (!(error instanceof HttpError) || !wantsHtml(request)) throw error;
          ctx.log.warn({ code: error.code, cause: error.message }, 'lti: dynamic registration refused');
          return sendPage(ctx, reply, error.statusCode, { title: 'Kadai', message: error.message });
        }
      },
    );

    api.post(
      '/Lti/Exchange/',
      {
        config: open,
        schema: {
          tags,
          summary: 'The one-time code of a launch, for tokens and the page to open',
          security: [],
          body: LtiCodeRequest,
          response: { 200: LtiExchangeResponse, ...errors },
        },
      },
      async (request) => exchangeLtiCode(ctx, request.body.code, clientOf(request)),
    );

    api.get(
      '/Lti/Link/',
      {
        config: open,
        schema: {
          tags,
          summary: 'Which account a link code would join, and from which LMS',
          security: [],
          querystring: LtiCodeRequest,
          response: { 200: LtiLinkInfo, ...errors },
        },
      },
      async (request) => ltiLinkInfo(ctx, request.query.code),
    );

    api.post(
      '/Lti/Link/',
      {
        config: open,
        schema: {
          tags,
          summary: "Link the LMS account to the existing account of its e-mail, with that account's password",
          security: [],
          body: SsoLinkRequest,
          response: { 200: LtiExchangeResponse, ...errors },
        },
      },
      async (request) => linkLtiWithPassword(ctx, request.body, clientOf(request)),
    );
  });
}
