import type { UserSummary } from '@kadai/contracts';

/** Han, hiragana, katakana or hangul: a name written this way reads family name first in any UI. */
const EAST_ASIAN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * A person's name as a class list shows it: family name first in the Japanese interface and for names
 * written in East Asian scripts ("山田 太郎"), given name first otherwise ("James Wilson"); the e-mail
 * when no name is known.
 */
export function memberName(
  member: Pick<UserSummary, 'first_name' | 'last_name' | 'email'>,
  language: string,
): string {
  const familyFirst = language === 'ja' || EAST_ASIAN.test(member.last_name + member.first_name);
  const parts = familyFirst ? [member.last_name, member.first_name] : [member.first_name, member.last_name];
  return parts.join(' ').trim() || member.email;
}
