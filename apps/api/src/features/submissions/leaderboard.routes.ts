import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ErrorBody,
  Leaderboard,
  LeaderboardParams,
  LeaderboardProfile,
  LeaderboardProfileUpdate,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import * as leaderboard from './leaderboard.service.ts';
import { errors } from './route-errors.ts';

export function registerLeaderboardRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['leaderboard'];

  api.get(
    '/Leaderboard/:assignment_id/:course_id',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Students ranked by their best score (students see nicknames; managers real names)',
        params: LeaderboardParams,
        response: { 200: Leaderboard, ...errors },
      },
    },
    async (request) =>
      leaderboard.getLeaderboard(
        ctx,
        actorOf(request),
        request.params.assignment_id,
        request.params.course_id,
      ),
  );

  api.get(
    '/LeaderboardProfile/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'The caller’s leaderboard nickname and opt-out',
        response: { 200: LeaderboardProfile, ...errors },
      },
    },
    async (request) => leaderboard.getProfile(ctx, actorOf(request)),
  );

  api.put(
    '/LeaderboardProfile/',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Change the caller’s nickname (unique, case-insensitively; 409 when taken) or opt out',
        body: LeaderboardProfileUpdate,
        response: { 200: LeaderboardProfile, 409: ErrorBody, ...errors },
      },
    },
    async (request) => leaderboard.updateProfile(ctx, actorOf(request), request.body),
  );
}
