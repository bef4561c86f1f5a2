import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../lib/context.ts';
import { registerEvaluationRoutes } from './evaluations.routes.ts';
import { registerFinalRoutes } from './final.routes.ts';
import { registerLeaderboardRoutes } from './leaderboard.routes.ts';
import { registerSubmissionListRoutes } from './lists.routes.ts';
import { registerPrecheckRoutes } from './precheck.routes.ts';
import { registerSubmitRoutes } from './submit.routes.ts';

/** Every route of submissions, evaluations, scores, final selection, CSV and leaderboards (docs/submissions.md). */
export function registerSubmissionRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerSubmitRoutes(app, ctx);
  registerPrecheckRoutes(app, ctx);
  registerSubmissionListRoutes(app, ctx);
  registerEvaluationRoutes(app, ctx);
  registerFinalRoutes(app, ctx);
  registerLeaderboardRoutes(app, ctx);
}
