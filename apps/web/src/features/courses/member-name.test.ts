import { describe, expect, it } from 'vitest';
import { memberName } from './member-name.ts';

describe('memberName', () => {
  const james = { first_name: 'James', last_name: 'Wilson', email: 'j@example.com' };
  const taro = { first_name: '太郎', last_name: '山田', email: 't@example.com' };

  it('puts the family name first in Japanese and for East Asian names', () => {
    expect(memberName(james, 'ja')).toBe('Wilson James');
    expect(memberName(taro, 'ja')).toBe('山田 太郎');
    expect(memberName(taro, 'en-US')).toBe('山田 太郎');
  });

  it('puts the given name first for other names in English', () => {
    expect(memberName(james, 'en-US')).toBe('James Wilson');
  });

  it('falls back to the e-mail', () => {
    expect(memberName({ first_name: '', last_name: '', email: 'x@example.com' }, 'en-US')).toBe(
      'x@example.com',
    );
  });
});
