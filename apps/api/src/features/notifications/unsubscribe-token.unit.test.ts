import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readUnsubscribeToken, signUnsubscribeToken, type UnsubscribeClaim } from './unsubscribe-token.ts';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const claims: UnsubscribeClaim[] = [
  { userId: 12, scope: { type: 'kind', kind: 'announcement' }, issuedAt: 1_764_400_000 },
  { userId: 2_147_483_647, scope: { type: 'course', courseId: 3 }, issuedAt: 0 },
  { userId: 7, scope: { type: 'all' }, issuedAt: 1_764_400_000 },
];

describe('unsubscribe tokens', () => {
  it('read back what they were signed with', () => {
    for (const claim of claims) {
      const token = signUnsubscribeToken(SECRET, claim);
      expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
      expect(readUnsubscribeToken(SECRET, token)).toEqual(claim);
    }
  });

  it('refuse a token cut short, altered in one character, or signed with another key', () => {
    const token = signUnsubscribeToken(SECRET, claims[0]!);
    const refused = [
      token.slice(0, -1),
      token.slice(0, token.indexOf('.')),
      `${token}A`,
      ...[0, token.indexOf('.') - 1, token.indexOf('.') + 1, token.length - 1].map(
        (at) => token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1),
      ),
      signUnsubscribeToken('another-secret-that-is-long-enough-0123456789', claims[0]!),
      '',
      '.',
      'not a token',
    ];
    for (const bad of refused) expect(readUnsubscribeToken(SECRET, bad), bad).toBeNull();
  });

  it('refuse a well-signed body that is not a claim, and a claim signed with the raw secret', () => {
    const sign = (key: string | Buffer, body: string) =>
      `${Buffer.from(body).toString('base64url')}.${createHmac('sha256', key).update(body).digest('base64url')}`;
    // Signed with JWT_SECRET itself rather than the derived key: a token of another use.
    expect(readUnsubscribeToken(SECRET, sign(SECRET, 'v1|12|all|1'))).toBeNull();
    expect(readUnsubscribeToken(SECRET, 'eyJ1IjoxfQ.' + 'A'.repeat(43))).toBeNull();
  });
});
