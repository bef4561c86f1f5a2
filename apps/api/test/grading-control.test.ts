// Who may write a result: a re-grade or a cancel during a run, a grader without a sandbox, a sandbox
// that fails on the grader's side. The real sandbox runs the code; a gate holds runs where a test
// needs an attempt to stay in flight.
import { runSandboxed, type SandboxRequest } from '@kadai/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueGrading } from '../src/features/submissions/grading.ts';
import { call, createTestApp, type TestApp } from './harness.ts';
import {
  createGradingWorld,
  createSubmission,
  evaluationsOf,
  submissionState,
  waitForSubmission,
} from './grading-fixtures.ts';

type Outcome = { submissionId: number; outcome: string };

/**
 * Runs wait while the gate is closed. `passNew()` lets later runs through while the held ones keep
 * waiting; `open()` lets everything go.
 */
function gate() {
  let release: () => void = () => {};
  let closed: Promise<void> | null = null;
  let held = 0;
  return {
    close() {
      closed = new Promise((resolve) => (release = resolve));
    },
    passNew() {
      closed = null;
    },
    open() {
      closed = null;
      release();
    },
    get held() {
      return held;
    },
    async run(request: SandboxRequest) {
      const wait = closed;
      if (wait) {
        held += 1;
        await wait;
      }
      return runSandboxed(request);
    },
  };
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('attempts that lose the submission', () => {
  let t: TestApp;
  const runs = gate();
  const outcomes: Outcome[] = [];
  beforeAll(async () => {
    t = await createTestApp({
      grader: {
        concurrency: 4,
        runSandboxed: (request) => runs.run(request),
        onOutcome: (submissionId, outcome) => outcomes.push({ submissionId, outcome }),
      },
    });
  });
  afterAll(async () => {
    runs.open();
    await t.close();
  });

  it('a re-grade during a run stores only the newest attempt', async () => {
    const world = await createGradingWorld(t, [{ stdin: '3', expected_stdout: '10', points: 2 }]);
    const id = await createSubmission(t, world, { 'main.py': 'x = int(input())\nprint(x * x)\n' });
    runs.close();
    await enqueueGrading(t.ctx, [id]);
    const first = await waitForSubmission(t, id, (s) => s.status === 'Executing');
    await until(() => runs.held > 0, 'the first attempt to reach the sandbox');
    // The editor fixes the test (the first attempt has already read the wrong one) and re-grades
    // while the first attempt is still running; the new attempt runs, the first stays held.
    await t.database.query(`UPDATE test_cases SET expected_stdout = '9', points = 5 WHERE id = $1`, [
      world.testCaseIds[0],
    ]);
    runs.passNew();
    await enqueueGrading(t.ctx, [id]);
    const done = await waitForSubmission(t, id, (s) => s.status === 'Completed' && s.grading_attempts === 2);
    expect(done.grading_token).not.toBe(first.grading_token);
    expect(done).toMatchObject({ score: 5 });
    // Now the first attempt finishes (Wrong against the old expected output) and tries to store it.
    runs.open();
    await until(() => outcomes.filter((o) => o.submissionId === id).length === 2, 'both attempts to end');
    expect(
      outcomes
        .filter((o) => o.submissionId === id)
        .map((o) => o.outcome)
        .sort(),
    ).toEqual(['completed', 'stale']);
    expect(await submissionState(t, id)).toMatchObject({ status: 'Completed', score: 5, max_score: 5 });
    expect(await evaluationsOf(t, id)).toMatchObject([{ status: 'Correct', points: 5 }]);
  });

  it('a cancel during a run keeps the submission canceled and writes nothing', async () => {
    const world = await createGradingWorld(t, [{ expected_stdout: '1' }]);
    const id = await createSubmission(t, world, { 'main.py': 'print(1)\n' });
    const before = outcomes.length;
    runs.close();
    await enqueueGrading(t.ctx, [id]);
    await waitForSubmission(t, id, (s) => s.status === 'Executing');
    await until(() => runs.held > 0, 'the attempt to reach the sandbox');
    // What a cancel does: the row leaves Scheduled/Executing (it need not touch the token).
    await t.database.query(
      `UPDATE submissions SET status = 'Canceled', message = 'Canceled.' WHERE id = $1`,
      [id],
    );
    runs.open();
    await until(() => outcomes.slice(before).some((o) => o.submissionId === id), 'the attempt to end');
    expect(outcomes.slice(before).find((o) => o.submissionId === id)!.outcome).toBe('stale');
    expect(await submissionState(t, id)).toMatchObject({
      status: 'Canceled',
      message: 'Canceled.',
      score: null,
    });
    expect(await evaluationsOf(t, id)).toEqual([]);
  });
});

describe('a grader whose sandbox fails', () => {
  let t: TestApp;
  let failing = true;
  beforeAll(async () => {
    t = await createTestApp({
      grader: {
        runSandboxed: async (request) => {
          if (failing) throw new Error('Sandbox unavailable: cannot start bwrap');
          return runSandboxed(request);
        },
      },
    });
  });
  afterAll(() => t.close());

  it('gives the submission back for a retry, then records InternalError after the last one', async () => {
    const world = await createGradingWorld(t, [{ expected_stdout: '1' }]);
    const id = await createSubmission(t, world, { 'main.py': 'print(1)\n' });
    // Retries come quickly here so the test does not wait for pg-boss's real back-off.
    await t.database.query(`UPDATE submissions SET status = 'Scheduled', queued_at = now() WHERE id = $1`, [
      id,
    ]);
    await t.ctx.jobs.send('grading', { submissionId: id }, { retryLimit: 2, retryDelay: 1 });
    const retried = await waitForSubmission(
      t,
      id,
      (s) => s.grading_attempts >= 1 && s.status === 'Scheduled',
    );
    expect(retried.message).toMatch(/will be retried/);
    const failed = await waitForSubmission(t, id, (s) => s.status === 'InternalError', 30_000);
    expect(failed.grading_attempts).toBe(3);
    expect(failed.message).toMatch(/not because of the submission: Sandbox unavailable: cannot start bwrap/);
    expect(await evaluationsOf(t, id)).toEqual([]);
  });

  it('grades normally again once the sandbox works', async () => {
    failing = false;
    const world = await createGradingWorld(t, [{ expected_stdout: '1' }]);
    const id = await createSubmission(t, world, { 'main.py': 'print(1)\n' });
    await enqueueGrading(t.ctx, [id]);
    expect(await waitForSubmission(t, id)).toMatchObject({ status: 'Completed', score: 1 });
  });
});

describe('a grader without a sandbox', () => {
  let t: TestApp;
  let available = false;
  beforeAll(async () => {
    t = await createTestApp({
      grader: {
        probeSandbox: async () =>
          available
            ? { ok: true, detail: 'bubblewrap 0.8.0' }
            : {
                ok: false,
                detail: 'Sandbox unavailable: missing bubblewrap (apt-get install -y bubblewrap).',
              },
      },
    });
  });
  afterAll(() => t.close());

  it('runs nothing: submissions stay Scheduled and say why, and health says so', async () => {
    const world = await createGradingWorld(t, [{ expected_stdout: '1' }]);
    const id = await createSubmission(t, world, { 'main.py': 'print(1)\n' });
    await enqueueGrading(t.ctx, [id]);
    const waiting = await waitForSubmission(t, id, (s) => s.message !== '');
    expect(waiting).toMatchObject({ status: 'Scheduled', grading_attempts: 0, score: null });
    expect(waiting.message).toMatch(/^Waiting for a grader with a sandbox/);
    const health = await call(t, 'GET', '/api/health');
    expect(health.json.sandbox).toMatchObject({ ok: false, detail: expect.stringMatching(/bubblewrap/) });
    const { rows } = await t.database.query('SELECT sandbox_ok FROM grader_hosts WHERE id = $1', [
      t.grader!.id,
    ]);
    expect(rows[0]).toMatchObject({ sandbox_ok: false });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await submissionState(t, id)).toMatchObject({ status: 'Scheduled', grading_attempts: 0 });

    // bubblewrap is installed: the next sweep notices, and the queued submission is graded.
    available = true;
    expect(await waitForSubmission(t, id)).toMatchObject({ status: 'Completed', score: 1, message: '' });
    expect((await call(t, 'GET', '/api/health')).json.sandbox).toMatchObject({ ok: true });
  });

  it('stops taking work when the sandbox breaks, and resumes when it is back', async () => {
    available = false;
    await until(
      async () => (await call(t, 'GET', '/api/health')).json.sandbox !== undefined && !t.grader!.sandbox.ok,
      'the grader to notice',
    );
    const world = await createGradingWorld(t, [{ expected_stdout: '1' }]);
    const id = await createSubmission(t, world, { 'main.py': 'print(1)\n' });
    await enqueueGrading(t.ctx, [id]);
    const waiting = await waitForSubmission(t, id, (s) => s.message !== '');
    expect(waiting).toMatchObject({ status: 'Scheduled', grading_attempts: 0 });
    available = true;
    expect(await waitForSubmission(t, id)).toMatchObject({
      status: 'Completed',
      score: 1,
      grading_attempts: 1,
    });
  });
});
