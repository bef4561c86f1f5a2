import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  InternalKernelExecute,
  InternalKernelNothing,
  InternalKernelStart,
  type InternalKernelRun,
} from '@kadai/contracts';
import { badRequest } from '../../lib/errors.ts';
import { INTERNAL_CONTENT_TYPE, INTERNAL_PREFIX, SIGNATURE_HEADER } from './kernel-channel.ts';
import type { KernelHost } from './kernel-host.ts';

/*
 * The internal kernel endpoints of a kernel host (kernel-channel.ts): what other instances forward to
 * the owner of a session's kernel. Outside /api, hidden from the API reference, and indistinguishable
 * from a path that does not exist (404) for any request without a valid signature.
 */

const NOT_FOUND = { detail: 'Not found.', code: 'not_found' } as const;
/** A cell's code is at most 100,000 characters; JSON may escape each into six bytes. */
const BODY_LIMIT = 1024 * 1024;
const SessionParams = z.object({ sessionId: z.coerce.number().int().min(1).max(2_147_483_647) });

function parseBody<S extends z.ZodType>(request: FastifyRequest, schema: S): z.infer<S> {
  const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw badRequest('The body is not JSON.');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badRequest('Invalid input.');
  return parsed.data;
}

export function registerInternalKernelRoutes(app: FastifyInstance, host: KernelHost): void {
  void app.register(
    async (internal) => {
      // Bytes as they came: the signature covers them, so nothing is parsed before it is checked.
      internal.removeAllContentTypeParsers();
      internal.addContentTypeParser(
        INTERNAL_CONTENT_TYPE,
        { parseAs: 'buffer', bodyLimit: BODY_LIMIT },
        (_request, body, done) => done(null, body),
      );
      const refuse = (reply: FastifyReply) => reply.code(404).send(NOT_FOUND);
      internal.addHook('onRequest', async (request, reply) => {
        const type = request.headers['content-type']?.split(';')[0]?.trim();
        if (type !== INTERNAL_CONTENT_TYPE || !host.verifier.looksSigned(request.headers[SIGNATURE_HEADER])) {
          return refuse(reply);
        }
      });
      internal.addHook('preHandler', async (request, reply) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        if (!host.verifier.verify(request.headers[SIGNATURE_HEADER], request.method, request.url, body)) {
          return refuse(reply);
        }
      });

      // Never compressed: a private network between instances, where it would only cost CPU on both ends.
      const hidden = { schema: { hide: true }, compress: false } as const;
      const sessionOf = (request: FastifyRequest) => {
        const params = SessionParams.safeParse(request.params);
        return params.success ? params.data.sessionId : null;
      };
      const route = (
        action: string,
        handle: (sessionId: number, request: FastifyRequest) => Promise<object>,
      ) =>
        internal.post(`/:sessionId/${action}`, hidden, async (request, reply) => {
          const sessionId = sessionOf(request);
          if (sessionId === null) return refuse(reply);
          return reply.send(await handle(sessionId, request));
        });

      route('start', async (sessionId, request) => {
        const body = parseBody(request, InternalKernelStart);
        return { started: await host.startKernel(sessionId, body.limits, body.fresh) };
      });
      route('execute', async (sessionId, request): Promise<InternalKernelRun> => {
        const body = parseBody(request, InternalKernelExecute);
        return host.execute(sessionId, body.limits, body.code, body.fresh);
      });
      route('interrupt', async (sessionId, request) => {
        parseBody(request, InternalKernelNothing);
        return { interrupted: await host.interrupt(sessionId) };
      });
      route('stop', async (sessionId, request) => {
        parseBody(request, InternalKernelNothing);
        await host.stopKernel(sessionId);
        return { stopped: true };
      });
    },
    { prefix: INTERNAL_PREFIX },
  );
}
