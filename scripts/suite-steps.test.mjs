import { describe, expect, it } from 'vitest';
import { runSteps, stepTable } from './suite-steps.mjs';

/** A step that records when it starts and ends, and passes unless told otherwise. */
function recorder(log) {
  return (name, { after, ok = true, until } = {}) => ({
    name,
    after,
    stop: () => log.push(`stop ${name}`),
    run: async () => {
      log.push(`start ${name}`);
      await (until ?? Promise.resolve());
      log.push(`end ${name}`);
      return ok;
    },
  });
}

describe('runSteps', () => {
  it('runs two independent steps at once', async () => {
    // Each of the two ends only once the other has started: one after the other, this never ends.
    let startedA;
    let startedB;
    const a = new Promise((resolve) => (startedA = resolve));
    const b = new Promise((resolve) => (startedB = resolve));
    const outcome = await runSteps(
      [
        { name: 'vitest', run: async () => (startedA(), await b, true) },
        { name: 'journeys', run: async () => (startedB(), await a, true) },
      ],
      { slots: 2 },
    );
    expect([...outcome]).toEqual([
      ['vitest', 'passed'],
      ['journeys', 'passed'],
    ]);
  });

  it('never runs more than its slots, and starts a step only after the steps it needs', async () => {
    const log = [];
    const make = recorder(log);
    let running = 0;
    let most = 0;
    const counted = (step) => ({
      ...step,
      run: async () => {
        most = Math.max(most, ++running);
        const ok = await step.run();
        running--;
        return ok;
      },
    });
    const outcome = await runSteps(
      [
        make('check'),
        make('build'),
        make('journeys', { after: ['build'] }),
        make('vitest'),
        make('files', { after: ['vitest'] }),
      ].map(counted),
      { slots: 2 },
    );
    expect(most).toBe(2);
    expect([...outcome.values()]).toEqual(['passed', 'passed', 'passed', 'passed', 'passed']);
    expect(log.indexOf('start journeys')).toBeGreaterThan(log.indexOf('end build'));
    expect(log.indexOf('start files')).toBeGreaterThan(log.indexOf('end vitest'));
  });

  it('after a failure starts nothing more and asks the running steps to stop', async () => {
    const log = [];
    const make = recorder(log);
    let release;
    const journeysHeld = new Promise((resolve) => (release = resolve));
    const outcome = await runSteps(
      [
        make('check', { ok: false, until: Promise.resolve() }),
        {
          ...make('journeys', { until: journeysHeld, ok: false }),
          stop: () => (log.push('stop journeys'), release()),
        },
        make('vitest'),
        make('files', { after: ['vitest'] }),
      ],
      { slots: 2 },
    );
    expect(log).toContain('stop journeys');
    expect(log).not.toContain('start vitest');
    expect(Object.fromEntries(outcome)).toEqual({
      check: 'failed',
      journeys: 'failed',
      vitest: 'skipped',
      files: 'skipped',
    });
  });

  it('skips a step whose need is not in the list instead of waiting for it', async () => {
    const outcome = await runSteps([{ name: 'files', after: ['missing'], run: async () => true }]);
    expect(outcome.get('files')).toBe('skipped');
  });
});

describe('stepTable', () => {
  it("prints each step's wall and CPU seconds and cores, then the whole run's CPU/wall", () => {
    const table = stepTable(
      [
        { name: 'vitest', outcome: 'passed', wallSeconds: 200, cpuSeconds: 360 },
        { name: 'journeys', outcome: 'passed', wallSeconds: 400, cpuSeconds: 400 },
      ],
      { wallSeconds: 410, cpuSeconds: 770 },
    ).split('\n');
    expect(table[0]).toMatch(/^step\s+outcome\s+wall s\s+CPU s\s+CPU\/wall$/);
    expect(table[1]).toMatch(/^vitest\s+passed\s+200\.0\s+360\.0\s+1\.80$/);
    expect(table[2]).toMatch(/^journeys\s+passed\s+400\.0\s+400\.0\s+1\.00$/);
    expect(table[3]).toMatch(/^whole run\s+410\.0\s+770\.0\s+1\.88$/);
  });
});
