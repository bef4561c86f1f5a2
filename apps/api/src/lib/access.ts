import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext, Actor } from './context.ts';
import { forbidden, notAuthenticated } from './errors.ts';
import { verifyAccessToken } from '../features/auth/tokens.ts';
import { findSessionActor } from '../features/auth/sessions.service.ts';

/**
 * Who may call a route, declared on every /api route (`config: { access: 'user' }`); a route without it
 * stops start-up. Finer rules (editor of this course, owner of this object) live in the services.
 * - `public`: anyone; a valid token still identifies the caller.
 * - `user`: every signed-in, active user.
 * - `staff`: signed-in staff only.
 */
export type Access = 'public' | 'user' | 'staff';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    actor: Readonly<Actor> | null;
  }
}

/** Paths under /api served by plugins rather than our routes (the OpenAPI reference). */
const UNDECLARED_PREFIXES = ['/api/docs'];

export function registerAccessControl(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('actor', null);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api') || UNDECLARED_PREFIXES.some((p) => route.url.startsWith(p))) return;
    const access = route.config?.access;
    if (!access) throw new Error(`Route ${String(route.method)} ${route.url} does not declare its access.`);
  });

  // onRequest runs before the body is read: a caller who may not call the route costs us nothing more.
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access) return;
    if (access === 'public') {
      // A stale token must not block the calls that replace it (sign-in, refresh, reset confirm).
      request.actor = await authenticate(ctx, request).catch(() => null);
      return;
    }
    request.actor = await authenticate(ctx, request);
    if (!request.actor) throw notAuthenticated();
    if (access === 'staff' && !request.actor.isStaff) throw forbidden();
  });
}

async function authenticate(ctx: AppContext, request: FastifyRequest): Promise<Actor | null> {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match)
    throw notAuthenticated('Authorization header must be "Bearer <token>".', 'bad_authorization_header');
  const claims = await verifyAccessToken(ctx.config.JWT_SECRET, ctx.config.ACCESS_TOKEN_LIFETIME, match[1]!);
  if (!claims) throw notAuthenticated('Given token not valid for any token type', 'token_not_valid');
  // The session is checked on every request (what makes logout and password change take effect at
  // once): remembered by this process until it changes (lib/session-cache.ts), else read.
  const known = ctx.sessions.get(claims.sessionId, claims.userId);
  if (known) return known;
  const since = ctx.sessions.begin();
  const row = await findSessionActor(ctx.db, claims.userId, claims.sessionId);
  if (!row) throw notAuthenticated('Session has ended. Sign in again.', 'token_not_valid');
  const actor = { userId: row.userId, email: row.email, isStaff: row.isStaff, sessionId: claims.sessionId };
  ctx.sessions.put(actor, since);
  return actor;
}

/** The caller of a route declared `user` or `staff`: never null there. */
export function actorOf(request: FastifyRequest): Readonly<Actor> {
  if (!request.actor) throw notAuthenticated();
  return request.actor;
}

/** The device a sign-in opens a session for (its address and browser), as every way in records it. */
export function clientOf(request: FastifyRequest): { ip: string; userAgent: string | null } {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}
