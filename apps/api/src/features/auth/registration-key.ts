import type { Config } from '../../config.ts';
import { decodeUid, encodeUid, linkSignature, signaturesMatch } from './set-password-link.ts';

/** A verification link works this long (and a new one can be asked for with resend-email). */
export const EMAIL_VERIFICATION_LIFETIME_SECONDS = 3 * 86_400;

/**
 * What a verification key is bound to: the account, its e-mail and its password. A newer registration
 * of the same pending account (a new password) or a changed e-mail kills the older keys.
 */
export interface KeySubject {
  id: number;
  email: string;
  passwordHash: string | null;
}

function signature(config: Config, user: KeySubject, issuedAt: number): string {
  return linkSignature(config, [
    'verify-email',
    user.id,
    user.email.toLowerCase(),
    user.passwordHash ?? '',
    issuedAt,
  ]);
}

/** `uid.issued.signature`: URL-safe, so it travels as `?key=` unescaped. */
export function createVerificationKey(config: Config, user: KeySubject, now = new Date()): string {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return `${encodeUid(user.id)}.${issuedAt.toString(36)}.${signature(config, user, issuedAt)}`;
}

export function verificationUrl(config: Config, key: string): string {
  return `${config.publicUrl}/verify-email?key=${encodeURIComponent(key)}`;
}

export interface ParsedKey {
  userId: number;
  issuedAt: number;
  signature: string;
}

/** The parts of a well-formed key, or null. */
export function parseVerificationKey(key: string): ParsedKey | null {
  const match = /^([A-Za-z0-9_-]{1,16})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{32})$/.exec(key);
  if (!match) return null;
  const userId = decodeUid(match[1]!);
  if (userId === null) return null;
  return { userId, issuedAt: Number.parseInt(match[2]!, 36), signature: match[3]! };
}

/** Whether the key was signed for this account as it is now (expiry is checked on its own). */
export function isKeySignedFor(config: Config, user: KeySubject, key: ParsedKey): boolean {
  return signaturesMatch(signature(config, user, key.issuedAt), key.signature);
}

export function isKeyExpired(key: ParsedKey, now = new Date()): boolean {
  const age = Math.floor(now.getTime() / 1000) - key.issuedAt;
  return age < 0 || age > EMAIL_VERIFICATION_LIFETIME_SECONDS;
}
