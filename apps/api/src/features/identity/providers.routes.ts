import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ErrorBody,
  IdentityProvider,
  IdentityProviderCreate,
  IdentityProviderList,
  IdentityProviderParams,
  IdentityProviderPatch,
  ServiceProviderInfo,
  SignInSettings,
} from '@kadai/contracts';
import type { AppContext } from '../../lib/context.ts';
import * as providers from './providers.service.ts';
import { readSignInSettings, writeSignInSettings } from './signin-settings.service.ts';
import { spUrls } from './sp.ts';

const tags = ['sign-in'];
const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  502: ErrorBody,
};

/** Identity providers and sign-in settings: staff only (docs/sign-in.md). */
export function registerProviderRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const staff = { access: 'staff' as const };

  api.get(
    '/IdentityProvider/',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Every identity provider',
        response: { 200: IdentityProviderList, ...errors },
      },
    },
    async () => ({ results: await providers.listProviders(ctx) }),
  );

  api.post(
    '/IdentityProvider/',
    {
      config: staff,
      schema: {
        tags,
        summary:
          'Add a SAML or OpenID Connect provider (its metadata or discovery is read now; 502 when unreachable)',
        body: IdentityProviderCreate,
        response: { 201: IdentityProvider, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await providers.createProvider(ctx, request.body)),
  );

  api.get(
    '/IdentityProvider/sp/',
    {
      config: staff,
      schema: {
        tags,
        summary: "Kadai's own SAML and OIDC details, to register",
        response: { 200: ServiceProviderInfo, ...errors },
      },
    },
    async () => spUrls(ctx),
  );

  api.get(
    '/IdentityProvider/:id/',
    {
      config: staff,
      schema: {
        tags,
        summary: 'One identity provider',
        params: IdentityProviderParams,
        response: { 200: IdentityProvider, ...errors },
      },
    },
    async (request) => providers.getProvider(ctx, request.params.id),
  );

  api.patch(
    '/IdentityProvider/:id/',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Change a provider (409 for one declared in IDENTITY_PROVIDERS)',
        params: IdentityProviderParams,
        body: IdentityProviderPatch,
        response: { 200: IdentityProvider, ...errors },
      },
    },
    async (request) => providers.updateProvider(ctx, request.params.id, request.body),
  );

  api.delete(
    '/IdentityProvider/:id/',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Remove a provider and every identity linked through it',
        params: IdentityProviderParams,
        response: { 204: z.null().describe('Removed'), ...errors },
      },
    },
    async (request, reply) => {
      await providers.deleteProvider(ctx, request.params.id);
      return reply.code(204).send(null);
    },
  );

  api.get(
    '/SignInSettings/',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Installation-wide sign-in settings',
        response: { 200: SignInSettings, ...errors },
      },
    },
    async () => readSignInSettings(ctx),
  );

  api.put(
    '/SignInSettings/',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Change the sign-in settings',
        body: SignInSettings,
        response: { 200: SignInSettings, ...errors },
      },
    },
    async (request) => writeSignInSettings(ctx, request.body),
  );
}
