// A grader that loses the database in the middle of an attempt holds its result and writes it when the
// database is back, and one whose hand-back fails too leaves nothing stranded: the submission is graded
// once either way (docs/deploy.md, "Faults"). The outage is a wrapper over the grader's SQL client that
// refuses every statement, as node-postgres does when the server is gone.
import { startGrader, type Grader, type GraderOptions } from '@kadai/grader/worker';
import { runSandboxed, type SandboxRequest, type SandboxResult } from '@kadai/sandbox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enqueueGrading } from '../src/features/submissions/grading.ts';
import { createTestApp, type TestApp } from './harness.ts';
import {
  createGradingWorld,
  createSubmission,
  evaluationsOf,
  waitForSubmission,
  type TestCaseFields,
} from './grading-fixtures.ts';

const SQUARE = 'x = int(input())\nprint(x * x)\n';
const TESTS: TestCaseFields[] = [2, 3].map((x) => ({
  stdin: `${x}`,
  expected_stdout: `${x * x}`,
  points: x,
}));
const quiet = { info() {}, warn() {}, error() {} };

/** The server's refusal while it is away, as node-postgres reports it. */
const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('a grader whose database goes away during an attempt', () => {
  let t: TestApp;
  const graders: Grader[] = [];
  beforeAll(async () => {
    t = await createTestApp({ jobs: true });
  });
  afterEach(async () => {
    for (const grader of graders.splice(0)) await grader.stop();
  });
  afterAll(() => t.close());

  /** The app's database behind a switch: while `down`, every statement is refused. */
  function switchable(): { sql: GraderOptions['sql']; setDown(down: boolean): void; refusals(): number } {
    let down = false;
    let refusals = 0;
    const gate = () => {
      if (!down) return;
      refusals += 1;
      throw refused();
    };
    return {
      sql: {
        query: async (text, values) => (gate(), t.database.query(text, values)),
        transaction: async (fn) => (gate(), t.database.transaction(fn)),
      },
      setDown: (value) => (down = value),
      refusals: () => refusals,
    };
  }

  it('stores the result once the database is back, and grades the submission once', async () => {
    const world = await createGradingWorld(t, TESTS);
    const id = await createSubmission(t, world, { 'main.py': SQUARE });
    const db = switchable();
    let runs = 0;
    const grader = await startGrader({
      sql: db.sql,
      jobs: t.ctx.jobs,
      readAttachment: (key) => t.ctx.storage.read(key),
      log: quiet,
      concurrency: 2,
      heartbeatMs: 200,
      sweepMs: 400,
      staleAfterMs: 30_000,
      // The database goes away while the tests run and comes back 1.5 s later.
      runSandboxed: async (request: SandboxRequest): Promise<SandboxResult> => {
        runs += 1;
        if (runs === 1) {
          db.setDown(true);
          setTimeout(() => db.setDown(false), 1500);
        }
        return runSandboxed(request);
      },
    });
    graders.push(grader);
    await enqueueGrading(t.ctx, [id]);
    const done = await waitForSubmission(t, id, (s) => s.status === 'Completed', 30_000);
    expect(db.refusals()).toBeGreaterThan(0);
    expect(done).toMatchObject({ score: 5, max_score: 5, grading_attempts: 1 });
    expect(await evaluationsOf(t, id)).toHaveLength(TESTS.length);
  });
});
