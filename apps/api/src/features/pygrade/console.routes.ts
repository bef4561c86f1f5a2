import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, PygradeStatus, SnippetRunRequest, SnippetRunResult } from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import type { SandboxProbe } from '../../lib/sandbox-probe.ts';
import * as consoleService from './console.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody } as const;

/**
 * The API of the PyGrade console (`/api/Pygrade/…`). The page is the web app's `/pygrade/` route
 * (apps/web/src/features/pygrade), served as index.html like every other route of the app.
 */
export function registerPygradeApiRoutes(app: FastifyInstance, ctx: AppContext, probe?: SandboxProbe): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['pygrade'];
  const sandbox = consoleService.probeOf(probe);
  const limiter = new consoleService.SnippetLimiter();

  api.get(
    '/Pygrade/status/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Grading queue, running and recent jobs, grader hosts and the sandbox (editors and staff)',
        response: { 200: PygradeStatus, ...errors },
      },
    },
    async (request) => consoleService.getStatus(ctx, actorOf(request), sandbox),
  );

  api.post(
    '/Pygrade/run/',
    {
      config: { access: 'user', longRunning: true },
      schema: {
        tags,
        summary: 'Run a Python snippet in the sandbox with the default limits (editors and staff)',
        description:
          `At most ${consoleService.SNIPPET_RATE.max} runs a minute per user and ` +
          `${consoleService.SNIPPET_CONCURRENCY} at once (429). Without a sandbox: 503, and nothing runs.`,
        body: SnippetRunRequest,
        response: { 200: SnippetRunResult, 429: ErrorBody, 503: ErrorBody, ...errors },
      },
    },
    async (request) => consoleService.runSnippet(ctx, actorOf(request), request.body, { sandbox, limiter }),
  );
}
