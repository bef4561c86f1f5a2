import { describe, expect, it } from 'vitest';
import { checkPasswordRules, oldPasswordMessage, quickRatio, similarityParts } from './password-rules.ts';

const TOO_SHORT = 'This password is too short. It must contain at least 8 characters.';
const TOO_COMMON = 'This password is too common.';
const NUMERIC = 'This password is entirely numeric.';

describe('quickRatio', () => {
  // Expected values computed with Python's difflib.SequenceMatcher(a=…, b=…).quick_ratio().
  it.each([
    ['john.smith', 'john.smith@example.com', 0.625],
    ['abcdefgh', 'hgfedcba', 1],
    ['smithjohn1', 'john', 0.5714285714285714],
    ['ééaa', 'aéé', 0.8571428571428571],
    ['', '', 1],
    ['abc', '', 0],
  ])('quickRatio(%j, %j) = %d', (a, b, expected) => {
    expect(quickRatio(a, b)).toBeCloseTo(expected, 12);
  });
});

describe('checkPasswordRules', () => {
  it('accepts a long, uncommon password', () => {
    expect(checkPasswordRules('correct-horse-battery-42', { email: 'ana@example.com' })).toEqual([]);
  });

  it('rejects a password under 8 characters, counting code points', () => {
    expect(checkPasswordRules('xQ7#kp2')).toEqual([TOO_SHORT]);
    // Eight characters outside the BMP are 16 UTF-16 units but 8 characters, as Python counts them.
    expect(checkPasswordRules('😀🐍🎉🚀🌸🍣🗻🎌')).toEqual([]);
    expect(checkPasswordRules('')).toContain(TOO_SHORT);
  });

  it('rejects common passwords whatever their case and surrounding spaces', () => {
    expect(checkPasswordRules('password')).toEqual([TOO_COMMON]);
    expect(checkPasswordRules('PassWord')).toEqual([TOO_COMMON]);
    expect(checkPasswordRules(' iloveyou ')).toEqual([TOO_COMMON]);
    expect(checkPasswordRules('baseball')).toEqual([TOO_COMMON]);
  });

  it('rejects entirely numeric passwords, including non-ASCII digits', () => {
    expect(checkPasswordRules('83920174659')).toEqual([NUMERIC]);
    expect(checkPasswordRules('１２３４５６７８９０１')).toContain(NUMERIC);
    expect(checkPasswordRules('8392017465x')).toEqual([]);
  });

  it('returns every message in Django order: similarity, length, common, numeric', () => {
    expect(checkPasswordRules('1234567', { email: '1234567@example.com' })).toEqual([
      'The password is too similar to the email address.',
      TOO_SHORT,
      TOO_COMMON,
      NUMERIC,
    ]);
    expect(checkPasswordRules('1234567')).toEqual([TOO_SHORT, TOO_COMMON, NUMERIC]);
  });

  it('rejects a password too similar to the whole e-mail or to its words', () => {
    const owner = { email: 'hanako.yamada@univ.example.jp' };
    expect(checkPasswordRules('hanako.yamada@univ', owner)).toEqual([
      'The password is too similar to the email address.',
    ]);
    expect(checkPasswordRules('Yamada2024', owner)).toEqual([
      'The password is too similar to the email address.',
    ]);
    expect(checkPasswordRules('blue-ocean-tractor', owner)).toEqual([]);
  });

  describe('against the e-mail’s local part and its pieces', () => {
    const owner = { email: 'hanako.yamada@example.ac.jp' };
    const SIMILAR = ['The password is too similar to the email address.'];

    it('compares with the local part whole, its words, the domain’s longer words and the address', () => {
      expect(similarityParts('email', 'Hanako.Yamada@Example.ac.jp')).toEqual([
        'hanako.yamada',
        'hanako',
        'yamada',
        'example',
        'hanako.yamada@example.ac.jp',
      ]);
      // Names are split into words the same way, without the local-part rule.
      expect(similarityParts('lastName', 'Yamada-Suzuki')).toEqual(['yamada', 'suzuki', 'yamada-suzuki']);
    });

    it('ignores pieces shorter than 3 characters', () => {
      expect(similarityParts('email', 'jo.li@u.ac.jp')).toEqual(['jo.li', 'jo.li@u.ac.jp']);
      expect(similarityParts('firstName', 'Li')).toEqual([]);
    });

    // quick_ratio against the local part "hanako.yamada": 0.96, 0.923, 0.963; against any one word
    // or the whole address at most 0.667, so Django's own parts alone would let these through.
    it.each(['hanakoyamada', 'yamada-hanako', 'Yamada.Hanako!', 'YamadaHanako1'])(
      'refuses %j, too close to the local part',
      (password) => {
        expect(checkPasswordRules(password, owner)).toEqual(SIMILAR);
      },
    );

    it('refuses a password too close to one piece of the local part', () => {
      // 0.706 against "hanako".
      expect(checkPasswordRules('hanako2024!', owner)).toEqual(SIMILAR);
    });

    it('accepts passwords that share only a little with the address', () => {
      expect(checkPasswordRules('kitsune-yamabuki', owner)).toEqual([]);
      expect(checkPasswordRules('blue-ocean-tractor', owner)).toEqual([]);
    });

    it('says it in Japanese too', () => {
      expect(checkPasswordRules('hanakoyamada', owner, 'ja')).toEqual([
        'このパスワードは メールアドレス と似すぎています。',
      ]);
    });
  });

  it('names the first similar attribute only, first name before last name before e-mail', () => {
    const owner = { email: 'taro@example.com', firstName: 'Alexandria', lastName: 'Montgomery' };
    expect(checkPasswordRules('alexandria1', owner)).toEqual([
      'The password is too similar to the first name.',
    ]);
    expect(checkPasswordRules('Montgomery!', owner)).toEqual([
      'The password is too similar to the last name.',
    ]);
  });

  it('ignores missing attributes', () => {
    expect(checkPasswordRules('Montgomery!', { email: null, firstName: '', lastName: undefined })).toEqual(
      [],
    );
  });
});

describe('password rule messages in Japanese', () => {
  it('uses Django’s Japanese translations', () => {
    expect(checkPasswordRules('12345', {}, 'ja')).toEqual([
      'このパスワードは短すぎます。最低 8 文字以上必要です。',
      'このパスワードは一般的すぎます。',
      'このパスワードは数字しか使われていません。',
    ]);
    expect(checkPasswordRules('taro.yamada.x', { email: 'taro.yamada@example.com' }, 'ja')[0]).toBe(
      'このパスワードは メールアドレス と似すぎています。',
    );
  });
});

describe('oldPasswordMessage', () => {
  it('says what is wrong with the current password, in both languages', () => {
    expect(oldPasswordMessage('missing')).toBe('Enter your current password.');
    expect(oldPasswordMessage('incorrect')).toBe(
      'Your old password was entered incorrectly. Please enter it again.',
    );
    expect(oldPasswordMessage('missing', 'ja')).toBe('現在のパスワードを入力してください。');
    expect(oldPasswordMessage('incorrect', 'ja')).toBe(
      '現在のパスワードが正しくありません。もう一度入力してください。',
    );
  });
});
