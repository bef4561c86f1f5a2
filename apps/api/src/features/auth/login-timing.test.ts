import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { createUser } from '../../../test/factories.ts';

/**
 * A failed sign-in takes as long whether or not the e-mail has an account (docs/auth.md, "Signing
 * in"): every failure spends one argon2id hash of the same cost, the account's own or a fixed dummy.
 *
 * Measured on the shared 2-core box: with the dummy, the medians of the other kinds over a wrong
 * password's were 0.73–1.25 (0.73 only while other test runs loaded the box); with the dummy check
 * taken out, 0.23–0.33. The bounds sit between, with room for load, and a run that falls outside
 * is measured once more (`retry`), as a burst of load elsewhere rarely lasts through two runs.
 */
const ROUNDS = 21;
const WARM_UP_ROUNDS = 3;
/** Median of a kind of failure ÷ median of a wrong password for a real account. */
const MIN_RATIO = 0.6;
const MAX_RATIO = 1 / MIN_RATIO;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

describe.each(['/api/Auth/Token/', '/api/Auth/Email/Login/'])('POST %s: timing of failures', (path) => {
  let t: TestApp;
  beforeAll(async () => {
    // Every attempt comes from one address, and each kind reuses one e-mail: keep the throttle away,
    // so each answer is the 401 of a checked password, never a cheap 429.
    t = await createTestApp({
      env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000', LOGIN_MAX_FAILURES_PER_ADDRESS: '1000' },
    });
  });
  afterAll(() => t.close());

  it(
    'takes as long for an unknown e-mail, a deactivated account or one without a password as for a wrong password',
    { retry: 1 },
    async () => {
      const known = await createUser(t);
      const inactive = await createUser(t, { isActive: false });
      const noPassword = await createUser(t, { password: null });
      const kinds = {
        wrongPassword: known.email,
        unknownEmail: `nobody-${known.id}@example.test`,
        deactivated: inactive.email,
        noPassword: noPassword.email,
      };
      const names = Object.keys(kinds) as (keyof typeof kinds)[];
      const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
        keyof typeof kinds,
        number[]
      >;
      for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++) {
        // Interleaved, each round starting with another kind, so a burst of load elsewhere on the box
        // falls on every kind alike.
        for (let i = 0; i < names.length; i++) {
          const name = names[(round + i) % names.length]!;
          const started = performance.now();
          const res = await call(t, 'POST', path, {
            body: { email: kinds[name], password: 'not-the-password-71' },
          });
          const elapsed = performance.now() - started;
          expect(res.status, name).toBe(401);
          if (round >= WARM_UP_ROUNDS) times[name].push(elapsed);
        }
      }
      const reference = median(times.wrongPassword);
      const ratios = Object.fromEntries(names.map((name) => [name, median(times[name]) / reference]));
      for (const name of names) {
        expect(ratios[name], `${name}: ${JSON.stringify(ratios)}`).toBeGreaterThan(MIN_RATIO);
        expect(ratios[name], `${name}: ${JSON.stringify(ratios)}`).toBeLessThan(MAX_RATIO);
      }
    },
  );
});
