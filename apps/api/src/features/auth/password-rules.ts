import { dictionary } from '@zxcvbn-ts/language-common';
import type { MessageLanguage } from '../../lib/language.ts';

/**
 * Django's four default password validators, in the order Django runs them, so the messages (and the
 * first `new_password2` message the SetPassword page shows) read exactly as users of the old system saw.
 */

export const MIN_PASSWORD_LENGTH = 8;
/** Django's UserAttributeSimilarityValidator default. */
export const MAX_SIMILARITY = 0.7;

/** What the similarity rule compares against; Django names each attribute by its verbose name. */
export interface PasswordOwner {
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

const ATTRIBUTES: { key: keyof PasswordOwner; name: Record<MessageLanguage, string> }[] = [
  { key: 'firstName', name: { en: 'first name', ja: '名' } },
  { key: 'lastName', name: { en: 'last name', ja: '姓' } },
  { key: 'email', name: { en: 'email address', ja: 'メールアドレス' } },
];

/** Django's messages and its Japanese translations, so the SetPassword page speaks the user's language. */
const MESSAGES = {
  en: {
    similar: (name: string) => `The password is too similar to the ${name}.`,
    short: (min: number) => `This password is too short. It must contain at least ${min} characters.`,
    common: 'This password is too common.',
    numeric: 'This password is entirely numeric.',
    mismatch: 'The two password fields didn’t match.',
    oldMissing: 'Enter your current password.',
    oldIncorrect: 'Your old password was entered incorrectly. Please enter it again.',
  },
  ja: {
    similar: (name: string) => `このパスワードは ${name} と似すぎています。`,
    short: (min: number) => `このパスワードは短すぎます。最低 ${min} 文字以上必要です。`,
    common: 'このパスワードは一般的すぎます。',
    numeric: 'このパスワードは数字しか使われていません。',
    mismatch: '確認用パスワードが一致しません。',
    oldMissing: '現在のパスワードを入力してください。',
    oldIncorrect: '現在のパスワードが正しくありません。もう一度入力してください。',
  },
} satisfies Record<MessageLanguage, unknown>;

/** Django's message for two password fields that differ. */
export function passwordMismatchMessage(lang: MessageLanguage = 'en'): string {
  return MESSAGES[lang].mismatch;
}

/**
 * Why the current password was refused on a password change: not sent, or wrong (Django's
 * PasswordChangeForm message and its Japanese translation).
 */
export function oldPasswordMessage(problem: 'missing' | 'incorrect', lang: MessageLanguage = 'en'): string {
  return problem === 'missing' ? MESSAGES[lang].oldMissing : MESSAGES[lang].oldIncorrect;
}

let commonPasswords: Set<string> | null = null;
/** About 49,000 leaked passwords from zxcvbn-ts; built on first use so start-up stays fast. */
function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return commonPasswords.has(password.trim().toLowerCase());
}

/** Python's `len()` and iteration work on code points, not UTF-16 units. */
const codePoints = (text: string): string[] => Array.from(text);

/**
 * Python's SequenceMatcher(a, b).quick_ratio(): the multiset intersection of the characters, as
 * 2·matches / (len(a) + len(b)). An upper bound of the real ratio, and what Django compares.
 */
export function quickRatio(a: string, b: string): number {
  const left = codePoints(a);
  const right = codePoints(b);
  const total = left.length + right.length;
  if (total === 0) return 1;
  const available = new Map<string, number>();
  for (const char of right) available.set(char, (available.get(char) ?? 0) + 1);
  let matches = 0;
  for (const char of left) {
    const count = available.get(char) ?? 0;
    if (count > 0) {
      matches += 1;
      available.set(char, count - 1);
    }
  }
  return (2 * matches) / total;
}

/** Django skips values so much shorter than the password that they cannot reach the ratio. */
function exceedsMaximumLengthRatio(password: string, value: string): boolean {
  const passwordLength = codePoints(password).length;
  const valueLength = codePoints(value).length;
  return passwordLength >= 10 * valueLength && valueLength < (MAX_SIMILARITY / 2) * passwordLength;
}

/** Pieces shorter than this ("jp", "ac", an initial) are skipped: they match by accident, not by use. */
const MIN_PART_LENGTH = 3;

/**
 * What a password is compared with for one attribute, as Django's validator does (the value and its
 * words, Python's `re.split(r'\W+')`), plus, for an e-mail, its local part as a whole: for
 * `hanako.yamada@example.ac.jp` that is `hanako.yamada`, `hanako`, `yamada`, `example` and the whole
 * address, so "hanakoyamada" is refused although it is not close enough to any one word alone.
 */
export function similarityParts(key: keyof PasswordOwner, value: string): string[] {
  const lowered = value.toLowerCase();
  const parts = lowered.split(/[^\p{L}\p{N}_]+/u);
  if (key === 'email') {
    const at = lowered.lastIndexOf('@');
    if (at > 0) parts.unshift(lowered.slice(0, at));
  }
  parts.push(lowered);
  return [...new Set(parts)].filter((part) => codePoints(part).length >= MIN_PART_LENGTH);
}

/** Django stops at the first similar attribute: at most one similarity message. */
function similarityMessage(password: string, owner: PasswordOwner, lang: MessageLanguage): string | null {
  const lowered = password.toLowerCase();
  for (const { key, name } of ATTRIBUTES) {
    const value = owner[key];
    if (!value) continue;
    for (const part of similarityParts(key, value)) {
      if (exceedsMaximumLengthRatio(lowered, part)) continue;
      if (quickRatio(lowered, part) >= MAX_SIMILARITY) return MESSAGES[lang].similar(name[lang]);
    }
  }
  return null;
}

/** Every rule the password breaks, in Django's order; an empty list means it is acceptable. */
export function checkPasswordRules(
  password: string,
  owner: PasswordOwner = {},
  lang: MessageLanguage = 'en',
): string[] {
  const messages: string[] = [];
  const similar = similarityMessage(password, owner, lang);
  if (similar) messages.push(similar);
  if (codePoints(password).length < MIN_PASSWORD_LENGTH)
    messages.push(MESSAGES[lang].short(MIN_PASSWORD_LENGTH));
  if (isCommonPassword(password)) messages.push(MESSAGES[lang].common);
  if (/^\p{Nd}+$/u.test(password)) messages.push(MESSAGES[lang].numeric);
  return messages;
}
