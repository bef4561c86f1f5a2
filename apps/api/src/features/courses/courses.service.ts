import type {
  CourseCreate,
  CourseListQuery,
  CourseReplace,
  CourseRole,
  CourseUpdate,
} from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import * as repo from './courses.repo.ts';

/** For the demo seed (apps/api/src/demo), which makes its courses in its own transaction. */
export { findCourseByTitle, insertCourse, type CourseRow } from './courses.repo.ts';

/** A course as one caller sees it: their role and the member counts. */
export interface CourseForActor extends Omit<repo.CourseRow, 'timeZone'> {
  /** The course's own zone, or `DEFAULT_TIME_ZONE` when it names none. */
  timeZone: string;
  myRole: CourseRole;
  editorCount: number;
  studentCount: number;
}

/**
 * Staff stand above every course; otherwise editing outranks studying (someone on both lists is an
 * editor); no relation at all is null.
 */
export function roleOf(
  actor: Pick<Actor, 'isStaff'>,
  relation: { isEditor: boolean; isStudent: boolean },
): CourseRole | null {
  if (actor.isStaff) return 'staff';
  if (relation.isEditor) return 'editor';
  if (relation.isStudent) return 'student';
  return null;
}

/** The zone a course's days end in: its own, else the server's default (read now, so a new default applies). */
const zoneOf = (ctx: Pick<AppContext, 'config'>, row: Pick<repo.CourseRow, 'timeZone'>): string =>
  row.timeZone ?? ctx.config.DEFAULT_TIME_ZONE;

function forActor(
  ctx: Pick<AppContext, 'config'>,
  actor: Actor,
  view: repo.CourseView,
): CourseForActor | null {
  const myRole = roleOf(actor, view);
  if (!myRole) return null;
  // Field by field rather than a rest and a spread: this runs for every row of every course list.
  return {
    id: view.id,
    title: view.title,
    description: view.description,
    hasVideos: view.hasVideos,
    hasAssessment: view.hasAssessment,
    timeZone: zoneOf(ctx, view),
    createdAt: view.createdAt,
    updatedAt: view.updatedAt,
    myRole,
    editorCount: view.editorCount,
    studentCount: view.studentCount,
  };
}

/** Editors of the course and staff manage what it holds; students take part in it. */
export const canManageCourse = (role: CourseRole): boolean => role === 'editor' || role === 'staff';

/**
 * Of these course ids, those the caller may give content to (assignments, quizzes): every existing one for
 * staff, otherwise those the caller edits. Unknown ids are simply left out.
 */
export async function listEditableCourseIds(
  db: Executor,
  actor: Actor,
  courseIds: number[],
): Promise<number[]> {
  return actor.isStaff
    ? repo.listExistingCourseIds(db, courseIds)
    : repo.listEditedCourseIds(db, actor.userId, courseIds);
}

/** The caller's role in a course; 404 when the course does not exist or the caller has no part in it. */
export async function getCourseRole(db: Executor, actor: Actor, courseId: number): Promise<CourseRole> {
  const relation = await repo.findCourseRelation(db, courseId, actor.userId);
  const role = relation && roleOf(actor, relation);
  if (!role) throw notFound();
  return role;
}

export async function listCourses(
  ctx: AppContext,
  actor: Actor,
  query: CourseListQuery,
): Promise<{ count: number; rows: CourseForActor[] }> {
  const { count, rows } = await repo.listCoursesForViewer(ctx.db, actor, {
    limit: query.limit,
    offset: query.offset,
    ordering: query.ordering,
    search: query.search || undefined,
  });
  return { count, rows: rows.flatMap((row) => forActor(ctx, actor, row) ?? []) };
}

async function getCourseView(
  ctx: Pick<AppContext, 'config'>,
  db: Executor,
  actor: Actor,
  courseId: number,
): Promise<CourseForActor> {
  const view = await repo.findCourseView(db, courseId, actor.userId);
  const course = view && forActor(ctx, actor, view);
  if (!course) throw notFound();
  return course;
}

export function getCourse(ctx: AppContext, actor: Actor, courseId: number): Promise<CourseForActor> {
  return getCourseView(ctx, ctx.db, actor, courseId);
}

export async function createCourse(
  ctx: AppContext,
  actor: Actor,
  input: CourseCreate,
): Promise<CourseForActor> {
  if (!actor.isStaff) throw forbidden();
  const row = await repo.insertCourse(ctx.db, {
    title: input.title,
    description: input.description,
    hasVideos: input.has_videos,
    hasAssessment: input.has_assessment,
    timeZone: input.time_zone ?? null,
  });
  return { ...row, timeZone: zoneOf(ctx, row), myRole: 'staff', editorCount: 0, studentCount: 0 };
}

/** PUT and PATCH: editors of the course and staff; a student of it gets 403, anyone else 404. */
export async function updateCourse(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  input: CourseUpdate | CourseReplace,
): Promise<CourseForActor> {
  return ctx.db.transaction(async (tx) => {
    const course = await getCourseView(ctx, tx, actor, courseId);
    if (course.myRole === 'student') throw forbidden();
    const fields = {
      title: input.title,
      description: input.description,
      hasVideos: input.has_videos,
      hasAssessment: input.has_assessment,
      // Left out: unchanged (also by PUT); null: back to the server's default.
      timeZone: input.time_zone,
    };
    if (Object.values(fields).every((v) => v === undefined)) return course;
    const updated = await repo.updateCourse(tx, courseId, fields);
    if (!updated) throw notFound();
    return { ...course, ...updated, timeZone: zoneOf(ctx, updated) };
  });
}

/** Only staff delete a course; its members can see it exists, so they get 403 rather than 404. */
export async function deleteCourse(ctx: AppContext, actor: Actor, courseId: number): Promise<void> {
  const role = await getCourseRole(ctx.db, actor, courseId);
  if (role !== 'staff') throw forbidden();
  if (!(await repo.deleteCourse(ctx.db, courseId))) throw notFound();
}

/**
 * A course made for an LMS course at its instructor's first launch (features/lti): the platform's
 * registration by staff stands for staff's consent, so no staff caller is needed. Returns its id.
 */
export async function createCourseForLms(db: Executor, title: string): Promise<number> {
  const row = await repo.insertCourse(db, { title, description: '', hasVideos: false, hasAssessment: true });
  return row.id;
}

/** The course's title, or null when it is gone. */
export async function findCourseTitle(db: Executor, courseId: number): Promise<string | null> {
  return (await repo.findCourseView(db, courseId, 0))?.title ?? null;
}
