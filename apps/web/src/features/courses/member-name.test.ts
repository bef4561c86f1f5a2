import { describe, expect, it } from 'vitest';
import { memberName } from './member-name.ts';

describe('memberName', () => {
  const james = { first_name: 'James', last_name: 'Wilson', email: 'j@example.com' };
  const hina = { first_name: '陽菜', last_name: '鈴木', email: 'h@example.com' };

  it('puts the family name first in Japanese, whatever the script', () => {
    expect(memberName(james, 'ja')).toBe('Wilson James');
    expect(memberName(hina, 'ja')).toBe('鈴木 陽菜');
  });

  it('puts the given name first in English, but a name in kanji or kana family first', () => {
    expect(memberName(james, 'en-US')).toBe('James Wilson');
    // "陽菜 鈴木" is how no one writes a kanji name, in any language.
    expect(memberName(hina, 'en-US')).toBe('鈴木 陽菜');
    expect(memberName({ first_name: 'ひな', last_name: 'すずき', email: 'k@example.com' }, 'en-US')).toBe(
      'すずき ひな',
    );
    expect(memberName({ first_name: 'Hina', last_name: 'Suzuki', email: 's@example.com' }, 'en-US')).toBe(
      'Hina Suzuki',
    );
  });

  it('leaves out a missing part and falls back to the e-mail', () => {
    expect(memberName({ first_name: '', last_name: 'Wilson', email: 'w@example.com' }, 'ja')).toBe('Wilson');
    expect(memberName({ first_name: '', last_name: '', email: 'x@example.com' }, 'en-US')).toBe(
      'x@example.com',
    );
  });
});
