import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { HttpError } from './errors.ts';
import { isDatabaseUnavailable } from './sql-state.ts';

/* Every error of the API as its JSON answer: `detail`, `code` and field errors (docs/development.md, "Errors"). */

/**
 * Field errors beside `detail` and `code`; an input field named `detail` or `code` (a submission's
 * `code`) is reported as `detail_field` / `code_field` so it cannot replace the error's own keys.
 */
function fieldErrors(fields: Record<string, string[]> | undefined): Record<string, string[]> {
  if (!fields) return {};
  return Object.fromEntries(
    Object.entries(fields).map(([key, messages]) => [
      key === 'detail' || key === 'code' ? `${key}_field` : key,
      messages,
    ]),
  );
}

/** Codes of the 4xx answers Fastify and its plugins give on their own (the rest are `bad_request`). */
const PLUGIN_ERROR_CODES: Record<number, string> = {
  401: 'not_authenticated',
  403: 'permission_denied',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  413: 'too_large',
  415: 'unsupported_media_type',
  429: 'throttled',
};

/** How long a client is told to wait while the database is away (a restart or failover takes seconds). */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The app's error handler: an HttpError as it says, a schema's refusal as 400 (404 for a path's id),
 * the database away as 503 with Retry-After, everything else 500 — logged, never its message.
 */
export function handleErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      if (error.headers) reply.headers(error.headers);
      return reply
        .code(error.statusCode)
        .send({ detail: error.message, code: error.code, ...fieldErrors(error.fields) });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // A malformed id in a path names no object the caller can see: 404, as for every unknown object.
      if (error.validationContext === 'params') {
        return reply.code(404).send({ detail: 'Not found.', code: 'not_found' });
      }
      const fields: Record<string, string[]> = {};
      for (const issue of error.validation) {
        const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'non_field_errors';
        (fields[key] ??= []).push(issue.message ?? 'Invalid value.');
      }
      return reply.code(400).send({ detail: 'Invalid input.', code: 'invalid', ...fieldErrors(fields) });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
      return reply.code(500).send({ detail: 'Internal server error.', code: 'internal_error' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = PLUGIN_ERROR_CODES[status] ?? 'bad_request';
      return reply.code(status).send({ detail: error.message, code });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'the database is unavailable');
      return reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send({
        detail: 'The service is briefly unavailable. Try again in a few seconds.',
        code: 'database_unavailable',
      });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ detail: 'Internal server error.', code: 'internal_error' });
  });
}
