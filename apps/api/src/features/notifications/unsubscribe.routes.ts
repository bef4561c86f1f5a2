import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, str, UnsubscribeResult } from '@kadai/contracts';
import type { AppContext } from '../../lib/context.ts';
import { describeUnsubscribe, unsubscribe } from './unsubscribe.service.ts';

const tags = ['notifications'];
const UnsubscribeQuery = z.object({
  /** The signed token of the e-mail's link (unsubscribe-token.ts). */
  token: str().max(1000),
});
/** A one-click POST carries `List-Unsubscribe=One-Click`: a few bytes are all a body may have here. */
const BODY_LIMIT = 4096;

/**
 * The unsubscribe link of notification e-mails (docs/notifications.md, "Unsubscribe"): public, the
 * token is the key. In a scope of its own that takes the body of whatever type a mail client sends
 * (RFC 8058 posts `List-Unsubscribe=One-Click` form-encoded; others send JSON or nothing) and reads none.
 */
export async function registerUnsubscribeRoutes(parent: FastifyInstance, ctx: AppContext): Promise<void> {
  await parent.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, _body, done) =>
      done(null, undefined),
    );
    const api = scope.withTypeProvider<ZodTypeProvider>();
    const open = { access: 'public' as const };

    api.get(
      '/Notification/unsubscribe/',
      {
        config: open,
        schema: {
          tags,
          summary: "What an e-mail's unsubscribe link turns off, without turning it off",
          description:
            '400 `invalid_token` for a token that is not one of ours (forged, cut short or altered).',
          security: [],
          querystring: UnsubscribeQuery,
          response: { 200: UnsubscribeResult, 400: ErrorBody },
        },
      },
      async (request, reply) =>
        reply.header('cache-control', 'no-store').send(await describeUnsubscribe(ctx, request.query.token)),
    );

    api.post(
      '/Notification/unsubscribe/',
      {
        config: open,
        schema: {
          tags,
          summary: 'Turn off what the link names: a kind of e-mail, a course, or all (RFC 8058 one-click)',
          description:
            'No sign-in: the token is the key. The body is ignored (`List-Unsubscribe=One-Click`, JSON or ' +
            'none). Sending it again changes nothing more. 400 `invalid_token` for a token that is not ' +
            'one of ours; nothing changes then.',
          security: [],
          querystring: UnsubscribeQuery,
          response: { 200: UnsubscribeResult, 400: ErrorBody },
        },
      },
      async (request, reply) =>
        reply.header('cache-control', 'no-store').send(await unsubscribe(ctx, request.query.token)),
    );
  });
}
