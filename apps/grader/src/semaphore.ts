/** What a run of tests needs of its slots: to run one sandbox at a time in one of them. */
export interface Slots {
  run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

/**
 * A first-come, first-served counting semaphore: the grader's sandbox slots. Every sandbox run of every
 * submission being graded takes one, so the machine never runs more programs than it has slots, and
 * the tests of a submission that arrived earlier get slots before those of a later one.
 */
export class Semaphore implements Slots {
  private available: number;
  private readonly waiting: { grant: () => void }[] = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`Semaphore size must be ≥ 1, got ${size}`);
    this.available = size;
  }

  /** Slots in use now. */
  get inUse(): number {
    return this.size - this.available;
  }

  /** Callers waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves with a release function once a slot is free; rejects (and gives up its place) on abort. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.available > 0) {
      this.available -= 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const entry = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.releaser());
        },
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(entry);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  /** Runs `fn` holding one slot. */
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      // A second call must not hand out a slot twice.
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next.grant();
      else this.available += 1;
    };
  }
}
