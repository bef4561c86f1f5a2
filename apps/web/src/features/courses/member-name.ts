import { personName, type UserSummary } from '@kadai/contracts';

/**
 * A member's name in the reader's language (`personName`: family name first in Japanese, given name
 * first in English, one rule for every script); the e-mail when the account has no name.
 */
export function memberName(
  member: Pick<UserSummary, 'first_name' | 'last_name' | 'email'>,
  language: string,
): string {
  return personName(member, language) || member.email;
}
