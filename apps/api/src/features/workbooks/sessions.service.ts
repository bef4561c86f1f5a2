import {
  MAX_LIVE_WORKBOOK_SESSIONS,
  type WorkbookSession,
  type WorkbookSessionList,
  type WorkbookStart,
} from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { getCourseRole } from '../courses/courses.service.ts';
import { readableConfig } from './configs.service.ts';
import { canManageCourse } from '../courses/courses.service.ts';
import type { KernelHost } from './kernel-host.ts';
import { onOwner, pickHost, startOn, stopOnOwner } from './placement.service.ts';
import * as repo from './workbooks.repo.ts';

/*
 * Workbook sessions (docs/workbooks.md, "Sessions"): a user opens one in a course for a configuration;
 * it runs a kernel until it ends (DELETE) or expires (its time, extendable within the maximum). The user
 * runs cells in it (runs.service.ts); editors of the course and staff may see and end their students'
 * sessions. The kernel runs on a kernel host, this process or another (placement.service.ts).
 */

const SESSIONS_LISTED = 50;

export function toSession(row: repo.SessionView): WorkbookSession {
  return {
    workbookId: row.id,
    courseId: row.courseId,
    configId: row.configId,
    userId: row.userId,
    notebookId: row.notebookId,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    ended_at: row.endedAt?.toISOString() ?? null,
    extended_minutes: row.extendedMinutes,
    max_extension_minutes: row.maxExtensionMinutes,
    memory_mb: row.memoryMb,
    cpu_seconds: row.cpuSeconds,
    // Its owner's word, not this process's; any instance may answer.
    kernel_alive: row.status === 'live' && row.kernelHost !== null && row.ownerAlive,
  };
}

const tooManySessions = () =>
  conflict(
    `You have ${MAX_LIVE_WORKBOOK_SESSIONS} workbook sessions open, the most one person may have at once. End one to open another.`,
    'session_limit',
  );

export async function startSession(
  ctx: AppContext,
  host: KernelHost,
  actor: Actor,
  input: WorkbookStart,
): Promise<WorkbookSession> {
  const { config } = await readableConfig(ctx.db, actor, input.config);
  if (config.courseId !== input.course) throw notFound();
  await repo.expireDue(ctx.db);
  const notebook = await repo.notebookFor(ctx.db, actor.userId, config);
  const { session, target } = await ctx.db.transaction(async (tx) => {
    // Held until commit: the person's sessions in every course are counted one start at a time.
    await repo.lockSessionsOf(tx, actor.userId);
    if (await repo.liveSessionOf(tx, actor.userId, config.courseId)) {
      throw conflict(
        'You already have a workbook session open in this course. Resume it or end it first.',
        'session_exists',
      );
    }
    if ((await repo.countLiveSessionsOf(tx, actor.userId)) >= MAX_LIVE_WORKBOOK_SESSIONS) {
      throw tooManySessions();
    }
    const target = await pickHost({ ...ctx, db: tx }, host);
    const inserted = await repo.insertSession(tx, {
      userId: actor.userId,
      courseId: config.courseId,
      configId: config.id,
      notebookId: notebook.id,
      expiresAt: new Date(Date.now() + config.lifetimeMinutes * 60_000),
      maxExtensionMinutes: config.maxExtensionMinutes,
      memoryMb: config.memoryMb,
      cpuSeconds: config.cpuSeconds,
      kernelHost: target.id,
    });
    return { session: inserted, target };
  });
  if (!session) {
    throw conflict(
      'You already have a workbook session open in this course. Resume it or end it first.',
      'session_exists',
    );
  }
  try {
    // A host that died since it was picked hands the new session on like any other.
    const view = { ...session, ownerAlive: true, ownerUrl: target.url };
    const { owner } = await onOwner(ctx, host, view, (on, fresh) => startOn(host, on, session, fresh));
    return toSession({ ...view, kernelHost: owner });
  } catch (error) {
    await repo.endSession(ctx.db, session.id);
    throw error;
  }
}

/**
 * The row as the expiry job will leave it: a live session past its time reads as expired (ended at its
 * expiry) before the job has run, without writing on every request.
 */
function asOfNow(row: repo.SessionView): repo.SessionView {
  return row.status === 'live' && row.expiresAt.getTime() <= Date.now()
    ? { ...row, status: 'expired', endedAt: row.expiresAt }
    : row;
}

/** The session if the caller may see it: its user, editors of its course, staff (others 404). */
async function visibleSession(ctx: AppContext, actor: Actor, id: number) {
  const row = await repo.findSession(ctx.db, id);
  if (!row) throw notFound();
  const session = asOfNow(row);
  const own = session.userId === actor.userId;
  if (!own && !canManageCourse(await getCourseRole(ctx.db, actor, session.courseId))) throw notFound();
  return { session, own };
}

/** The caller's own live session: others' are 404 (students) or 403 (managers, who may only end them). */
export async function ownLiveSession(ctx: AppContext, actor: Actor, id: number): Promise<repo.SessionView> {
  const { session, own } = await visibleSession(ctx, actor, id);
  if (!own) throw forbidden('Only the owner of a workbook session runs code in it.');
  if (session.status !== 'live')
    throw conflict('This workbook session has ended. Open a new one.', 'session_ended');
  return session;
}

export async function getSession(ctx: AppContext, actor: Actor, id: number) {
  return toSession((await visibleSession(ctx, actor, id)).session);
}

export async function endSession(ctx: AppContext, host: KernelHost, actor: Actor, id: number): Promise<void> {
  const { session } = await visibleSession(ctx, actor, id);
  // One past its time stays expired (the job writes that); only a live one is ended.
  if (session.status === 'live') await repo.endSession(ctx.db, id);
  await stopOnOwner(ctx, host, session);
}

export async function extendSession(
  ctx: AppContext,
  actor: Actor,
  id: number,
  minutes: number,
): Promise<WorkbookSession> {
  const session = await ownLiveSession(ctx, actor, id);
  const extended = await repo.extendSession(ctx.db, id, minutes);
  if (!extended) {
    const left = Math.max(0, session.maxExtensionMinutes - session.extendedMinutes);
    throw badRequest(`This session can be extended by ${left} more minutes at most.`, {
      minutes: [`At most ${left} more minutes.`],
    });
  }
  return toSession({ ...session, ...extended });
}

export async function listCourseSessions(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
): Promise<WorkbookSessionList> {
  const role = await getCourseRole(ctx.db, actor, courseId);
  await repo.expireDue(ctx.db);
  const rows = await repo.sessionsInCourse(
    ctx.db,
    courseId,
    actor.userId,
    canManageCourse(role),
    SESSIONS_LISTED,
  );
  return { results: rows.map(toSession) };
}

/** The job: live sessions past their time become expired; each host's sweep then ends their kernels. */
export async function expireSessions(ctx: AppContext): Promise<number[]> {
  const expired = await repo.expireDue(ctx.db);
  if (expired.length > 0) ctx.log.info({ sessions: expired.map((s) => s.id) }, 'workbooks: sessions expired');
  return expired.map((s) => s.id);
}

export const WORKBOOK_EXPIRY_QUEUE = 'workbook-expiry';

/** Started once per API process from main.ts: the expiry cron runs once a minute across all instances. */
export async function startWorkbookJobs(ctx: AppContext): Promise<void> {
  await ctx.jobs.schedule(WORKBOOK_EXPIRY_QUEUE, '* * * * *');
  await ctx.jobs.work(WORKBOOK_EXPIRY_QUEUE, async () => {
    await expireSessions(ctx);
  });
}
