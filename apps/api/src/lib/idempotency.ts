import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

/**
 * `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header): a client-chosen key that makes a
 * retried POST return the first one's answer instead of doing the work twice. Printable ASCII without
 * spaces, up to 200 characters; a structured-field string (`"…"`) is accepted as well.
 */
const KEY = /^[\x21-\x7E]{1,200}$/u;

export function idempotencyKeyOf(request: FastifyRequest): string | null {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return null;
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  const key = /^".*"$/u.test(value) ? value.slice(1, -1) : value;
  if (!KEY.test(key)) {
    throw new HttpError(
      400,
      'invalid_idempotency_key',
      'The Idempotency-Key header must be 1 to 200 printable ASCII characters without spaces.',
    );
  }
  return key;
}

/** What the key promises to repeat: the request's parsed body, hashed. */
export function requestHash(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

export const keyReused = () =>
  new HttpError(
    422,
    'idempotency_key_reused',
    'This Idempotency-Key was already used for a different request; send new content with a new key.',
  );
