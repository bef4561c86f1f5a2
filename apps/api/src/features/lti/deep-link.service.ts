import type { LtiDeepLinkChoice, LtiDeepLinkInfo, LtiDeepLinkResponse } from '@kadai/contracts';
import { z } from 'zod';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { listCourseWork } from '../assessment/gradebook.service.ts';
import { findCourseTitle } from '../courses/courses.service.ts';
import { DL, LTI } from './claims.ts';
import { itemRef } from './items.ts';
import { signAsTool } from './keys.ts';
import { findContext, findDeepLink, takeDeepLink } from './launch.repo.ts';
import { findPlatformRow } from './platforms.repo.ts';
import { toolUrls } from './platforms.service.ts';

/*
 * Deep linking (Deep Linking 2.0 §4.5): the instructor picks assignments and quizzes of the linked course
 * in Kadai's picker, and Kadai answers the platform with a signed LtiDeepLinkingResponse of
 * ltiResourceLink items, each with a line item (its maximum, label, resourceId `assignment:12` by which
 * Kadai finds it again) and the due date, and a custom `kadai_item` the launch opens directly.
 */

const Settings = z.object({
  deep_link_return_url: z.string(),
  accept_multiple: z.boolean().optional(),
  accept_types: z.array(z.string()).optional(),
  data: z.string().optional(),
});

async function requestFor(ctx: AppContext, actor: Actor, id: string) {
  const request = await findDeepLink(ctx.db, id);
  if (!request || request.userId !== actor.userId) throw notFound();
  const context = request.contextRowId ? await findContext(ctx.db, request.contextRowId) : null;
  const platform = await findPlatformRow(ctx.db, request.platformId);
  if (!platform) throw notFound();
  return { request, context, platform, settings: Settings.parse(request.settings) };
}

async function pickable(ctx: AppContext, courseId: number) {
  const work = await listCourseWork(ctx.db, courseId);
  return [
    ...work.assignments.map((c) => ({ kind: 'assignment' as const, ...c })),
    ...work.quizzes.map((c) => ({ kind: 'quiz' as const, ...c })),
  ].map((c) => ({
    kind: c.kind,
    id: c.id,
    title: c.title,
    due_at: Number.isFinite(c.dueAt) ? new Date(c.dueAt).toISOString() : null,
    max_score: c.maxScore,
  }));
}

export async function getDeepLink(ctx: AppContext, actor: Actor, id: string): Promise<LtiDeepLinkInfo> {
  const { context, platform, settings } = await requestFor(ctx, actor, id);
  const courseId = context?.courseId ?? null;
  const title = courseId ? await findCourseTitle(ctx.db, courseId) : null;
  return {
    platform: platform.name,
    course: courseId && title !== null ? { id: courseId, title } : null,
    context_id: context?.id ?? null,
    accept_multiple: settings.accept_multiple ?? true,
    items: courseId ? await pickable(ctx, courseId) : [],
  };
}

export async function answerDeepLink(
  ctx: AppContext,
  actor: Actor,
  id: string,
  choice: LtiDeepLinkChoice,
): Promise<LtiDeepLinkResponse> {
  const { context, platform, settings } = await requestFor(ctx, actor, id);
  if (!context?.courseId)
    throw badRequest('Link the LMS course to a Kadai course first.', undefined, 'context_not_linked');
  if (settings.accept_types && !settings.accept_types.includes('ltiResourceLink')) {
    throw badRequest('The LMS does not accept links to activities here.', undefined, 'deep_link_refused');
  }
  if (settings.accept_multiple === false && choice.items.length > 1) {
    throw badRequest('The LMS accepts one item here.', { items: ['Choose one item.'] });
  }
  const available = await pickable(ctx, context.courseId);
  const items = choice.items.map((wanted) => {
    const found = available.find((a) => a.kind === wanted.kind && a.id === wanted.id);
    if (!found)
      throw badRequest('An item is not in this course.', {
        items: [`${wanted.kind} ${wanted.id} is not in this course.`],
      });
    return found;
  });
  const request = await takeDeepLink(ctx.db, id, actor.userId);
  if (!request) throw notFound();
  const launchUrl = toolUrls(ctx).launch_url;
  const contentItems = items.map((item) => ({
    type: 'ltiResourceLink',
    title: item.title,
    url: launchUrl,
    custom: { kadai_item: itemRef(item) },
    lineItem: {
      scoreMaximum: item.max_score && item.max_score > 0 ? item.max_score : 1,
      label: item.title,
      resourceId: itemRef(item),
      tag: 'kadai',
    },
    ...(item.due_at ? { submission: { endDateTime: item.due_at } } : {}),
  }));
  const jwt = await signAsTool(
    ctx,
    {
      iss: platform.clientId,
      aud: platform.issuer,
      nonce: id,
      [`${LTI}message_type`]: 'LtiDeepLinkingResponse',
      [`${LTI}version`]: '1.3.0',
      [`${LTI}deployment_id`]: request.deploymentId,
      [`${DL}content_items`]: contentItems,
      ...(settings.data !== undefined ? { [`${DL}data`]: settings.data } : {}),
    },
    600,
  );
  return { return_url: settings.deep_link_return_url, jwt };
}
