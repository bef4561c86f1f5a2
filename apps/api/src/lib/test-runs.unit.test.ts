import { describe, expect, it } from 'vitest';
import { FairSlots } from './test-runs.ts';

/** A run that holds its slot until `finish()`. */
function held(slots: FairSlots, owner: number, log: string[], name: string) {
  let finish: () => void = () => {};
  const done = slots.run(owner, () => {
    log.push(name);
    return new Promise<void>((resolve) => (finish = resolve));
  });
  return { done, finish: () => finish() };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('FairSlots', () => {
  it('gives a freed slot to the person holding fewest, not to the longest queue', async () => {
    const slots = new FairSlots(2);
    const log: string[] = [];
    // A queues five runs first; B one, after them.
    const a = ['a1', 'a2', 'a3', 'a4', 'a5'].map((name) => held(slots, 1, log, name));
    const b = held(slots, 2, log, 'b1');
    await tick();
    expect(log).toEqual(['a1', 'a2']);
    expect(slots.queued).toBe(4);
    a[0]!.finish();
    await a[0]!.done;
    await tick();
    // B holds none, A one: B's run goes first although A's waited longer.
    expect(log).toEqual(['a1', 'a2', 'b1']);
    a[1]!.finish();
    await a[1]!.done;
    await tick();
    expect(log.at(-1)).toBe('a3');
    b.finish();
    await b.done;
    await tick();
    expect(log.at(-1)).toBe('a4');
    expect([slots.heldBy(1), slots.heldBy(2)]).toEqual([2, 0]);
    for (const run of a.slice(2)) run.finish();
    await tick();
    a[4]!.finish();
    await Promise.all(a.map((run) => run.done));
    expect(slots.queued).toBe(0);
    expect(slots.heldBy(1)).toBe(0);
  });

  it('takes turns between people who hold the same, longest waiter first', async () => {
    const slots = new FairSlots(1);
    const log: string[] = [];
    const first = held(slots, 1, log, 'a1');
    const rest = [
      held(slots, 1, log, 'a2'),
      held(slots, 2, log, 'b1'),
      held(slots, 1, log, 'a3'),
      held(slots, 2, log, 'b2'),
    ];
    await tick();
    first.finish();
    for (const run of rest) {
      await tick();
      run.finish();
    }
    await Promise.all(rest.map((run) => run.done));
    expect(log).toEqual(['a1', 'a2', 'b1', 'a3', 'b2']);
  });

  it('lets a waiter give up its place', async () => {
    const slots = new FairSlots(1);
    const log: string[] = [];
    const first = held(slots, 1, log, 'a1');
    const controller = new AbortController();
    const gaveUp = slots.run(2, async () => log.push('never'), controller.signal);
    const next = held(slots, 3, log, 'c1');
    controller.abort(new Error('gone'));
    await expect(gaveUp).rejects.toThrow('gone');
    expect(slots.queued).toBe(1);
    first.finish();
    await tick();
    next.finish();
    await next.done;
    expect(log).toEqual(['a1', 'c1']);
  });
});
