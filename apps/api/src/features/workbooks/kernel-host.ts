import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { CELL_TIMEOUT_SECONDS, type InternalKernelLimits, type InternalKernelRun } from '@kadai/contracts';
import { SandboxUnavailableError } from '@kadai/sandbox';
import type { Config } from '../../config.ts';
import type { Executor } from '../../db/client.ts';
import { channelKey, KernelChannel, SignatureVerifier } from './kernel-channel.ts';
import * as hosts from './kernel-hosts.repo.ts';
import { capacity, kernelLimits, sandboxDown, stopping, toOutputs } from './kernel-results.ts';
import { KernelCapacityError, KernelPool } from './kernels.ts';
import * as repo from './workbooks.repo.ts';

/*
 * This process as a kernel host (docs/workbooks.md, "Kernels"): an API instance with
 * WORKBOOK_MAX_KERNELS > 0 (kind `api`) or `npm run kernels` (kind `kernels`). It announces itself in
 * `kernel_hosts` and beats; it runs the kernels of the sessions it owns, for calls made in this process
 * or forwarded by other instances over the signed internal channel; its sweep ends the kernels of
 * sessions that are no longer live here. Leaving (SIGTERM) it stops taking kernels and removes its row,
 * so the next call of each of its sessions moves the session elsewhere.
 */

const HEARTBEAT_MS = 5_000;
const SWEEP_MS = 15_000;
const LEAVE_TIMEOUT_MS = 3_000;

export interface KernelHostDeps {
  db: Executor;
  log: FastifyBaseLogger;
}

export class KernelHost {
  readonly id: string;
  readonly channel: KernelChannel;
  readonly verifier: SignatureVerifier;
  /** Where other instances reach this process; set once it listens when INTERNAL_URL is not. */
  url: string;
  private accepting = true;
  private timers: NodeJS.Timeout[] = [];
  /** The last beat asked for: leaving waits for it, so it cannot write the row back after its removal. */
  private beating: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: KernelHostDeps,
    readonly kind: 'api' | 'kernels',
    readonly pool: KernelPool,
    secret: string,
    url: string,
  ) {
    this.id = `${kind}-${os.hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    this.url = url;
    const key = channelKey(secret);
    this.channel = new KernelChannel(key, (fields, message) => deps.log.error(fields, message));
    this.verifier = new SignatureVerifier(key, this.id);
  }

  /** Whether this process runs kernels at all (else it only forwards). */
  get isHost(): boolean {
    return this.pool.max > 0;
  }

  /** Whether a new kernel may start here now. */
  hasRoom(): boolean {
    return this.isHost && this.accepting && this.pool.size < this.pool.max;
  }

  /** Beats now and every 5 s, and sweeps every 15 s; a failed beat or sweep is logged and tried again. */
  start(): void {
    if (!this.isHost || this.timers.length > 0) return;
    const every = (ms: number, task: () => Promise<unknown>, what: string) => {
      const timer = setInterval(() => {
        task().catch((error: unknown) => this.deps.log.warn({ err: error }, `workbooks: ${what} failed`));
      }, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(HEARTBEAT_MS, () => this.beat(), 'the kernel host heartbeat');
    every(SWEEP_MS, () => this.sweep(), 'the kernel sweep');
    this.beat().catch((error: unknown) =>
      this.deps.log.warn({ err: error }, 'workbooks: the kernel host could not announce itself yet'),
    );
  }

  /**
   * Writes this host's row. Beats go one after the other, each with the URL and count of its moment:
   * two beats on two connections could otherwise land out of order and leave an old URL behind.
   */
  beat(): Promise<void> {
    const beating = this.beating.then(async () => {
      if (!this.isHost || !this.accepting) return;
      await hosts.beat(this.deps.db, {
        id: this.id,
        kind: this.kind,
        url: this.url,
        maxKernels: this.pool.max,
        kernels: this.pool.size,
      });
    });
    this.beating = beating.catch(() => undefined);
    return beating;
  }

  /** Ends the kernels of sessions that ended, expired or moved to another host; returns their ids. */
  async sweep(): Promise<number[]> {
    await hosts.forgetLongDeadHosts(this.deps.db);
    return this.pool.sweep((ids) => repo.liveOwnedAmong(this.deps.db, ids, this.id));
  }

  /**
   * Stops taking kernels and removes this host's row: its sessions move on their next call. With the
   * database away it gives up after a few seconds: the row then goes stale, which says the same.
   */
  async leave(): Promise<void> {
    this.accepting = false;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    if (!this.isHost) return;
    const removed = this.beating.then(() => hosts.removeHost(this.deps.db, this.id));
    const timeout = new Promise<'timeout'>((resolve) =>
      setTimeout(resolve, LEAVE_TIMEOUT_MS, 'timeout').unref(),
    );
    const outcome = await Promise.race([removed, timeout]).catch((error: unknown) => error);
    if (outcome !== undefined) {
      this.deps.log.warn({ err: outcome }, 'workbooks: could not remove this kernel host’s row');
    }
  }

  /* ─── What the owner of a session's kernel does (for this process, or forwarded here) ───────── */

  /** Starts the session's kernel (`fresh`: in place of a running one); true when one was started. */
  async startKernel(sessionId: number, limits: InternalKernelLimits, fresh: boolean): Promise<boolean> {
    if (fresh) await this.pool.stop(sessionId);
    return (await this.acquire(sessionId, limits)).started;
  }

  async execute(
    sessionId: number,
    limits: InternalKernelLimits,
    code: string,
    fresh: boolean,
  ): Promise<InternalKernelRun> {
    if (fresh) await this.pool.stop(sessionId);
    const { kernel, started } = await this.acquire(sessionId, limits);
    const result = await kernel.execute(code, { timeoutMs: CELL_TIMEOUT_SECONDS * 1000 });
    if (result.status === 'dead') await this.pool.stop(sessionId);
    return {
      status: result.status,
      execution_count: result.executionCount,
      outputs: toOutputs(result.outputs),
      limit: result.limit,
      time_ms: Math.round(result.timeMs),
      kernel_restarted: fresh || started,
    };
  }

  interrupt(sessionId: number): Promise<boolean> {
    return this.pool.interrupt(sessionId);
  }

  stopKernel(sessionId: number): Promise<void> {
    return this.pool.stop(sessionId);
  }

  private async acquire(sessionId: number, limits: InternalKernelLimits) {
    if (!this.isHost) throw capacity();
    if (!this.accepting && !this.pool.has(sessionId)) throw stopping();
    try {
      return await this.pool.acquire(sessionId, kernelLimits(limits));
    } catch (error) {
      if (error instanceof KernelCapacityError) throw capacity();
      if (error instanceof SandboxUnavailableError) throw sandboxDown();
      throw error;
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This process as a workbook kernel host (docs/workbooks.md, "Kernels"). */
    kernelHost: KernelHost;
  }
}

/** `http://HOST:PORT` as other processes on this machine reach it (a wildcard HOST: loopback). */
function defaultUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}

/**
 * Makes `app`'s process a kernel host: decorates `workbookKernels` and `kernelHost`, announces itself
 * once ready (with the port it listens on, unless INTERNAL_URL says where it is reached), leaves before
 * it closes and ends its kernels when closed. The caller serves the internal kernel routes with the host
 * returned (registerInternalKernelRoutes of internal.routes.ts, which imports this file: routes call
 * the host, the host imports no route).
 */
export function attachKernelHost(
  app: FastifyInstance,
  deps: KernelHostDeps & { config: Config },
  options: { kind: 'api' | 'kernels'; port: number; pool?: KernelPool },
): KernelHost {
  const { config } = deps;
  const pool = options.pool ?? new KernelPool(config.WORKBOOK_MAX_KERNELS);
  const host = new KernelHost(
    deps,
    options.kind,
    pool,
    config.JWT_SECRET,
    config.INTERNAL_URL ?? defaultUrl(config.HOST, options.port),
  );
  app.decorate('workbookKernels', pool);
  app.decorate('kernelHost', host);
  app.addHook('onReady', async () => host.start());
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (config.INTERNAL_URL || address === null || typeof address === 'string') return;
    // Port 0 (tests) is known only now.
    host.url = defaultUrl(config.HOST, address.port);
    await host.beat().catch(() => undefined);
  });
  app.addHook('preClose', async () => host.leave());
  app.addHook('onClose', async () => pool.stopAll());
  return host;
}
