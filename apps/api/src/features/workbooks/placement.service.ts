import {
  CELL_TIMEOUT_SECONDS,
  InternalKernelRun,
  InternalKernelStarted,
  InternalKernelStopped,
  WorkbookInterruptResult,
  type InternalKernelLimits,
} from '@kadai/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../lib/context.ts';
import { conflict, HttpError } from '../../lib/errors.ts';
import { KernelHostGone } from './kernel-channel.ts';
import type { KernelHost } from './kernel-host.ts';
import * as hosts from './kernel-hosts.repo.ts';
import { capacity, noKernelHost } from './kernel-results.ts';
import * as repo from './workbooks.repo.ts';

/*
 * Where a session's kernel runs, and how any instance reaches it (docs/workbooks.md, "Kernels").
 * `workbook_sessions.kernel_host` names the owner. A call runs here when this process owns the kernel,
 * is forwarded when another live host does, and otherwise moves the session: a host is picked (this
 * one if it has room, else the live host with the most room), the owner is swapped by compare-and-set
 * (of two instances racing, one wins and the other follows it), and a fresh kernel starts there.
 */

/** A kernel host to send a call to: this process, or another reached over the internal channel. */
export type Target = { id: string; url: null } | { id: string; url: string };

/** Forwarded calls wait this long: a cell's time limit and a kernel's start, with room to spare. */
const EXECUTE_TIMEOUT_MS = (CELL_TIMEOUT_SECONDS + 30) * 1000;
const START_TIMEOUT_MS = 30_000;
const SHORT_TIMEOUT_MS = 10_000;
/** Moves of one call: each follows a move by another instance or a host that died meanwhile. */
const MAX_MOVES = 3;

export const limitsOf = (session: repo.SessionRow): InternalKernelLimits => ({
  memory_mb: session.memoryMb,
  cpu_seconds: session.cpuSeconds,
});

/** The session's owner when it can take calls: this process, or another host that is alive. */
function ownerOf(host: KernelHost, session: repo.SessionView): Target | null {
  if (session.kernelHost === null) return null;
  if (session.kernelHost === host.id) return host.isHost ? { id: host.id, url: null } : null;
  return session.ownerAlive && session.ownerUrl ? { id: session.kernelHost, url: session.ownerUrl } : null;
}

/** Where a new kernel goes: here when there is room, else the live host with the most room (429: none). */
export async function pickHost(ctx: AppContext, host: KernelHost): Promise<Target> {
  if (host.hasRoom()) return { id: host.id, url: null };
  const other = await hosts.findRoomiestHost(ctx.db, host.id);
  if (!other) throw capacity();
  return other;
}

function remote<T>(
  host: KernelHost,
  target: { id: string; url: string },
  path: string,
  body: unknown,
  response: z.ZodType<T>,
  timeoutMs: number,
): Promise<T> {
  return host.channel.call(target, path, body, response, timeoutMs);
}

/** Starts the session's kernel on `target` (a new session's, or a restart). */
export async function startOn(
  host: KernelHost,
  target: Target,
  session: repo.SessionRow,
  fresh: boolean,
): Promise<void> {
  const limits = limitsOf(session);
  if (target.url === null) await host.startKernel(session.id, limits, fresh);
  else
    await remote(
      host,
      target,
      `/${session.id}/start`,
      { limits, fresh },
      InternalKernelStarted,
      START_TIMEOUT_MS,
    );
}

export type KernelCall<T> = (target: Target, fresh: boolean) => Promise<T>;

/** The owner cannot take the call: unreachable, or (this process) shutting down. */
const isGone = (error: unknown) =>
  error instanceof KernelHostGone || (error instanceof HttpError && error.code === 'kernel_host_stopping');
/** The new owner had no room or no sandbox after all: the session is left without one, to be placed again. */
const isRefusal = (error: unknown) =>
  error instanceof HttpError && (error.code === 'workbook_capacity' || error.code === 'sandbox_unavailable');

/**
 * Runs `call` on the session's kernel wherever it is; moves the session first when it has no owner
 * that can take the call (`fresh` is then true: the kernel is new). Returns the result and the host
 * that gave it.
 */
export async function onOwner<T>(
  ctx: AppContext,
  host: KernelHost,
  session: repo.SessionView,
  call: KernelCall<T>,
): Promise<{ result: T; owner: string }> {
  let current = session;
  for (let moves = 0; ; moves++) {
    const owner = ownerOf(host, current);
    if (owner) {
      try {
        return { result: await call(owner, false), owner: owner.id };
      } catch (error) {
        if (!isGone(error)) throw error;
        ctx.log.warn({ session: current.id, host: owner.id, err: error }, 'workbooks: kernel host gone');
      }
    }
    if (moves >= MAX_MOVES) throw noKernelHost();
    const target = await pickHost(ctx, host);
    if (await repo.moveKernel(ctx.db, current.id, current.kernelHost, target.id)) {
      ctx.log.info(
        { session: current.id, from: current.kernelHost, to: target.id },
        'workbooks: session moved',
      );
      try {
        return { result: await call(target, true), owner: target.id };
      } catch (error) {
        if (isRefusal(error)) await repo.moveKernel(ctx.db, current.id, target.id, null);
        if (!isGone(error)) throw error;
      }
    }
    // Another instance moved it first, or the new host died at once: look again.
    const reread = await repo.findSession(ctx.db, current.id);
    if (!reread || reread.status !== 'live') {
      throw conflict('This workbook session has ended. Open a new one.', 'session_ended');
    }
    current = reread;
  }
}

/** Cell runs: here, or forwarded to the owner. */
export function executeCall(
  host: KernelHost,
  session: repo.SessionRow,
  code: string,
): KernelCall<InternalKernelRun> {
  const limits = limitsOf(session);
  return (target, fresh) =>
    target.url === null
      ? host.execute(session.id, limits, code, fresh)
      : remote(
          host,
          target,
          `/${session.id}/execute`,
          { limits, code, fresh },
          InternalKernelRun,
          EXECUTE_TIMEOUT_MS,
        );
}

/** A restart is a fresh start, wherever the kernel is. */
export function restartCall(host: KernelHost, session: repo.SessionRow): KernelCall<void> {
  return (target) => startOn(host, target, session, true);
}

/**
 * Interrupts the running cell on the owner. Nothing moves for it: with no owner that answers, no cell
 * is running anywhere.
 */
export async function interruptOnOwner(host: KernelHost, session: repo.SessionView): Promise<boolean> {
  const owner = ownerOf(host, session);
  if (!owner) return false;
  if (owner.url === null) return host.interrupt(session.id);
  try {
    const answer = await remote(
      host,
      owner,
      `/${session.id}/interrupt`,
      {},
      WorkbookInterruptResult,
      SHORT_TIMEOUT_MS,
    );
    return answer.interrupted;
  } catch (error) {
    if (error instanceof KernelHostGone) return false;
    throw error;
  }
}

/** Ends the session's kernel on its owner; a host that does not answer ends it at its next sweep. */
export async function stopOnOwner(
  ctx: AppContext,
  host: KernelHost,
  session: repo.SessionView,
): Promise<void> {
  const owner = ownerOf(host, session);
  if (!owner) return;
  if (owner.url === null) {
    await host.stopKernel(session.id);
    return;
  }
  try {
    await remote(host, owner, `/${session.id}/stop`, {}, InternalKernelStopped, SHORT_TIMEOUT_MS);
  } catch (error) {
    if (!(error instanceof KernelHostGone || error instanceof HttpError)) throw error;
    ctx.log.warn({ session: session.id, host: owner.id, err: error }, 'workbooks: kernel left to the sweep');
  }
}
