import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { NotificationKind } from '@kadai/contracts';

/*
 * The signed token of an e-mail's unsubscribe link (RFC 8058 one-click, docs/notifications.md,
 * "Unsubscribe"): whose e-mail it is, what it turns off (one kind, one course's, or all) and when it was
 * issued, signed with HMAC-SHA256 under a key derived from JWT_SECRET for this use alone. It needs no
 * sign-in and does not expire: an unsubscribe link must keep working in an old e-mail. Whoever holds it
 * can only turn that person's e-mails off, which the mailbox owner may do anyway.
 */

export type UnsubscribeScope =
  { type: 'kind'; kind: NotificationKind } | { type: 'course'; courseId: number } | { type: 'all' };

export interface UnsubscribeClaim {
  userId: number;
  scope: UnsubscribeScope;
  /** Seconds since the epoch. */
  issuedAt: number;
}

const keys = new Map<string, Buffer>();

/** The signing key: derived from JWT_SECRET (HKDF-SHA256), so a token of one use is no token of another. */
function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'kadai', 'notification unsubscribe v1', 32));
    keys.set(secret, key);
  }
  return key;
}

function scopeText(scope: UnsubscribeScope): string {
  if (scope.type === 'kind') return `k:${scope.kind}`;
  if (scope.type === 'course') return `c:${scope.courseId}`;
  return 'all';
}

const mac = (secret: string, body: string) => createHmac('sha256', keyOf(secret)).update(body).digest();

/** `<base64url of "v1|user|scope|issued">.<base64url of its HMAC>`. */
export function signUnsubscribeToken(secret: string, claim: UnsubscribeClaim): string {
  const body = `v1|${claim.userId}|${scopeText(claim.scope)}|${claim.issuedAt}`;
  return `${Buffer.from(body).toString('base64url')}.${mac(secret, body).toString('base64url')}`;
}

const TOKEN = /^([A-Za-z0-9_-]{1,200})\.([A-Za-z0-9_-]{43})$/;
const BODY = /^v1\|([1-9][0-9]{0,9})\|(k:([a-z_]{1,40})|c:([1-9][0-9]{0,9})|all)\|([0-9]{1,12})$/;
const MAX_ID = 2_147_483_647;

/** The token's claim, or null for a forged, truncated, altered or malformed one. */
export function readUnsubscribeToken(secret: string, token: string): UnsubscribeClaim | null {
  const parts = TOKEN.exec(token);
  if (!parts) return null;
  const body = Buffer.from(parts[1]!, 'base64url').toString('utf8');
  // Compared as text, not as decoded bytes: base64url's spare bits would let two spellings pass.
  if (Buffer.from(body).toString('base64url') !== parts[1]) return null;
  const given = Buffer.from(parts[2]!);
  const expected = Buffer.from(mac(secret, body).toString('base64url'));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  // Signed by us, so well formed; checked all the same, as if it were not.
  const fields = BODY.exec(body);
  if (!fields) return null;
  const userId = Number(fields[1]);
  if (userId > MAX_ID) return null;
  const issuedAt = Number(fields[5]);
  if (fields[2] === 'all') return { userId, scope: { type: 'all' }, issuedAt };
  if (fields[4] !== undefined) {
    const courseId = Number(fields[4]);
    return courseId > MAX_ID ? null : { userId, scope: { type: 'course', courseId }, issuedAt };
  }
  const kind = NotificationKind.safeParse(fields[3]);
  return kind.success ? { userId, scope: { type: 'kind', kind: kind.data }, issuedAt } : null;
}

/** The path of the one-click unsubscribe (RFC 8058): mail clients POST to it, GET only describes. */
export const UNSUBSCRIBE_API_PATH = '/api/Notification/unsubscribe/';
/** The web page that shows what a link turns off and turns it off on a click (for people, not clients). */
export const UNSUBSCRIBE_PAGE_PATH = '/unsubscribe';
/** The web page of a person's notification settings. */
export const SETTINGS_PAGE_PATH = '/notifications/settings';

export interface UnsubscribeLinks {
  /** For List-Unsubscribe: a POST turns the scope off at once. */
  oneClick: string;
  /** For the body of the e-mail: a page that asks first. */
  page: string;
}

export function unsubscribeLinks(
  config: { JWT_SECRET: string; publicUrl: string },
  userId: number,
  scope: UnsubscribeScope,
  now: Date,
): UnsubscribeLinks {
  const token = signUnsubscribeToken(config.JWT_SECRET, {
    userId,
    scope,
    issuedAt: Math.floor(now.getTime() / 1000),
  });
  return {
    oneClick: `${config.publicUrl}${UNSUBSCRIBE_API_PATH}?token=${token}`,
    page: `${config.publicUrl}${UNSUBSCRIBE_PAGE_PATH}?token=${token}`,
  };
}
