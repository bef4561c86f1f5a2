// A grader that dies mid-run loses nothing: another grader notices the silent heartbeat, queues the
// submission again and grades it once; whatever the dead attempt might still write is discarded.
// On PGlite (one process) the "kill" is a grader that stops beating and hangs; on PostgreSQL a real
// `npm run grader` process is killed with SIGKILL.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGrader, type Grader } from '@kadai/grader/worker';
import { runSandboxed, type SandboxRequest, type SandboxResult } from '@kadai/sandbox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enqueueGrading } from '../src/features/submissions/grading.ts';
import { createTestApp, type TestApp } from './harness.ts';
import {
  createGradingWorld,
  createSubmission,
  evaluationsOf,
  submissionState,
  waitForSubmission,
  type TestCaseFields,
} from './grading-fixtures.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const SQUARE = 'import time\ntime.sleep(0.3)\nx = int(input())\nprint(x * x)\n';
const TESTS: TestCaseFields[] = [1, 2, 3, 4].map((x) => ({
  stdin: `${x}`,
  expected_stdout: `${x * x}`,
  points: x,
}));
const FAST = { heartbeatMs: 200, sweepMs: 400, staleAfterMs: 1500 };
const quiet = { info() {}, warn() {}, error() {} };

describe('a grader that dies during a run', () => {
  let t: TestApp;
  const graders: Grader[] = [];
  beforeAll(async () => {
    t = await createTestApp({ jobs: true });
  });
  afterEach(async () => {
    for (const grader of graders.splice(0)) await grader.stop();
  });
  afterAll(() => t.close());

  const start = (options: Partial<Parameters<typeof startGrader>[0]>) =>
    startGrader({
      sql: t.database,
      jobs: t.ctx.jobs,
      readAttachment: (key) => t.ctx.storage.read(key),
      log: quiet,
      concurrency: 2,
      ...FAST,
      ...options,
    }).then((grader) => (graders.push(grader), grader));

  it('is replaced by a live grader; the submission is graded once and the late write is discarded', async () => {
    const world = await createGradingWorld(t, TESTS);
    const id = await createSubmission(t, world, { 'main.py': SQUARE });

    // The victim hangs inside its sandbox runs; when finally let go it reports every test as passed
    // with a made-up output, which must never reach the database.
    let letGo: () => void = () => {};
    const hang = new Promise<void>((resolve) => (letGo = resolve));
    const victimOutcomes: string[] = [];
    const victim = await start({
      hostId: 'victim',
      workers: 1,
      batchSize: 1,
      onOutcome: (_id, outcome) => victimOutcomes.push(outcome),
      runSandboxed: async (request: SandboxRequest): Promise<SandboxResult> => {
        await hang;
        if (request.argv?.includes('main.py')) {
          return { ...(await runSandboxed(request)), stdout: 'forged\n', exitCode: 0, limit: null };
        }
        return runSandboxed(request);
      },
    });
    await enqueueGrading(t.ctx, [id]);
    const taken = await waitForSubmission(t, id, (s) => s.status === 'Executing');
    expect(taken.grader_host).toBe(victim.id);
    expect(victim.id).toMatch(/^victim:\d+:[0-9a-f]{6}$/);
    victim.simulateCrash();

    const survivor = await start({ hostId: 'survivor' });
    const done = await waitForSubmission(t, id, (s) => s.status === 'Completed', 30_000);
    expect(done).toMatchObject({ grader_host: survivor.id, score: 10, max_score: 10, grading_attempts: 2 });
    expect(done.grading_token).not.toBe(taken.grading_token);
    expect(survivor.status().graded).toBe(1);

    letGo();
    const deadline = Date.now() + 15_000;
    while (victimOutcomes.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(victimOutcomes).toEqual(['stale']);
    const evaluations = await evaluationsOf(t, id);
    expect(evaluations).toHaveLength(TESTS.length);
    expect(new Set(evaluations.map((e) => e.test_case_id)).size).toBe(TESTS.length);
    expect(evaluations.map((e) => [e.status, e.stdout])).toEqual(
      [1, 4, 9, 16].map((square) => ['Correct', `${square}\n`]),
    );
    expect(await submissionState(t, id)).toMatchObject({
      status: 'Completed',
      score: 10,
      grading_attempts: 2,
    });
  });

  it('is restarted under the same GRADER_ID: the new process takes its work over within the stale time', async () => {
    // A supervisor restarting a grader keeps its name. Before incarnations, the newcomer's heartbeat
    // kept the dead process's attempts looking alive until GRADING_TIMEOUT (here 120 s).
    const world = await createGradingWorld(t, TESTS);
    const id = await createSubmission(t, world, { 'main.py': SQUARE });
    let letGo: () => void = () => {};
    const hang = new Promise<void>((resolve) => (letGo = resolve));
    const first = await start({
      hostId: 'grader-1',
      gradingTimeoutSeconds: 120,
      workers: 1,
      batchSize: 1,
      runSandboxed: async (request: SandboxRequest): Promise<SandboxResult> => {
        await hang;
        return runSandboxed(request);
      },
    });
    await enqueueGrading(t.ctx, [id]);
    const taken = await waitForSubmission(t, id, (s) => s.status === 'Executing');
    expect(taken.grader_host).toBe(first.id);
    first.simulateCrash();

    const again = await start({ hostId: 'grader-1', gradingTimeoutSeconds: 120 });
    expect(again.id).not.toBe(first.id);
    const done = await waitForSubmission(t, id, (s) => s.status === 'Completed', 30_000);
    expect(done).toMatchObject({ grader_host: again.id, score: 10, grading_attempts: 2 });
    const hosts = await t.database.query(`SELECT id, name FROM grader_hosts WHERE name = 'grader-1'`);
    expect(hosts.rows).toEqual([{ id: again.id, name: 'grader-1' }]);
    letGo();
  });

  // Only a server database can be shared with a second process; on PGlite the test above is the crash.
  if (process.env.TEST_DATABASE_URL) {
    it('kill -9 of a separate `npm run grader` process loses nothing', async () => {
      const world = await createGradingWorld(t, TESTS);
      const id = await createSubmission(t, world, { 'main.py': SQUARE });
      const child = await spawnGrader(t.databaseUrl!, 'doomed');
      try {
        await enqueueGrading(t.ctx, [id]);
        const taken = await waitForSubmission(t, id, (s) => s.status === 'Executing', 30_000);
        expect(taken.grader_host).toMatch(/^doomed:/);
        // Mid-run: one slot and four tests of at least 0.3 s each.
        await new Promise((resolve) => setTimeout(resolve, 400));
        expect((await submissionState(t, id)).status).toBe('Executing');
        child.kill('SIGKILL');
        await new Promise((resolve) => child.once('exit', resolve));

        const survivor = await start({ hostId: 'survivor' });
        const done = await waitForSubmission(t, id, (s) => s.status === 'Completed', 30_000);
        expect(done).toMatchObject({ grader_host: survivor.id, score: 10, grading_attempts: 2 });
        // The dead attempt's token is void: anything it had still written would match no row.
        expect(done.grading_token).not.toBe(taken.grading_token);
        const evaluations = await evaluationsOf(t, id);
        expect(evaluations).toHaveLength(TESTS.length);
        expect(evaluations.every((e) => e.status === 'Correct')).toBe(true);
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      // A process to start (up to 30 s on a busy box) and two waits of up to 30 s.
    }, 100_000);
  }
});

/** `npm run grader` as its own process (node + tsx directly, so SIGKILL reaches the grader itself). */
async function spawnGrader(databaseUrl: string, id: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/grader/src/main.ts')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      GRADER_ID: id,
      GRADER_CONCURRENCY: '1',
      GRADER_HEARTBEAT_SECONDS: '0.3',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`grader did not start:\n${output}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`grader exited with ${code}:\n${output}`)));
    child.stdout!.on('data', () => {
      // Its incarnation id is `${id}:pid:random` (docs/grading.md): the name is only its start.
      if (output.includes(`grader ${id}:`) && / ready: /.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return child;
}
