import { afterEach, describe, expect, it, vi } from 'vitest';
import { signAccessToken, verifyAccessToken } from './tokens.ts';

const SECRET = 'unit-secret-unit-secret-unit-secret-0123456789';

describe('verifyAccessToken', () => {
  afterEach(() => vi.useRealTimers());

  it('still refuses a remembered token once it has expired', async () => {
    const token = await signAccessToken(SECRET, 60, { userId: 7, sessionId: 's-1' });
    expect(await verifyAccessToken(SECRET, token)).toEqual({ userId: 7, sessionId: 's-1' });
    expect(await verifyAccessToken(SECRET, token)).toEqual({ userId: 7, sessionId: 's-1' });
    vi.useFakeTimers({ now: Date.now() + 61_000 });
    expect(await verifyAccessToken(SECRET, token)).toBeNull();
  });

  it('does not take a token verified under one secret as valid under another', async () => {
    const token = await signAccessToken(SECRET, 60, { userId: 7, sessionId: 's-2' });
    expect(await verifyAccessToken(SECRET, token)).not.toBeNull();
    expect(await verifyAccessToken(`${SECRET}-other`, token)).toBeNull();
  });

  it('refuses a token whose signature was altered after a valid one was remembered', async () => {
    const token = await signAccessToken(SECRET, 60, { userId: 7, sessionId: 's-3' });
    expect(await verifyAccessToken(SECRET, token)).not.toBeNull();
    const [header, payload] = token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    expect(await verifyAccessToken(SECRET, forged)).toBeNull();
  });
});
