import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../harness.ts';
import { createFuzzWorld, fuzzOperation, type FuzzWorld } from './fuzz.ts';

/**
 * The fuzzer finds what it is for: a bug planted in the database (a trigger that fails on some input,
 * as a column too narrow or a constraint the code does not expect would) turns into a failing test,
 * and a write it did not expect is seen.
 */
let t: TestApp;
let world: FuzzWorld;

beforeAll(async () => {
  t = await createTestApp({ jobs: true, env: { SESSION_CACHE_SECONDS: '0' } });
  world = await createFuzzWorld(t);
});
afterAll(async () => {
  await t?.close();
});

const operation = (method: string, path: string) => {
  const op = world.operations.find((candidate) => candidate.method === method && candidate.path === path);
  if (!op) throw new Error(`${method} ${path} is not in the document`);
  return op;
};

describe('a planted bug', () => {
  it('is found: a post whose title has a digit makes the database fail, and the run fails with 500', async () => {
    await t.database.query(`
      CREATE FUNCTION planted_bug() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.title ~ '[0-9]' THEN RAISE EXCEPTION 'planted bug'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER planted_bug BEFORE INSERT OR UPDATE ON forum_records
        FOR EACH ROW EXECUTE FUNCTION planted_bug();`);
    try {
      await expect(
        fuzzOperation(world, operation('POST', '/api/Forum/Record/'), { seed: 1, runs: 6 }),
      ).rejects.toThrow(/POST \/api\/Forum\/Record\/ as \w+: answered 500/);
    } finally {
      await t.database.query(`DROP TRIGGER planted_bug ON forum_records; DROP FUNCTION planted_bug();`);
    }
    // Without it, the same run passes.
    await expect(
      fuzzOperation(world, operation('POST', '/api/Forum/Record/'), { seed: 1, runs: 6 }),
    ).resolves.toBeGreaterThan(0);
  });

  it('is seen when a request changes the database: the fingerprint moves with any row', async () => {
    const before = await world.fingerprint.now();
    expect(await world.fingerprint.now()).toBe(before);
    await t.database.query(`UPDATE courses SET description = description || '.' WHERE id = 1`);
    expect(await world.fingerprint.now()).not.toBe(before);
  });
});
