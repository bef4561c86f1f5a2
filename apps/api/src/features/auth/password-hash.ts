import { hash, verify } from '@node-rs/argon2';

/** argon2id at OWASP's first recommended setting: 19 MiB, 2 passes, 1 lane (about 12 ms here). */
const OPTIONS = {
  algorithm: 2 /* Argon2id; the enum is a const enum we cannot import */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | null = null;
/**
 * A hash of a password nobody has, made once per process with the same algorithm and cost as real
 * ones. Called when the routes are registered, so even the first failed sign-in does not pay for it.
 */
export function prepareDummyHash(): Promise<string> {
  dummyHash ??= hashPassword('dummy password that matches nothing');
  return dummyHash;
}

/**
 * Spends the same time as a real check, so an unknown e-mail, a deactivated account or one without a
 * password cannot be told apart by timing (login-timing.test.ts measures it).
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await verifyPassword(await prepareDummyHash(), password);
  return false;
}
