import type {
  Feedback,
  FeedbackCreate,
  FeedbackList,
  ParticipantQuery,
  Workshop,
  WorkshopCreate,
  WorkshopList,
  WorkshopUpdate,
} from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { getCourseRole } from '../courses/courses.service.ts';
import { canManageCourse } from '../courses/courses.service.ts';
import * as repo from './participation.repo.ts';

/*
 * Feedback editors write to a student, and workshops on a skill with who is invited and who attended.
 * Editors of the course and staff read and write all of them; a student reads only their own feedback
 * and the workshops they take part in (asking for another student's: 404), and writes nothing (403).
 */

/** The filter a caller may list with: managers one student of their choice (or all), a student only themself. */
async function listScope(db: Executor, actor: Actor, query: ParticipantQuery): Promise<number | undefined> {
  const role = await getCourseRole(db, actor, query.course);
  if (canManageCourse(role)) return query.user;
  if (query.user !== undefined && query.user !== actor.userId) throw notFound();
  return actor.userId;
}

async function requireManager(db: Executor, actor: Actor, courseId: number, own: boolean): Promise<void> {
  if (canManageCourse(await getCourseRole(db, actor, courseId))) return;
  // A student learns nothing of others' items: 403 only on their own.
  throw own ? forbidden('Only editors of the course and staff can change this.') : notFound();
}

async function checkRefs(db: Executor, courseId: number, refs: { users?: number[]; skill?: number | null }) {
  const fields: Record<string, string[]> = {};
  if (refs.users && refs.users.length > 0) {
    const students = await repo.studentsAmong(db, courseId, refs.users);
    const strangers = refs.users.filter((u) => !students.has(u));
    if (strangers.length > 0) fields.user = [`Not students of this course: ${strangers.join(', ')}.`];
  }
  if (refs.skill != null && !(await repo.skillInCourse(db, courseId, refs.skill))) {
    fields.skill = ['Not a skill of this course.'];
  }
  if (Object.keys(fields).length > 0) throw badRequest('Check the students and the skill.', fields);
}

const iso = (d: Date) => d.toISOString();

function toFeedback(row: repo.FeedbackRow): Feedback {
  return {
    id: row.id,
    course: row.courseId,
    user: row.userId,
    skill: row.skillName,
    author: row.author,
    body: row.body,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export async function listFeedback(
  ctx: AppContext,
  actor: Actor,
  query: ParticipantQuery,
): Promise<FeedbackList> {
  const userId = await listScope(ctx.db, actor, query);
  const { count, rows } = await repo.listFeedback(ctx.db, { courseId: query.course, userId }, query);
  return { count, limit: query.limit, offset: query.offset, results: rows.map(toFeedback) };
}

export async function createFeedback(
  ctx: AppContext,
  actor: Actor,
  input: FeedbackCreate,
): Promise<Feedback> {
  await requireManager(ctx.db, actor, input.course, input.user === actor.userId);
  await checkRefs(ctx.db, input.course, { users: [input.user], skill: input.skill });
  const id = await repo.insertFeedback(ctx.db, {
    courseId: input.course,
    userId: input.user,
    skillId: input.skill,
    authorId: actor.userId,
    body: input.body,
  });
  return toFeedback((await repo.findFeedback(ctx.db, id))!);
}

async function managedFeedback(db: Executor, actor: Actor, id: number): Promise<repo.FeedbackRow> {
  const row = await repo.findFeedback(db, id);
  if (!row) throw notFound();
  await requireManager(db, actor, row.courseId, row.userId === actor.userId);
  return row;
}

export async function updateFeedback(
  ctx: AppContext,
  actor: Actor,
  id: number,
  body: string,
): Promise<Feedback> {
  await managedFeedback(ctx.db, actor, id);
  await repo.updateFeedback(ctx.db, id, body);
  return toFeedback((await repo.findFeedback(ctx.db, id))!);
}

export async function deleteFeedback(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await managedFeedback(ctx.db, actor, id);
  await repo.deleteFeedback(ctx.db, id);
}

async function toWorkshops(db: Executor, rows: repo.WorkshopRow[], onlyUserId?: number): Promise<Workshop[]> {
  const participants = await repo.participantsOf(
    db,
    rows.map((r) => r.id),
    onlyUserId,
  );
  return rows.map((row) => ({
    id: row.id,
    course: row.courseId,
    skill: row.skillName,
    skill_id: row.skillId,
    title: row.title,
    description: row.description,
    location: row.location,
    starts_at: iso(row.startsAt),
    ends_at: iso(row.endsAt),
    participants: participants
      .filter((p) => p.workshopId === row.id)
      .map((p) => ({ user: p.user, status: p.status })),
  }));
}

export async function listWorkshops(
  ctx: AppContext,
  actor: Actor,
  query: ParticipantQuery,
): Promise<WorkshopList> {
  const role = await getCourseRole(ctx.db, actor, query.course);
  const participantId = await listScope(ctx.db, actor, query);
  const { count, rows } = await repo.listWorkshops(ctx.db, { courseId: query.course, participantId }, query);
  const results = await toWorkshops(ctx.db, rows, canManageCourse(role) ? undefined : actor.userId);
  return { count, limit: query.limit, offset: query.offset, results };
}

function uniqueParticipants(list: WorkshopCreate['participants']) {
  const seen = new Map<number, WorkshopCreate['participants'][number]>();
  for (const p of list) seen.set(p.user, p);
  return [...seen.values()];
}

export async function createWorkshop(
  ctx: AppContext,
  actor: Actor,
  input: WorkshopCreate,
): Promise<Workshop> {
  await requireManager(ctx.db, actor, input.course, true);
  const participants = uniqueParticipants(input.participants);
  await checkRefs(ctx.db, input.course, { users: participants.map((p) => p.user), skill: input.skill });
  const id = await ctx.db.transaction(async (tx) => {
    const created = await repo.insertWorkshop(tx, {
      courseId: input.course,
      skillId: input.skill,
      title: input.title,
      description: input.description,
      location: input.location,
      startsAt: new Date(input.starts_at),
      endsAt: new Date(input.ends_at),
      createdBy: actor.userId,
    });
    await repo.replaceParticipants(tx, created, participants);
    return created;
  });
  const [workshop] = await toWorkshops(ctx.db, [(await repo.findWorkshop(ctx.db, id))!]);
  return workshop!;
}

async function managedWorkshop(db: Executor, actor: Actor, id: number): Promise<repo.WorkshopRow> {
  const row = await repo.findWorkshop(db, id);
  if (!row) throw notFound();
  const role = await getCourseRole(db, actor, row.courseId);
  if (canManageCourse(role)) return row;
  const mine = await repo.participantsOf(db, [id], actor.userId);
  throw mine.length > 0 ? forbidden('Only editors of the course and staff can change this.') : notFound();
}

export async function updateWorkshop(
  ctx: AppContext,
  actor: Actor,
  id: number,
  input: WorkshopUpdate,
): Promise<Workshop> {
  const row = await managedWorkshop(ctx.db, actor, id);
  const startsAt = input.starts_at ? new Date(input.starts_at) : row.startsAt;
  const endsAt = input.ends_at ? new Date(input.ends_at) : row.endsAt;
  if (endsAt <= startsAt)
    throw badRequest('A workshop ends after it starts.', { ends_at: ['Before the start.'] });
  const participants = input.participants && uniqueParticipants(input.participants);
  await checkRefs(ctx.db, row.courseId, { users: participants?.map((p) => p.user), skill: input.skill });
  await ctx.db.transaction(async (tx) => {
    await repo.updateWorkshop(tx, id, {
      skillId: input.skill,
      title: input.title,
      description: input.description,
      location: input.location,
      startsAt: input.starts_at ? startsAt : undefined,
      endsAt: input.ends_at ? endsAt : undefined,
    });
    if (participants) await repo.replaceParticipants(tx, id, participants);
  });
  const [workshop] = await toWorkshops(ctx.db, [(await repo.findWorkshop(ctx.db, id))!]);
  return workshop!;
}

export async function deleteWorkshop(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await managedWorkshop(ctx.db, actor, id);
  await repo.deleteWorkshop(ctx.db, id);
}
