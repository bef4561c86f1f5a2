import { startKernel, type Kernel, type KernelLimits } from '@kadai/sandbox';

/*
 * The kernels this process runs, one per workbook session it owns (docs/workbooks.md, "Kernels"). A
 * kernel lives in the process that started it; other instances reach it through kernel-host.ts. `sweep`
 * ends the kernels of sessions that are no longer live here (ended, expired, moved to another host).
 */

export class KernelCapacityError extends Error {
  override name = 'KernelCapacityError';
}

export type KernelFactory = (limits: Partial<KernelLimits>) => Promise<Kernel>;

export class KernelPool {
  private readonly kernels = new Map<number, Kernel>();
  private readonly starting = new Map<number, Promise<Kernel>>();

  constructor(
    readonly max: number,
    private readonly start: KernelFactory = (limits) => startKernel({ limits }),
  ) {}

  get size(): number {
    return this.kernels.size + this.starting.size;
  }

  has(sessionId: number): boolean {
    return this.kernels.get(sessionId)?.alive === true;
  }

  /**
   * The session's kernel, started when it has none (`started`: it had none running, so its variables
   * are new); KernelCapacityError when the process is full.
   */
  async acquire(
    sessionId: number,
    limits: Partial<KernelLimits>,
  ): Promise<{ kernel: Kernel; started: boolean }> {
    const running = this.kernels.get(sessionId);
    if (running?.alive) return { kernel: running, started: false };
    if (running) this.kernels.delete(sessionId);
    const pending = this.starting.get(sessionId);
    if (pending) return { kernel: await pending, started: true };
    if (this.size >= this.max)
      throw new KernelCapacityError('This server runs its maximum of workbook kernels.');
    const started = this.start(limits).then(
      (kernel) => {
        this.starting.delete(sessionId);
        this.kernels.set(sessionId, kernel);
        kernel.onExit(() => {
          if (this.kernels.get(sessionId) === kernel) this.kernels.delete(sessionId);
        });
        return kernel;
      },
      (error: unknown) => {
        this.starting.delete(sessionId);
        throw error;
      },
    );
    this.starting.set(sessionId, started);
    return { kernel: await started, started: true };
  }

  /** Interrupts the cell the session's kernel is running; false when there is none. */
  async interrupt(sessionId: number): Promise<boolean> {
    return (await this.kernels.get(sessionId)?.interrupt()) ?? false;
  }

  async stop(sessionId: number): Promise<void> {
    const kernel = this.kernels.get(sessionId) ?? (await this.starting.get(sessionId)?.catch(() => null));
    this.kernels.delete(sessionId);
    await kernel?.shutdown();
  }

  /** Ends the kernels whose session `isLive` no longer keeps here. */
  async sweep(isLive: (sessionIds: number[]) => Promise<Set<number>>): Promise<number[]> {
    const ids = [...this.kernels.keys()];
    if (ids.length === 0) return [];
    const live = await isLive(ids);
    const ended = ids.filter((id) => !live.has(id));
    await Promise.all(ended.map((id) => this.stop(id)));
    return ended;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.kernels.keys(), ...this.starting.keys()].map((id) => this.stop(id)));
  }
}
