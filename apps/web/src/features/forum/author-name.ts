import { personName, type ForumAuthor } from '@kadai/contracts';

/**
 * A post's author in the reader's language, by the one rule of every name (`personName`); the forum's
 * handle (the e-mail's local part) when the account has no name.
 */
export function authorName(author: ForumAuthor, language: string): string {
  return personName(author, language) || author.display_name;
}
