import {
  CELL_TIMEOUT_SECONDS,
  MAX_OUTPUT_TEXT,
  MAX_OUTPUTS_PER_CELL,
  NotebookOutput,
  type WorkbookExecute,
  type WorkbookExecution,
  type WorkbookSession,
  type WorkbookSessionList,
  type WorkbookStart,
} from '@kadai/contracts';
import { SandboxUnavailableError, type Kernel, type KernelOutput } from '@kadai/sandbox';
import type { Actor, AppContext } from '../../lib/context.ts';
import { HttpError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { getCourseRole } from '../courses/courses.service.ts';
import { readableConfig } from './configs.service.ts';
import { canManageCourse } from '../courses/courses.service.ts';
import { KernelCapacityError, type KernelPool } from './kernels.ts';
import * as repo from './workbooks.repo.ts';

/*
 * Workbook sessions (docs/workbooks.md, "Sessions"): a user opens one in a course for a configuration;
 * it runs a kernel until it ends (DELETE) or expires (its time, extendable within the maximum). The user
 * runs cells in it; editors of the course and staff may see and end their students' sessions.
 */

const MB = 1024 * 1024;
const SESSIONS_LISTED = 50;

export function toSession(row: repo.SessionRow, pool: KernelPool): WorkbookSession {
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
    kernel_alive: row.status === 'live' && pool.has(row.id),
  };
}

const capacity = () =>
  new HttpError(
    429,
    'workbook_capacity',
    'The server is running as many workbooks as it can. Try again in a few minutes.',
    undefined,
    { 'retry-after': '60' },
  );
const sandboxDown = () =>
  new HttpError(
    503,
    'sandbox_unavailable',
    'Workbooks cannot run code on this server: the sandbox is not available.',
  );

const limitsOf = (session: repo.SessionRow) => ({
  memoryBytes: session.memoryMb * MB,
  cpuSeconds: session.cpuSeconds,
  outputBytes: MAX_OUTPUT_TEXT,
});

async function kernelFor(pool: KernelPool, session: repo.SessionRow): Promise<Kernel> {
  try {
    return await pool.get(session.id, limitsOf(session));
  } catch (error) {
    if (error instanceof KernelCapacityError) throw capacity();
    if (error instanceof SandboxUnavailableError) throw sandboxDown();
    throw error;
  }
}

export async function startSession(
  ctx: AppContext,
  pool: KernelPool,
  actor: Actor,
  input: WorkbookStart,
): Promise<WorkbookSession> {
  const { config } = await readableConfig(ctx.db, actor, input.config);
  if (config.courseId !== input.course) throw notFound();
  await repo.expireDue(ctx.db);
  if (pool.size >= pool.max) throw capacity();
  const notebook = await repo.notebookFor(ctx.db, actor.userId, config);
  const session = await repo.insertSession(ctx.db, {
    userId: actor.userId,
    courseId: config.courseId,
    configId: config.id,
    notebookId: notebook.id,
    expiresAt: new Date(Date.now() + config.lifetimeMinutes * 60_000),
    maxExtensionMinutes: config.maxExtensionMinutes,
    memoryMb: config.memoryMb,
    cpuSeconds: config.cpuSeconds,
  });
  if (!session) {
    throw conflict(
      'You already have a workbook session open in this course. Resume it or end it first.',
      'session_exists',
    );
  }
  try {
    await kernelFor(pool, session);
  } catch (error) {
    await repo.endSession(ctx.db, session.id);
    throw error;
  }
  return toSession(session, pool);
}

/**
 * The row as the expiry job will leave it: a live session past its time reads as expired (ended at its
 * expiry) before the job has run, without writing on every request.
 */
function asOfNow(row: repo.SessionRow): repo.SessionRow {
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
async function ownLiveSession(ctx: AppContext, actor: Actor, id: number): Promise<repo.SessionRow> {
  const { session, own } = await visibleSession(ctx, actor, id);
  if (!own) throw forbidden('Only the owner of a workbook session runs code in it.');
  if (session.status !== 'live')
    throw conflict('This workbook session has ended. Open a new one.', 'session_ended');
  return session;
}

export async function getSession(ctx: AppContext, pool: KernelPool, actor: Actor, id: number) {
  return toSession((await visibleSession(ctx, actor, id)).session, pool);
}

export async function endSession(ctx: AppContext, pool: KernelPool, actor: Actor, id: number): Promise<void> {
  const { session } = await visibleSession(ctx, actor, id);
  // One past its time stays expired (the job writes that); only a live one is ended.
  if (session.status === 'live') await repo.endSession(ctx.db, id);
  await pool.stop(id);
}

export async function extendSession(
  ctx: AppContext,
  pool: KernelPool,
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
  return toSession(extended, pool);
}

export async function listCourseSessions(
  ctx: AppContext,
  pool: KernelPool,
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
  return { results: rows.map((row) => toSession(row, pool)) };
}

export async function restartKernel(ctx: AppContext, pool: KernelPool, actor: Actor, id: number) {
  const session = await ownLiveSession(ctx, actor, id);
  await pool.stop(id);
  await kernelFor(pool, session);
  return toSession(session, pool);
}

/** Outputs as the notebook stores them: each checked against the contract, text cut to its limit. */
function toOutputs(outputs: KernelOutput[]): NotebookOutput[] {
  const cut = (text: string) =>
    text.length > MAX_OUTPUT_TEXT ? `${text.slice(0, MAX_OUTPUT_TEXT - 20)}\n[output truncated]` : text;
  return outputs.slice(0, MAX_OUTPUTS_PER_CELL).flatMap((output) => {
    const shaped =
      output.output_type === 'stream'
        ? { ...output, text: cut(output.text) }
        : output.output_type === 'error'
          ? { ...output, evalue: cut(output.evalue), traceback: output.traceback.slice(0, 200).map(cut) }
          : output;
    const parsed = NotebookOutput.safeParse(shaped);
    return parsed.success ? [parsed.data] : [];
  });
}

export async function execute(
  ctx: AppContext,
  pool: KernelPool,
  actor: Actor,
  id: number,
  input: WorkbookExecute,
): Promise<WorkbookExecution> {
  const session = await ownLiveSession(ctx, actor, id);
  const kernel = await kernelFor(pool, session);
  const result = await kernel.execute(input.code, { timeoutMs: CELL_TIMEOUT_SECONDS * 1000 });
  if (result.status === 'dead') await pool.stop(id);
  return {
    cell_id: input.cell_id,
    status: result.status,
    execution_count: result.executionCount,
    outputs: toOutputs(result.outputs),
    limit: result.limit,
    time_ms: Math.round(result.timeMs),
  };
}

/** This process's kernel sweep (app.ts runs it on a timer): stops the kernels whose session ended or expired. */
export function sweepKernels(ctx: AppContext, pool: KernelPool): Promise<number[]> {
  return pool.sweep((ids) => repo.liveAmong(ctx.db, ids));
}

/** The job: live sessions past their time become expired; each process's sweep then ends their kernels. */
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
