import { describe, expect, it } from 'vitest';
import { Semaphore } from './semaphore.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Semaphore', () => {
  it('refuses a size below one', () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
    expect(() => new Semaphore(1.5)).toThrow(RangeError);
  });

  it('never runs more than its size at once', async () => {
    const slots = new Semaphore(3);
    let running = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        slots.run(async () => {
          running += 1;
          peak = Math.max(peak, running);
          await tick();
          running -= 1;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(slots.inUse).toBe(0);
  });

  it('grants slots in arrival order', async () => {
    const slots = new Semaphore(1);
    const first = await slots.acquire();
    const order: number[] = [];
    const waiters = [1, 2, 3].map((n) => slots.acquire().then((release) => (order.push(n), release)));
    expect(slots.queued).toBe(3);
    first();
    for (const waiter of waiters) (await waiter)();
    expect(order).toEqual([1, 2, 3]);
  });

  it('releases the slot when the work throws', async () => {
    const slots = new Semaphore(1);
    await expect(slots.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(slots.inUse).toBe(0);
  });

  it('ignores a second release of the same slot', async () => {
    const slots = new Semaphore(1);
    const release = await slots.acquire();
    release();
    release();
    expect(slots.inUse).toBe(0);
    await slots.acquire();
    expect(slots.inUse).toBe(1);
    // Had the second release counted, this would be granted at once.
    let granted = false;
    void slots.acquire().then(() => (granted = true));
    await tick();
    expect(granted).toBe(false);
  });

  it('drops an aborted waiter from the queue without taking a slot', async () => {
    const slots = new Semaphore(1);
    const hold = await slots.acquire();
    const controller = new AbortController();
    const aborted = slots.acquire(controller.signal);
    const after = slots.acquire();
    controller.abort(new Error('gave up'));
    await expect(aborted).rejects.toThrow('gave up');
    expect(slots.queued).toBe(1);
    hold();
    const release = await after;
    expect(slots.inUse).toBe(1);
    release();
    expect(slots.inUse).toBe(0);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const slots = new Semaphore(2);
    await expect(slots.acquire(AbortSignal.abort(new Error('late')))).rejects.toThrow('late');
    expect(slots.inUse).toBe(0);
  });
});
