import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CourseIdParams,
  ErrorBody,
  IdParams,
  LtiContext,
  LtiContextLink,
  LtiCourseLinks,
  LtiDeepLinkChoice,
  LtiDeepLinkInfo,
  LtiDeepLinkParams,
  LtiDeepLinkResponse,
  LtiNext,
  LtiResendResult,
  LtiRosterSyncRequest,
  LtiRosterSyncResult,
} from '@kadai/contracts';
import { actorOf } from '../../lib/access.ts';
import type { AppContext } from '../../lib/context.ts';
import { getLtiContext, linkLtiContext } from './context.service.ts';
import { listCourseLinks, resendLineItem, syncCourseRoster } from './course-links.service.ts';
import { answerDeepLink, getDeepLink } from './deep-link.service.ts';

const tags = ['lti'];
const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  502: ErrorBody,
};

/** What signed-in people do about LMS links: instructors link courses and pick content; editors see grades sent. */
export function registerLtiAppRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const user = { access: 'user' as const };

  api.get(
    '/Lti/Context/:id/',
    {
      config: user,
      schema: {
        tags,
        summary: 'An LMS course its instructor launched from',
        params: IdParams,
        response: { 200: LtiContext, ...errors },
      },
    },
    async (request) => getLtiContext(ctx, actorOf(request), request.params.id),
  );
  api.post(
    '/Lti/Context/:id/',
    {
      config: user,
      schema: {
        tags,
        summary: 'Link the LMS course to one of my courses, or to a new one',
        params: IdParams,
        body: LtiContextLink,
        response: { 200: LtiNext, ...errors },
      },
    },
    async (request) => linkLtiContext(ctx, actorOf(request), request.params.id, request.body),
  );
  api.get(
    '/Lti/DeepLink/:id/',
    {
      config: user,
      schema: {
        tags,
        summary: 'What the instructor can add to the LMS course',
        params: LtiDeepLinkParams,
        response: { 200: LtiDeepLinkInfo, ...errors },
      },
    },
    async (request) => getDeepLink(ctx, actorOf(request), request.params.id),
  );
  api.post(
    '/Lti/DeepLink/:id/',
    {
      config: user,
      schema: {
        tags,
        summary: 'The chosen items, signed for the LMS (the page posts them to return_url)',
        params: LtiDeepLinkParams,
        body: LtiDeepLinkChoice,
        response: { 200: LtiDeepLinkResponse, ...errors },
      },
    },
    async (request) => answerDeepLink(ctx, actorOf(request), request.params.id, request.body),
  );
  api.get(
    '/Lti/Course/:course_id/',
    {
      config: user,
      schema: {
        tags,
        summary: 'The LMS courses linked to this course, with the grades sent',
        params: CourseIdParams,
        response: { 200: LtiCourseLinks, ...errors },
      },
    },
    async (request) => listCourseLinks(ctx, actorOf(request), request.params.course_id),
  );
  api.post(
    '/Lti/Course/:course_id/roster-sync/',
    {
      config: user,
      schema: {
        tags,
        summary: "Add and remove members from the LMS course's roster (NRPS)",
        params: CourseIdParams,
        body: LtiRosterSyncRequest,
        response: { 200: LtiRosterSyncResult, ...errors },
      },
    },
    async (request) =>
      syncCourseRoster(ctx, actorOf(request), request.params.course_id, request.body.context_id),
  );
  api.post(
    '/Lti/LineItem/:id/resend/',
    {
      config: user,
      schema: {
        tags,
        summary: "Send every student's score of this LMS column again",
        params: IdParams,
        response: { 200: LtiResendResult, ...errors },
      },
    },
    async (request) => resendLineItem(ctx, actorOf(request), request.params.id),
  );
}
