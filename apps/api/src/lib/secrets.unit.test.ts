import { describe, expect, it } from 'vitest';
import { seal, unseal } from './secrets.ts';

const secret = 'x'.repeat(40);

describe('sealed secrets', () => {
  it('round-trips, and every sealing differs', () => {
    const a = seal(secret, 'client-secret-値');
    expect(unseal(secret, a)).toBe('client-secret-値');
    expect(seal(secret, 'client-secret-値')).not.toBe(a);
    expect(a).not.toContain('client-secret');
  });

  it('refuses another server secret and a tampered value', () => {
    const a = seal(secret, 'hunter2');
    expect(unseal('y'.repeat(40), a)).toBeNull();
    const parts = a.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    expect(unseal(secret, [...parts.slice(0, 3), body.toString('base64url')].join('.'))).toBeNull();
    expect(unseal(secret, 'garbage')).toBeNull();
  });
});
