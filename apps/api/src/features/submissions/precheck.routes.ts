import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, PrecheckRequest, PrecheckResult } from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import * as prechecking from './precheck.service.ts';
import { conflictErrors } from './route-errors.ts';
import { SUBMIT_BODY_LIMIT_BYTES } from './submit.routes.ts';

export function registerPrecheckRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/Submission/Precheck/',
    {
      config: { access: 'user', longRunning: true },
      bodyLimit: SUBMIT_BODY_LIMIT_BYTES,
      schema: {
        tags: ['submissions'],
        summary: 'Run code against the visible test cases without submitting (nothing is stored)',
        description:
          'The body of Submit (without `upload_files_later`), checked the same way: members of the ' +
          'course, within its dates (403 `not_open` / `closed`), the file rules (400, 413). Runs the ' +
          '`visible` test cases only and answers with their results, per-test items included; hidden and ' +
          `after_due tests are counted in \`not_run\`. At most ${prechecking.PRECHECK_RATE.max} per ` +
          'assignment per minute (429 with Retry-After), and at most ' +
          `${prechecking.PRECHECK_PER_PERSON} in progress at once per person (429 \`precheck_in_progress\`). ` +
          '503 when no sandbox is available here or too ' +
          'many runs wait.',
        body: PrecheckRequest,
        response: { 200: PrecheckResult, 413: ErrorBody, 429: ErrorBody, 503: ErrorBody, ...conflictErrors },
      },
    },
    async (request) => prechecking.precheck(ctx, actorOf(request), request.body),
  );
}
