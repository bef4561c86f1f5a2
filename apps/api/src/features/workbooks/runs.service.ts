import type {
  WorkbookExecute,
  WorkbookExecution,
  WorkbookInterruptResult,
  WorkbookSession,
} from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import type { KernelHost } from './kernel-host.ts';
import { executeCall, interruptOnOwner, onOwner, restartCall } from './placement.service.ts';
import { ownLiveSession, toSession } from './sessions.service.ts';
import * as repo from './workbooks.repo.ts';

/*
 * What the owner of a session does with its kernel: run a cell, restart, interrupt the running cell.
 * Any instance answers; the call runs wherever the kernel is (placement.service.ts).
 */

export async function execute(
  ctx: AppContext,
  host: KernelHost,
  actor: Actor,
  id: number,
  input: WorkbookExecute,
): Promise<WorkbookExecution> {
  const session = await ownLiveSession(ctx, actor, id);
  const { result, owner } = await onOwner(ctx, host, session, executeCall(host, session, input.code));
  // The kernel is gone with this run: the session has none until its next run starts one.
  if (result.status === 'dead') await repo.moveKernel(ctx.db, id, owner, null);
  return { cell_id: input.cell_id, ...result };
}

export async function restartKernel(
  ctx: AppContext,
  host: KernelHost,
  actor: Actor,
  id: number,
): Promise<WorkbookSession> {
  const session = await ownLiveSession(ctx, actor, id);
  const { owner } = await onOwner(ctx, host, session, restartCall(host, session));
  return toSession({ ...session, kernelHost: owner, ownerAlive: true });
}

/** Interrupts the cell the session's kernel is running (the same callers as a restart). */
export async function interruptKernel(
  ctx: AppContext,
  host: KernelHost,
  actor: Actor,
  id: number,
): Promise<WorkbookInterruptResult> {
  const session = await ownLiveSession(ctx, actor, id);
  return { interrupted: await interruptOnOwner(host, session) };
}
