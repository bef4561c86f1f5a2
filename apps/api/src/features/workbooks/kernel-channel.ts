import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import { ErrorBody } from '@kadai/contracts';
import { HttpError } from '../../lib/errors.ts';

/*
 * The internal channel between Kadai processes (docs/workbooks.md, "Kernels"): an instance forwards a
 * session's kernel calls to the host that owns the kernel. Every request is signed with a key derived
 * from the shared JWT_SECRET: HMAC-SHA256 over the id of the host it is meant for, the method, the path,
 * the body's hash, a timestamp and a nonce. The receiver refuses a signature older or newer than 30 s, a
 * nonce it has seen, one made for another host (a request captured on its way to one host cannot be
 * replayed to another within the 30 s: issue 36, item 7), or a mismatch (compared in constant time), and
 * answers those exactly as it answers a path that does not exist.
 */

export const INTERNAL_PREFIX = '/internal/kernels';
export const SIGNATURE_HEADER = 'x-kadai-signature';
/** Only this type is read on the internal routes: the body is kept as bytes until the signature holds. */
export const INTERNAL_CONTENT_TYPE = 'application/x-kadai-internal+json';
const MAX_SKEW_SECONDS = 30;
const SIGNATURE = /^t=(\d{1,12}),n=([\w-]{22}),s=([\w-]{43})$/;

/** A key of its own: a signature of this channel is never valid as anything else signed with the secret. */
export function channelKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('kadai internal kernel channel v2').digest();
}

function mac(
  key: Buffer,
  host: string,
  method: string,
  path: string,
  body: Buffer,
  time: number,
  nonce: string,
): Buffer {
  const bodyHash = createHash('sha256').update(body).digest('hex');
  return createHmac('sha256', key)
    .update(`${host}\n${method.toUpperCase()}\n${path}\n${bodyHash}\n${time}\n${nonce}`)
    .digest();
}

/** A signature for host `host` (its `kernel_hosts` id) alone. */
export function sign(
  key: Buffer,
  host: string,
  method: string,
  path: string,
  body: Buffer,
  now = Date.now(),
): string {
  const time = Math.floor(now / 1000);
  const nonce = randomBytes(16).toString('base64url');
  return `t=${time},n=${nonce},s=${mac(key, host, method, path, body, time, nonce).toString('base64url')}`;
}

/** Checks signatures, and remembers each nonce while its signature could still be accepted. */
export class SignatureVerifier {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly key: Buffer,
    /** This host's id: only signatures made for it are accepted. */
    private readonly host: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Only the header's shape and age, before the body is read: a stranger's request costs nothing. */
  looksSigned(header: unknown): boolean {
    if (typeof header !== 'string') return false;
    const match = SIGNATURE.exec(header);
    return match !== null && Math.abs(this.now() / 1000 - Number(match[1])) <= MAX_SKEW_SECONDS;
  }

  verify(header: unknown, method: string, path: string, body: Buffer): boolean {
    if (typeof header !== 'string' || !this.looksSigned(header)) return false;
    const [, time, nonce, given] = SIGNATURE.exec(header)!;
    const expected = mac(this.key, this.host, method, path, body, Number(time), nonce!);
    const actual = Buffer.from(given!, 'base64url');
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return false;
    const now = this.now();
    for (const [old, until] of this.seen) {
      if (until > now) break; // insertion order is expiry order
      this.seen.delete(old);
    }
    if (this.seen.has(nonce!)) return false; // a replay
    this.seen.set(nonce!, now + 2 * MAX_SKEW_SECONDS * 1000);
    return true;
  }
}

/** The owner cannot be reached (refused, reset, stopping): the session moves to another host. */
export class KernelHostGone extends Error {
  override name = 'KernelHostGone';
}

const unreachable = (detail: string) =>
  new HttpError(
    503,
    'kernel_host_unreachable',
    `The server running this notebook's kernel does not answer (${detail}). Try again in a moment.`,
    undefined,
    { 'retry-after': '5' },
  );

/** Logs what an operator must fix: the peer refused our signature or is not a kernel host. */
type Warn = (fields: Record<string, unknown>, message: string) => void;

/** Signed requests to other kernel hosts. */
export class KernelChannel {
  constructor(
    private readonly key: Buffer,
    private readonly warn: Warn,
  ) {}

  /**
   * POSTs `body` to `baseUrl` + `path` and parses the answer with `response`. Throws KernelHostGone when
   * the host cannot be reached or is shutting down, the host's own error (429, 503 sandbox) as an
   * HttpError, and 503 when it takes longer than `timeoutMs` or refuses the signature.
   */
  async call<T>(
    target: { id: string; url: string },
    path: string,
    body: unknown,
    response: z.ZodType<T>,
    timeoutMs: number,
  ): Promise<T> {
    const url = new URL(`${INTERNAL_PREFIX}${path}`, target.url);
    const bytes = Buffer.from(JSON.stringify(body), 'utf8');
    let answer: Response;
    try {
      answer = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': INTERNAL_CONTENT_TYPE,
          [SIGNATURE_HEADER]: sign(this.key, target.id, 'POST', url.pathname, bytes),
        },
        body: bytes,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'TimeoutError') {
        throw unreachable(`no answer within ${Math.round(timeoutMs / 1000)} s`);
      }
      throw new KernelHostGone(`${url.origin}: ${causeOf(error)}`);
    }
    const text = await answer.text().catch(() => '');
    const parsed = parseJson(text);
    if (answer.ok) {
      const result = response.safeParse(parsed);
      if (result.success) return result.data;
      throw unreachable('an answer this server does not understand');
    }
    const error = ErrorBody.safeParse(parsed);
    const code = error.success ? error.data.code : '';
    if (answer.status === 404) {
      this.warn(
        { host: url.origin },
        'workbooks: a kernel host refused our signature: do all instances share JWT_SECRET, and is INTERNAL_URL right?',
      );
      throw unreachable('it refused this server');
    }
    // Shutting down (its own word, or Fastify's 503 while it closes): as good as gone. A host without
    // its sandbox or its database for a moment still holds the kernel: that 503 is passed on.
    if (answer.status === 503 && code !== 'sandbox_unavailable' && code !== 'database_unavailable') {
      throw new KernelHostGone(`${url.origin}: ${code || 'closing'}`);
    }
    if (error.success) {
      const retryAfter = answer.headers.get('retry-after');
      throw new HttpError(
        answer.status,
        code,
        error.data.detail,
        undefined,
        retryAfter ? { 'retry-after': retryAfter } : undefined,
      );
    }
    throw unreachable(`HTTP ${answer.status}`);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function causeOf(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) return 'code' in cause ? String(cause.code) : cause.message;
  return error instanceof Error ? error.message : String(error);
}
