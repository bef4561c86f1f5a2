import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DataExport,
  DataExportList,
  Erasure,
  ErasureList,
  ErasureListQuery,
  ErasureParams,
  ErasureRequest,
  ErrorBody,
  IdParams,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { erasePerson, listErasuresForStaff } from './erasure.service.ts';
import { getOwnExport, listOwnExports, requestExport } from './export.service.ts';

const tags = ['privacy'];

/** Personal data on request (docs/privacy.md): a person's own export; staff's erasure of a person. */
export function registerPrivacyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/Privacy/exports/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Ask for a copy of your data (a zip, prepared in the background and announced by e-mail)',
        response: { 202: DataExport, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.code(202).send(await requestExport(ctx, actorOf(request))),
  );

  api.get(
    '/Privacy/exports/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Your data exports, newest first',
        response: { 200: DataExportList },
      },
    },
    async (request) => listOwnExports(ctx, actorOf(request)),
  );

  api.get(
    '/Privacy/exports/:id/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'One of your data exports, with a short-lived download link when it is ready',
        params: IdParams,
        response: { 200: DataExport, 404: ErrorBody },
      },
    },
    async (request) => getOwnExport(ctx, actorOf(request), request.params.id),
  );

  api.post(
    '/Privacy/users/:id/erase/',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: "Erase a person's personal data (staff; confirmed by typing their e-mail address)",
        description:
          'Removes or pseudonymises everything about the person in one transaction (docs/privacy.md): ' +
          'ERASURE_KEEP_GRADES keeps their grades under the pseudonym, ERASURE_FORUM_TEXT decides their ' +
          'forum posts. 409: oneself, someone already erased, or the last active staff account.',
        params: ErasureParams,
        body: ErasureRequest,
        response: { 200: Erasure, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => erasePerson(ctx, actorOf(request), request.params.id, request.body.confirm_email),
  );

  api.get(
    '/Privacy/erasures/',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        summary: 'The erasures done, newest first (staff)',
        querystring: ErasureListQuery,
        response: { 200: ErasureList, 403: ErrorBody },
      },
    },
    async (request) => listErasuresForStaff(ctx, request.query),
  );
}
