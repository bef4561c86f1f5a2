// How `npm test` (scripts/test.mjs) runs its steps: two at a time on two cores, each started as soon as
// the steps it needs have passed and a slot is free, and a table of what each cost at the end.

/**
 * @typedef {object} Step
 * @property {string} name
 * @property {string[]} [after] the steps it needs (their output, or the box to themselves); a step
 *   whose need failed or never ran is skipped
 * @property {() => Promise<boolean>} run resolves to whether it passed
 * @property {() => void} [stop] asks a running step to end early (another step failed)
 */

/**
 * Runs `steps` with at most `slots` at once; among the steps that may start, the earlier in the list
 * starts first. After a failure nothing more starts and the running steps are asked to stop, so a broken
 * build or lint error ends the run as soon as it is known. Resolves to each step's outcome by name:
 * 'passed', 'failed' or 'skipped'.
 *
 * @param {Step[]} steps
 * @param {{ slots?: number }} [options]
 * @returns {Promise<Map<string, 'passed' | 'failed' | 'skipped'>>}
 */
export function runSteps(steps, { slots = 2 } = {}) {
  const outcome = new Map();
  const running = new Set();
  let failed = false;
  return new Promise((resolve) => {
    const next = () => {
      for (const step of steps) {
        if (outcome.has(step.name) || running.has(step)) continue;
        const needs = step.after ?? [];
        if (failed || needs.some((need) => ['failed', 'skipped'].includes(outcome.get(need) ?? ''))) {
          outcome.set(step.name, 'skipped');
          continue;
        }
        if (running.size >= slots || needs.some((need) => outcome.get(need) !== 'passed')) continue;
        running.add(step);
        step.run().then(
          (ok) => settle(step, ok),
          () => settle(step, false),
        );
      }
      if (running.size > 0) return;
      // Nothing runs and nothing could start: a step that needs one not in the list never runs.
      for (const step of steps) if (!outcome.has(step.name)) outcome.set(step.name, 'skipped');
      resolve(outcome);
    };
    const settle = (step, ok) => {
      running.delete(step);
      outcome.set(step.name, ok ? 'passed' : 'failed');
      if (!ok && !failed) {
        failed = true;
        for (const other of running) other.stop?.();
      }
      next();
    };
    next();
  });
}

/**
 * The table printed at the end of `npm test`: each step's wall and CPU time and how many cores it kept
 * busy on average, then the whole run's CPU over wall time (2.0 is both cores busy all the way).
 *
 * @param {{ name: string, outcome: string, wallSeconds: number, cpuSeconds: number }[]} rows
 * @param {{ wallSeconds: number, cpuSeconds: number }} whole
 */
export function stepTable(rows, whole) {
  const width = Math.max(...rows.map((row) => row.name.length), 'whole run'.length);
  const line = (name, outcome, wall, cpu) =>
    `${name.padEnd(width)}  ${outcome.padEnd(7)}  ${wall.toFixed(1).padStart(7)}  ${cpu
      .toFixed(1)
      .padStart(7)}  ${(wall > 0 ? cpu / wall : 0).toFixed(2).padStart(8)}`;
  return [
    `${'step'.padEnd(width)}  ${'outcome'.padEnd(7)}  ${'wall s'.padStart(7)}  ${'CPU s'.padStart(7)}  ${'CPU/wall'.padStart(8)}`,
    ...rows.map((row) => line(row.name, row.outcome, row.wallSeconds, row.cpuSeconds)),
    line('whole run', '', whole.wallSeconds, whole.cpuSeconds),
  ].join('\n');
}
