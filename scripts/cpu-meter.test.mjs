import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ProcessTreeMeter, parseStat, readProcesses } from './cpu-meter.mjs';

/** A /proc/<pid>/stat line with the fields the meter reads; CPU in ticks (1/100 s). */
function stat({ pid, ppid, sid = 1, own = 0, children = 0, start = 1, comm = 'node' }) {
  const fields = Array.from({ length: 50 }, () => '0');
  const set = (field, value) => (fields[field - 3] = String(value));
  set(3, 'S');
  set(4, ppid);
  set(6, sid);
  set(14, own);
  set(16, children);
  set(22, start);
  return `${pid} (${comm}) ${fields.join(' ')}`;
}
const read = (...lines) => lines.map((line) => parseStat(stat(line)));

describe('parseStat', () => {
  it('reads the fields after a command name with spaces and parentheses', () => {
    expect(
      parseStat(stat({ pid: 42, ppid: 7, sid: 5, own: 120, children: 30, start: 999, comm: 'a (b) c' })),
    ).toEqual({ pid: 42, ppid: 7, sid: 5, ownTicks: 120, childTicks: 30, start: 999 });
  });

  it("reads this box's processes, this one among them", () => {
    expect(readProcesses().some((process) => process.pid === globalThis.process.pid)).toBe(true);
  });
});

describe('ProcessTreeMeter', () => {
  it('counts the tree and a session one of its processes leads, and nothing else', () => {
    const meter = new ProcessTreeMeter(10);
    meter.sample(
      read(
        { pid: 1, ppid: 0, own: 5000 },
        { pid: 10, ppid: 1, own: 100 },
        { pid: 11, ppid: 10, own: 200 },
        // Chromium in a session of its own, and a helper whose parent already ended.
        { pid: 20, ppid: 11, sid: 20, own: 300 },
        { pid: 21, ppid: 1, sid: 20, own: 400 },
        // Another worker's process.
        { pid: 30, ppid: 1, sid: 30, own: 9000 },
      ),
    );
    expect(meter.cpuSeconds()).toBe(10);
  });

  it("counts a child once when its parent has waited for it, and a child it never saw through the parent's", () => {
    const meter = new ProcessTreeMeter(10);
    meter.sample(read({ pid: 10, ppid: 1, own: 100 }, { pid: 11, ppid: 10, own: 50 }));
    // 11 ended after 80 ticks and was waited for; a child never read took 20 more.
    meter.sample(read({ pid: 10, ppid: 1, own: 150, children: 100 }));
    // 11's 50 ticks read + its 30 unread + the unseen child's 20, and 10's own 150.
    expect(meter.cpuSeconds()).toBe(2.5);
  });

  it('counts a browser once when its whole chain is waited for after the last reading', () => {
    const meter = new ProcessTreeMeter(10);
    // The runner, a worker, the browser and a renderer.
    meter.sample(
      read(
        { pid: 10, ppid: 1, own: 10 },
        { pid: 11, ppid: 10, own: 20 },
        { pid: 12, ppid: 11, own: 30 },
        { pid: 13, ppid: 12, own: 100 },
      ),
    );
    // The worker closed the browser, which waited for its renderer, and ended: the runner got it all.
    meter.sample(read({ pid: 10, ppid: 1, own: 10, children: 150 }));
    expect(meter.cpuSeconds()).toBe(1.6);
  });

  it('tells a new process from an ended one with the same pid', () => {
    const meter = new ProcessTreeMeter(10);
    meter.sample(read({ pid: 10, ppid: 1, own: 100 }, { pid: 11, ppid: 10, own: 50, start: 2 }));
    meter.sample(
      read({ pid: 10, ppid: 1, own: 100, children: 50 }, { pid: 11, ppid: 10, own: 70, start: 3 }),
    );
    expect(meter.cpuSeconds()).toBe(2.2);
  });

  it('counts a real process that left the tree, which its parent never waits for', async () => {
    const burn =
      'const t = Date.now(); while (process.cpuUsage().user < 400_000 && Date.now() - t < 20_000); setTimeout(() => {}, 1500);';
    // The child starts a grandchild in a session of its own (as Playwright starts Chromium) and ends a
    // second later (a reading must see it to link the grandchild to the tree).
    const child = spawn(process.execPath, [
      '-e',
      `require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(burn)}], { detached: true, stdio: 'ignore' }).unref(); setTimeout(() => {}, 1000);`,
    ]);
    const meter = new ProcessTreeMeter(child.pid);
    const sampler = setInterval(() => meter.sample(readProcesses()), 100);
    await new Promise((resolve) => child.on('exit', resolve));
    // Until both were read and have ended.
    await expect
      .poll(
        () => {
          const read = [...meter.seen.values()];
          return read.length >= 2 && read.every((process) => process.last < meter.readings);
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBe(true);
    clearInterval(sampler);
    expect(meter.cpuSeconds()).toBeGreaterThanOrEqual(0.3);
  }, 40_000);
});
