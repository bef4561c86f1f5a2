import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../harness.ts';
import { createFuzzWorld, fuzzOperation } from './fuzz.ts';

/**
 * Every operation of the OpenAPI document, fuzzed as every caller (docs/development.md, "Fuzzing").
 * FUZZ_SEED replays a run; FUZZ_RUNS sets the random requests per operation and caller (default 6;
 * with the targeted pass about 10,000 requests in all); FUZZ_SHRINK=true shrinks a failure.
 */
const seed = Number(process.env.FUZZ_SEED ?? 20_261_127);
const runs = Number(process.env.FUZZ_RUNS ?? 6);
const shrink = process.env.FUZZ_SHRINK === 'true';

// The document is the list of tests, so the app is built while the tests are collected: a new route is
// a new test without anyone adding a line. With the job queue, so that health is 200 (a stopped queue
// is a 503 by design); without the session cache, so that a session a request ended is ended at once.
const t = await createTestApp({ jobs: true, env: { SESSION_CACHE_SECONDS: '0' } });
const world = await createFuzzWorld(t);
let sent = 0;

afterAll(async () => {
  process.stdout.write(
    `fuzz: ${world.operations.length} operations, ${sent} requests, FUZZ_SEED=${seed} FUZZ_RUNS=${runs}\n`,
  );
  await t.close();
});

describe('every operation, every caller: generated, poisoned and broken requests', () => {
  it('reads the whole document', () => {
    expect(world.operations.length).toBeGreaterThan(150);
  });
  it.for(world.operations.map((op) => [`${op.method} ${op.path}`, op] as const))('%s', async ([, op]) => {
    sent += await fuzzOperation(world, op, { seed, runs, shrink });
  });
});
