/**
 * The sandbox runs this API process makes itself (not through a grader): a student's precheck and the
 * check of a pytest module an editor saves. They share its few slots, shared out fairly between the
 * people waiting, so a burst of one person's runs never takes the slots from everyone else (issue 36,
 * item 6: one student's 29 prechecks across five assignments had everyone else answered 503 `busy`).
 */
import type { Slots } from '@kadai/grader/evaluate';

/** Sandbox runs at once in one API process; the rest wait their turn. */
export const TEST_RUN_SLOTS = 2;

interface Waiter {
  grant: () => void;
}

/**
 * A counting semaphore whose waiters belong to owners (people). A freed slot goes to the owner holding
 * the fewest slots now, the one who has waited longest among equals, and within an owner first come,
 * first served: with two slots and two people waiting, each gets one, however many runs either queued.
 */
export class FairSlots {
  private available: number;
  /** Waiters by owner, owners in the order they began to wait. */
  private readonly waiting = new Map<number, Waiter[]>();
  private readonly held = new Map<number, number>();

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`FairSlots size must be ≥ 1, got ${size}`);
    this.available = size;
  }

  /** Runs waiting for a slot, of everyone. */
  get queued(): number {
    let n = 0;
    for (const list of this.waiting.values()) n += list.length;
    return n;
  }

  /** Slots `owner` holds now. */
  heldBy(owner: number): number {
    return this.held.get(owner) ?? 0;
  }

  /** The slots as one owner's runs take them. */
  forOwner(owner: number): Slots {
    return { run: (fn, signal) => this.run(owner, fn, signal) };
  }

  async run<T>(owner: number, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(owner, signal);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  acquire(owner: number, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.available > 0) {
      this.available -= 1;
      return Promise.resolve(this.take(owner));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.take(owner));
        },
      };
      const onAbort = () => {
        const list = this.waiting.get(owner);
        const index = list?.indexOf(waiter) ?? -1;
        if (list && index >= 0) {
          list.splice(index, 1);
          if (list.length === 0) this.waiting.delete(owner);
        }
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const list = this.waiting.get(owner);
      if (list) list.push(waiter);
      else this.waiting.set(owner, [waiter]);
    });
  }

  private take(owner: number): () => void {
    this.held.set(owner, this.heldBy(owner) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.heldBy(owner) - 1;
      if (left > 0) this.held.set(owner, left);
      else this.held.delete(owner);
      this.grantNext();
    };
  }

  private grantNext(): void {
    let next: number | null = null;
    for (const owner of this.waiting.keys()) {
      if (next === null || this.heldBy(owner) < this.heldBy(next)) next = owner;
    }
    if (next === null) {
      this.available += 1;
      return;
    }
    const list = this.waiting.get(next)!;
    const waiter = list.shift()!;
    // An owner who still waits goes to the back: among equals, the one who has waited longest is next.
    this.waiting.delete(next);
    if (list.length > 0) this.waiting.set(next, list);
    waiter.grant();
  }
}

export const testRunSlots = new FairSlots(TEST_RUN_SLOTS);
