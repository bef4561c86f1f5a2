import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SetPasswordLink } from '@kadai/contracts';
import type { Config } from '../../config.ts';

/** What a link is bound to: it dies when the password changes (like Django's reset tokens). */
export interface LinkSubject {
  id: number;
  passwordHash: string | null;
  passwordChangedAt: Date;
}

export function encodeUid(userId: number): string {
  return Buffer.from(String(userId)).toString('base64url');
}

export function decodeUid(uid: string): number | null {
  const text = Buffer.from(uid, 'base64url').toString('utf8');
  if (!/^\d{1,10}$/.test(text)) return null;
  const id = Number(text);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}

/** A 32-character HMAC of `parts` joined by `|`, keyed with JWT_SECRET: the signature of our e-mailed links. */
export function linkSignature(config: Config, parts: readonly (string | number)[]): string {
  return createHmac('sha256', config.JWT_SECRET).update(parts.join('|')).digest('base64url').slice(0, 32);
}

/** Compares a given signature with the expected one in constant time. */
export function signaturesMatch(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function signature(config: Config, user: LinkSubject, issuedAt: number): string {
  return linkSignature(config, [
    'set-password',
    user.id,
    user.passwordHash ?? '',
    user.passwordChangedAt.getTime(),
    issuedAt,
  ]);
}

/** A link to the SetPassword page with `uid` and `token`, valid for SET_PASSWORD_LINK_LIFETIME. */
export function createSetPasswordLink(config: Config, user: LinkSubject, now = new Date()): SetPasswordLink {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const uid = encodeUid(user.id);
  const token = `${issuedAt.toString(36)}-${signature(config, user, issuedAt)}`;
  const url = `${config.publicUrl}/set-password?uid=${encodeURIComponent(uid)}&token=${encodeURIComponent(token)}`;
  const expiresAt = new Date((issuedAt + config.SET_PASSWORD_LINK_LIFETIME) * 1000);
  return { uid, token, url, expires_at: expiresAt.toISOString() };
}

/** True when `token` was made for this user's current password and has not expired. */
export function checkSetPasswordToken(
  config: Config,
  user: LinkSubject,
  token: string,
  now = new Date(),
): boolean {
  const match = /^([0-9a-z]{1,10})-([A-Za-z0-9_-]{32})$/.exec(token);
  if (!match) return false;
  const issuedAt = Number.parseInt(match[1]!, 36);
  const age = Math.floor(now.getTime() / 1000) - issuedAt;
  if (age < 0 || age > config.SET_PASSWORD_LINK_LIFETIME) return false;
  return signaturesMatch(signature(config, user, issuedAt), match[2]!);
}
