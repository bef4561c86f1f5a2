import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../lib/context.ts';
import type { SandboxProbe } from '../../lib/sandbox-probe.ts';
import { probeOf } from './console.service.ts';
import { renderPygradePage } from './page.ts';

/** The console's script, served from our origin (the CSP allows `script-src 'self'` only). */
const CONSOLE_SCRIPT = readFileSync(new URL('./console.client.js', import.meta.url), 'utf8');

/**
 * /pygrade/ is a separate page outside the single-page app (the header's PyGrade tab leaves the app):
 * the sandbox status for everyone, and the console for signed-in editors and staff (docs/submissions.md).
 */
export function registerPygradeRoutes(app: FastifyInstance, ctx: AppContext, sandbox?: SandboxProbe): void {
  const probe = probeOf(sandbox);
  // A page and its script, not calls of the API: left out of the API reference (/api/docs).
  const page = { schema: { hide: true } };

  app.get('/pygrade/', page, async (request, reply) => {
    const html = renderPygradePage({
      language: /^en/i.test(request.headers['accept-language'] ?? 'ja') ? 'en' : 'ja',
      productName: ctx.config.PRODUCT_NAME,
      sandbox: await probe(),
    });
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  });

  app.get('/pygrade/console.js', page, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(CONSOLE_SCRIPT),
  );
}
