import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorBody,
  IdpSlug,
  SsoExchangeRequest,
  SsoExchangeResponse,
  SsoLinkInfo,
  SsoLinkRequest,
  SsoStartQuery,
  str,
} from '@kadai/contracts';
import { clientOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { exchangeCode } from './accounts.service.ts';
import { linkInfo, linkWithPassword } from './link.service.ts';
import { handleSlo, spMetadataXml, type SloMessage } from './slo.service.ts';
import { oidcCallback, samlAcs, startSignIn } from './sso.service.ts';

const tags = ['sign-in'];
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 410: ErrorBody, 429: ErrorBody };
const redirect = { 303: z.null().describe('To the identity provider, or back to the web app') };
/** A SAMLResponse with a few certificates is tens of KB; an encrypted one somewhat more. */
const SAML_FORM_LIMIT = 512 * 1024;

const SamlForm = z.object({
  SAMLResponse: str().max(SAML_FORM_LIMIT).optional(),
  SAMLRequest: str().max(SAML_FORM_LIMIT).optional(),
  RelayState: str().max(200).optional(),
  SigAlg: str().max(200).optional(),
  Signature: str().max(2000).optional(),
});

const rawQueryOf = (request: FastifyRequest) => {
  const at = request.url.indexOf('?');
  return at < 0 ? '' : request.url.slice(at + 1);
};

const go = (reply: FastifyReply, location: string) =>
  reply.code(303).header('cache-control', 'no-store').header('location', location).send();

/**
 * The browser's side of SAML and OpenID Connect sign-in (docs/sign-in.md). In their own scope, which
 * alone parses HTML form posts (the IdP's HTTP-POST binding).
 */
export async function registerSsoRoutes(parent: FastifyInstance, ctx: AppContext): Promise<void> {
  await parent.register(async (scope) => {
    await scope.register(formbody, { bodyLimit: SAML_FORM_LIMIT * 2 });
    const api = scope.withTypeProvider<ZodTypeProvider>();
    const open = { access: 'public' as const };

    api.get(
      '/Auth/Sso/:slug/start/',
      {
        config: open,
        schema: {
          tags,
          summary: 'Start signing in through an identity provider (a browser navigation)',
          security: [],
          params: z.object({ slug: IdpSlug }),
          querystring: SsoStartQuery,
          response: { ...redirect, ...errors },
        },
      },
      async (request, reply) =>
        go(reply, (await startSignIn(ctx, request.params.slug, request.query.next ?? null)).location),
    );

    api.post(
      '/Auth/Saml/acs/',
      {
        config: open,
        schema: {
          tags,
          summary: "The SAML IdP's answer (HTTP-POST binding)",
          security: [],
          body: SamlForm,
          response: { ...redirect, ...errors },
        },
      },
      async (request, reply) => go(reply, (await samlAcs(ctx, request.body)).location),
    );

    api.get(
      '/Auth/Oidc/callback/',
      {
        config: open,
        schema: {
          tags,
          summary: "The OpenID provider's answer (authorization code)",
          security: [],
          querystring: z.object({ state: str().max(200).optional() }).catchall(str().max(4000)),
          response: { ...redirect, ...errors },
        },
      },
      async (request, reply) => go(reply, (await oidcCallback(ctx, rawQueryOf(request))).location),
    );

    api.get(
      '/Auth/Saml/metadata/',
      {
        config: open,
        schema: {
          tags,
          summary: "Kadai's SAML service provider metadata (register it with GakuNin or the IdP)",
          security: [],
          response: { 200: z.string().describe('SAML 2.0 metadata') },
        },
      },
      async (_request, reply) =>
        reply.type('application/samlmetadata+xml; charset=utf-8').send(await spMetadataXml(ctx)),
    );

    api.get(
      '/Auth/Saml/slo/',
      {
        config: open,
        schema: {
          tags,
          summary: 'SAML single logout (HTTP-Redirect binding)',
          security: [],
          querystring: SamlForm,
          response: { ...redirect, ...errors },
        },
      },
      async (request, reply) =>
        go(reply, await handleSlo(ctx, request.query as SloMessage, 'redirect', rawQueryOf(request))),
    );

    api.post(
      '/Auth/Saml/slo/',
      {
        config: open,
        schema: {
          tags,
          summary: 'SAML single logout (HTTP-POST binding)',
          security: [],
          body: SamlForm,
          response: { ...redirect, ...errors },
        },
      },
      async (request, reply) => go(reply, await handleSlo(ctx, request.body as SloMessage, 'post', '')),
    );

    api.post(
      '/Auth/Sso/Exchange/',
      {
        config: open,
        schema: {
          tags,
          summary: 'The one-time code of a finished sign-in, for tokens',
          security: [],
          body: SsoExchangeRequest,
          response: { 200: SsoExchangeResponse, ...errors },
        },
      },
      async (request) => exchangeCode(ctx, request.body.code, clientOf(request)),
    );

    api.get(
      '/Auth/Sso/Link/',
      {
        config: open,
        schema: {
          tags,
          summary: 'Which account a link code would join, and through which provider',
          security: [],
          querystring: SsoExchangeRequest,
          response: { 200: SsoLinkInfo, ...errors },
        },
      },
      async (request) => linkInfo(ctx, request.query.code),
    );

    api.post(
      '/Auth/Sso/Link/',
      {
        config: open,
        schema: {
          tags,
          summary:
            "Link an institutional sign-in to the existing account of its e-mail, with that account's password",
          security: [],
          body: SsoLinkRequest,
          response: { 200: SsoExchangeResponse, ...errors },
        },
      },
      async (request) => linkWithPassword(ctx, request.body, clientOf(request)),
    );
  });
}
