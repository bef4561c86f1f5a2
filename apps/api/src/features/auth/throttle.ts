import type { Executor } from '../../db/client.ts';
import type { AppContext } from '../../lib/context.ts';
import { tooManyRequests } from '../../lib/errors.ts';
import { verifyAgainstDummy, verifyPassword } from './password-hash.ts';
import { clearAttempts, releaseAttempt, reserveAttempt, secondsUntilWindowEnds } from './throttle.repo.ts';

/**
 * Brute-force protection for sign-in: failed attempts are counted per account (the lower-cased e-mail,
 * whether or not such an account exists) and per client address, in fixed windows of
 * LOGIN_THROTTLE_WINDOW seconds.
 *
 * An attempt is counted *before* the password is hashed and handed back when it succeeds. Counting
 * only after a failure would let a burst of parallel guesses all pass the check before the first
 * failure was written.
 */
interface LoginAttempt {
  accountKey: string;
  addressKey: string;
}

const addressKeyOf = (ip: string) => `address:${ip}`;

function attemptKeys(email: string, ip: string): LoginAttempt {
  return { accountKey: `account:${email.trim().toLowerCase()}`, addressKey: addressKeyOf(ip) };
}

/** Counts an attempt under `key`, or throws 429 with Retry-After when the key is over `max` in the window. */
export async function reserveOrRefuse(db: Executor, key: string, max: number, window: number): Promise<void> {
  if (!(await reserveAttempt(db, key, max, window))) {
    throw tooManyRequests(await secondsUntilWindowEnds(db, key, window));
  }
}

/** Counts the attempt, or throws 429 with Retry-After when the account or the address is over its limit. */
async function beginLoginAttempt(ctx: AppContext, attempt: LoginAttempt): Promise<void> {
  const { config, db } = ctx;
  const window = config.LOGIN_THROTTLE_WINDOW;
  await reserveOrRefuse(db, attempt.addressKey, config.LOGIN_MAX_FAILURES_PER_ADDRESS, window);
  if (!(await reserveAttempt(db, attempt.accountKey, config.LOGIN_MAX_FAILURES_PER_ACCOUNT, window))) {
    await releaseAttempt(db, attempt.addressKey);
    throw tooManyRequests(await secondsUntilWindowEnds(db, attempt.accountKey, window));
  }
}

/** A successful sign-in: the account starts afresh and the address gets its attempt back. */
async function succeedLoginAttempt(ctx: AppContext, attempt: LoginAttempt): Promise<void> {
  await clearAttempts(ctx.db, attempt.accountKey);
  await releaseAttempt(ctx.db, attempt.addressKey);
}

/**
 * One password guess for the account of `email`, counted against its throttle and the client's
 * address (429 when over): true when `passwordHash` matches. Without a hash (no account, deactivated,
 * no password yet) the guess is checked against the dummy at the same cost, so the timing tells
 * nothing. A match hands the attempt back.
 */
export async function guessPassword(
  ctx: AppContext,
  guess: { email: string; ip: string; password: string },
  passwordHash: string | null,
): Promise<boolean> {
  const attempt = attemptKeys(guess.email, guess.ip);
  await beginLoginAttempt(ctx, attempt);
  const matches = passwordHash
    ? await verifyPassword(passwordHash, guess.password)
    : await verifyAgainstDummy(guess.password);
  if (matches) await succeedLoginAttempt(ctx, attempt);
  return matches;
}

/**
 * A sign-in that names no account up front (Google's): counted against the client address only, in
 * the same counter as e-mail sign-ins. Returns the key to hand back with `releaseAddressAttempt`.
 */
export async function beginAddressAttempt(ctx: AppContext, ip: string): Promise<string> {
  const { config, db } = ctx;
  const key = addressKeyOf(ip);
  await reserveOrRefuse(db, key, config.LOGIN_MAX_FAILURES_PER_ADDRESS, config.LOGIN_THROTTLE_WINDOW);
  return key;
}

/** The attempt was not a failure of the caller's (a success, or the provider was down). */
export async function releaseAddressAttempt(ctx: AppContext, key: string): Promise<void> {
  await releaseAttempt(ctx.db, key);
}
