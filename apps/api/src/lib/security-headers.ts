import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config.ts';

/*
 * The security headers of every response (Content-Security-Policy and the rest of helmet's set). They
 * depend on configuration only — no nonces — so helmet runs once, at start, against a response that
 * keeps what it writes, and every request copies that list. @fastify/helmet built helmet's middleware
 * anew on every request (parsing the CSP directives each time): about 3 % of a list page's API CPU.
 */

/**
 * What the page may load for Google sign-in, only when it is configured: the identity script itself,
 * and its folder (`…/gsi/`) for the frames, styles and requests the script makes.
 */
function googleSources(config: Config): { script: string[]; other: string[] } {
  if (!config.GOOGLE_CLIENT_ID) return { script: [], other: [] };
  const script = new URL(config.GOOGLE_SCRIPT_URL);
  return { script: [script.href], other: [new URL('.', script).href] };
}

export function securityHeaderOptions(config: Config): HelmetOptions {
  const google = googleSources(config);
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", ...google.script],
        // Mantine writes its CSS variables into a <style> element and style attributes.
        'style-src': ["'self'", "'unsafe-inline'", ...google.other],
        // Thumbnails of Vimeo and YouTube videos.
        'img-src': ["'self'", 'data:', 'blob:', 'https://i.vimeocdn.com', 'https://i.ytimg.com'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'", ...google.other],
        // The players of lecture videos (and Google's sign-in frames when it is configured).
        'frame-src': [
          new URL(config.VIMEO_PLAYER_URL).origin,
          new URL(config.YOUTUBE_EMBED_URL).origin,
          ...google.other,
        ],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    // Google's sign-in pop-up hands the token back to this window, which `same-origin` would forbid.
    crossOriginOpenerPolicy: {
      policy: config.GOOGLE_CLIENT_ID ? 'same-origin-allow-popups' : 'same-origin',
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    hsts: config.publicUrl.startsWith('https://') ? { maxAge: 15_552_000 } : false,
  };
}

/** The headers helmet writes for `options`, in its order: its own middleware, run once. */
export function helmetHeaders(options: HelmetOptions): [string, string][] {
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  helmet(options)(request, response, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error(String(error));
  });
  return Object.entries(response.getHeaders()).map(([name, value]) => [name, String(value)]);
}

/**
 * The API's answers (JSON, exports, downloads): under /api/, but not its reference pages (/api/docs);
 * and Prometheus's `/metrics`, which is never a page either.
 */
export function isApiAnswer(url: string): boolean {
  return (
    (url.startsWith('/api/') && !url.startsWith('/api/docs')) ||
    url === '/metrics' ||
    url.startsWith('/metrics?')
  );
}

/**
 * The headers that guard an API answer: one that is never a page of the app. A browser obeys the rest
 * of helmet's set (the app's policy of what a page may load, COOP, Origin-Agent-Cluster, referrer and
 * DNS-prefetch policies, the old IE and Flash switches) only in a document, so here they were ~700
 * bytes of every answer for nothing, and their handling ~10 % of a 20-row page's cost (bench:api,
 * docs/performance.md). What stays:
 * - a policy that allows nothing and no framing, should an answer ever be opened as a document (a
 *   download replaces it with its own sandboxing policy);
 * - X-Frame-Options, for a download, whose own policy says nothing of framing;
 * - nosniff, Cross-Origin-Resource-Policy and HSTS, which guard every response.
 */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";
const KEPT_FOR_API = new Set([
  'cross-origin-resource-policy',
  'x-content-type-options',
  'x-frame-options',
  'strict-transport-security',
]);

export function apiHeaders(documentHeaders: [string, string][]): [string, string][] {
  return [
    ['content-security-policy', API_CONTENT_SECURITY_POLICY],
    ...documentHeaders.filter(([name]) => KEPT_FOR_API.has(name)),
  ];
}

/** Puts the security headers and the request id on a response, by what the request asks for. */
export type SecurityHeaderSetter = (
  request: { url: string; id: string },
  reply: { raw: { setHeader(name: string, value: string): unknown } },
) => void;

export function securityHeaderSetter(config: Config): SecurityHeaderSetter {
  const forDocuments = helmetHeaders(securityHeaderOptions(config));
  const forApi = apiHeaders(forDocuments);
  return (request, reply) => {
    const headers = isApiAnswer(request.url) ? forApi : forDocuments;
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    reply.raw.setHeader('x-request-id', request.id);
  };
}

/**
 * Every response carries its headers and its request id, set when the request arrives (so refusals and
 * errors carry them too); a route may still replace one (downloads send their own sandboxing CSP). What
 * the router refuses before any hook runs (an address too long or not valid) gets them from app.ts's
 * `frameworkErrors`, through the same setter.
 */
export function registerSecurityHeaders(app: FastifyInstance, setHeaders: SecurityHeaderSetter): void {
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request, reply);
    done();
  });
}

/**
 * Lets the LMS sites registered for LTI (docs/lti.md, "Embedding") show a page of the app in their
 * frame and receive its deep-linking form: their origins join `frame-ancestors` and `form-action` of the
 * document's policy, and X-Frame-Options (which cannot name them) goes.
 */
export function allowFraming(
  reply: {
    raw: {
      getHeader(name: string): unknown;
      setHeader(name: string, value: string): unknown;
      removeHeader(name: string): unknown;
    };
  },
  origins: string[],
): void {
  if (origins.length === 0) return;
  const policy = reply.raw.getHeader('content-security-policy');
  if (typeof policy !== 'string') return;
  const listed = origins.join(' ');
  reply.raw.setHeader(
    'content-security-policy',
    policy
      .replace("frame-ancestors 'none'", `frame-ancestors ${listed}`)
      .replace("form-action 'self'", `form-action 'self' ${listed}`),
  );
  reply.raw.removeHeader('x-frame-options');
}
