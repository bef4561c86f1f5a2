import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/context.ts';
import { HttpError, forbidden, notFound } from '../../lib/errors.ts';
import { listEditableCourseIds } from '../courses/courses.service.ts';
import * as repo from './assignments.repo.ts';

/**
 * Who may do what with an assignment (docs/assignments.md, "Access"):
 * - staff, and editors of at least one of its courses, manage it and see every course of it;
 * - a student of one of its courses sees it, in that course, once the course's `opens_at` has passed,
 *   and sees only such courses of it;
 * - everyone else is answered 404.
 */
export interface AssignmentAccess {
  assignment: repo.AssignmentRow;
  canManage: boolean;
  /** The courses of the assignment the caller sees. */
  links: repo.LinkView[];
}

export function resolveAccess(
  actor: Pick<Actor, 'isStaff'>,
  assignment: repo.AssignmentRow,
  links: repo.LinkView[],
  now: Date = new Date(),
): AssignmentAccess | null {
  if (actor.isStaff || links.some((l) => l.isEditor)) return { assignment, canManage: true, links };
  const opened = links.filter((l) => l.isStudent && l.opensAt.getTime() <= now.getTime());
  return opened.length > 0 ? { assignment, canManage: false, links: opened } : null;
}

/** The assignment as the caller may see it; 404 when it does not exist or is not theirs to see. */
export async function getAssignmentAccess(db: Executor, actor: Actor, id: number): Promise<AssignmentAccess> {
  const assignment = await repo.findAssignment(db, id);
  if (!assignment) throw notFound();
  const access = resolveAccess(actor, assignment, await repo.listLinks(db, [id], actor.userId));
  if (!access) throw notFound();
  return access;
}

/**
 * The assignment in one of its courses (`course_id` of a path or query). 404 unless that course is one
 * of the assignment's courses the caller sees.
 */
export async function getAssignmentInCourse(
  db: Executor,
  actor: Actor,
  id: number,
  courseId: number,
): Promise<{ access: AssignmentAccess; link: repo.LinkView }> {
  const access = await getAssignmentAccess(db, actor, id);
  const link = access.links.find((l) => l.courseId === courseId);
  if (!link) throw notFound();
  return { access, link };
}

/** Students who can see the assignment learn they may not change it (403); others never got this far. */
export function requireManager(access: AssignmentAccess): void {
  if (!access.canManage) throw forbidden('Only editors of its courses and staff can change this assignment.');
}

/**
 * Every course given must be one the caller edits (staff edit all). Unknown courses are answered the
 * same way, so the answer says nothing about courses the caller cannot see.
 */
export async function assertEditsCourses(db: Executor, actor: Actor, courseIds: number[]): Promise<void> {
  const unique = [...new Set(courseIds)];
  const allowed = new Set(await listEditableCourseIds(db, actor, unique));
  const refused = unique.filter((id) => !allowed.has(id));
  if (refused.length === 0) return;
  const message = `You cannot give assignments to course ${refused.join(', ')}: it does not exist or you are not its editor.`;
  throw new HttpError(actor.isStaff ? 400 : 403, actor.isStaff ? 'invalid' : 'permission_denied', message, {
    courses: [message],
  });
}

/* ─── Dates of an assignment in a course ─────────────────────────────────────────────────────── */

type Dates = Pick<repo.LinkView, 'opensAt' | 'dueAt' | 'lateUntil'>;

/** The last moment a submission is accepted: the late cut-off, else the due date. */
export const closesAt = (d: Dates): Date => d.lateUntil ?? d.dueAt;

export const acceptsSubmissions = (d: Dates, now: Date = new Date()): boolean =>
  d.opensAt.getTime() <= now.getTime() && now.getTime() <= closesAt(d).getTime();

export const isLatePeriod = (d: Dates, now: Date = new Date()): boolean =>
  d.lateUntil !== null && d.dueAt.getTime() < now.getTime() && now.getTime() <= d.lateUntil.getTime();

/** Submissions are no longer accepted (past the late cut-off, else the due date): after_due tests show. */
export const isClosed = (d: Dates, now: Date = new Date()): boolean => closesAt(d).getTime() < now.getTime();
