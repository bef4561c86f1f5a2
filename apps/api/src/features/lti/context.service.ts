import type { LtiContext, LtiContextLink, LtiNext } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import {
  canManageCourse,
  createCourseForLms,
  findCourseTitle,
  getCourseRole,
} from '../courses/courses.service.ts';
import { insertMembers } from '../courses/members.service.ts';
import { findContext, findContextRole, setContextCourse, type ContextRow } from './launch.repo.ts';
import { findPlatformRow } from './platforms.repo.ts';
import { LTI_DISCOVER_QUEUE } from './grades.service.ts';

/*
 * Linking an LMS course to a Kadai course (docs/lti.md, "Courses"): at the first instructor launch the
 * instructor makes a new course or picks one they edit. Only someone who launched into that LMS course
 * as its instructor (or staff) may; anyone else gets 404, as for every object they cannot see.
 */

async function contextFor(ctx: AppContext, actor: Actor, id: number): Promise<ContextRow> {
  const context = await findContext(ctx.db, id);
  if (!context) throw notFound();
  if (!actor.isStaff && (await findContextRole(ctx.db, id, actor.userId)) !== 'instructor') throw notFound();
  return context;
}

export async function getLtiContext(ctx: AppContext, actor: Actor, id: number): Promise<LtiContext> {
  const context = await contextFor(ctx, actor, id);
  const platform = await findPlatformRow(ctx.db, context.platformId);
  const title = context.courseId ? await findCourseTitle(ctx.db, context.courseId) : null;
  return {
    id: context.id,
    platform: platform?.name ?? '',
    title: context.title,
    label: context.label,
    course: context.courseId && title !== null ? { id: context.courseId, title } : null,
  };
}

/** Links the LMS course (in `tx`): to one of the caller's courses, or to a new one they then edit. */
export async function linkContext(
  ctx: AppContext,
  tx: Executor,
  actor: Actor,
  context: ContextRow,
  input: LtiContextLink,
): Promise<number> {
  let courseId: number;
  if (input.course_id !== undefined) {
    // A course the caller cannot see is 404; one they only take part in is 403.
    const role = await getCourseRole(tx, actor, input.course_id);
    if (!canManageCourse(role)) throw forbidden('Only editors of a course can link it to an LMS course.');
    courseId = input.course_id;
  } else {
    courseId = await createCourseForLms(tx, input.title ?? (context.title || context.label || 'LMS course'));
    await insertMembers(tx, 'editor', courseId, [actor.userId]);
  }
  const linked = await setContextCourse(tx, context.id, courseId);
  if (linked !== courseId) {
    throw conflict('This LMS course was linked to another Kadai course a moment ago.', 'context_linked');
  }
  return courseId;
}

export async function linkLtiContext(
  ctx: AppContext,
  actor: Actor,
  id: number,
  input: LtiContextLink,
): Promise<LtiNext> {
  const context = await contextFor(ctx, actor, id);
  if (context.courseId) throw conflict('This LMS course is linked already.', 'context_linked');
  const courseId = await ctx.db.transaction((tx) => linkContext(ctx, tx, actor, context, input));
  if (context.lineItemsUrl)
    await ctx.jobs.send(LTI_DISCOVER_QUEUE, { contextRowId: context.id }).catch(() => null);
  return { next: `/course/${courseId}` };
}
