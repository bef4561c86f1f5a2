import { z } from 'zod';
import { Email, Language, PageQuery, paginated, str } from './common.ts';
import { Role, SetPasswordLink } from './auth.ts';

/** A user as the user themself and staff see them. */
export const User = z
  .object({
    id: z.number().int(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    /** The name in Japanese script, as the university's sign-in gave it (docs/sign-in.md); read-only. */
    first_name_ja: z.string().default(''),
    last_name_ja: z.string().default(''),
    is_staff: z.boolean(),
    is_active: z.boolean(),
    roles: z.array(Role),
    display_lang: Language,
    has_password: z.boolean(),
    date_joined: z.iso.datetime(),
    last_login: z.iso.datetime().nullable(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof User>;

/** What anyone in a course may see of another member. */
export const UserSummary = z
  .object({
    id: z.number().int(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
  })
  .meta({ id: 'UserSummary' });
export type UserSummary = z.infer<typeof UserSummary>;

/** Han, kana and Hangul: scripts whose names are written family name first in any language. */
const FAMILY_FIRST_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * A person's name as every screen and e-mail writes it (docs/accounts.md, "Names"), one rule per
 * language. A name written in Han, kana or Hangul is written family name (`last_name`) first in every
 * language — "鈴木 陽菜" on an English screen too, as it is in any text. A name in another script follows
 * the interface: family name first in Japanese ("Wilson James"), given name (`first_name`) first in
 * English ("James Wilson"). Empty when the account has no name; each caller says what stands in (an
 * e-mail, a forum handle).
 */
export function personName(person: { first_name: string; last_name: string }, language: string): string {
  const given = person.first_name.trim();
  const family = person.last_name.trim();
  const familyFirst =
    language === 'ja' || language.startsWith('ja-') || FAMILY_FIRST_SCRIPT.test(family + given);
  return (familyFirst ? [family, given] : [given, family]).filter(Boolean).join(' ');
}

const Name = str().trim().normalize('NFC').max(150);

/** Fields a user may change on their own account. */
export const UserSelfUpdate = z.strictObject({
  first_name: Name.optional(),
  last_name: Name.optional(),
  display_lang: Language.optional(),
});

/** Staff may also change these; a student sending them gets 403. */
export const UserUpdate = UserSelfUpdate.extend({
  email: Email.optional(),
  is_staff: z.boolean().optional(),
  is_active: z.boolean().optional(),
  roles: z.array(Role).min(1).max(10).optional(),
});
export type UserUpdate = z.infer<typeof UserUpdate>;

/** PUT replaces every field a caller may edit. */
export const UserReplace = UserSelfUpdate.required().extend({
  email: Email.optional(),
  is_staff: z.boolean().optional(),
  is_active: z.boolean().optional(),
  roles: z.array(Role).min(1).max(10).optional(),
});

export const UserCreate = z.strictObject({
  email: Email,
  first_name: Name.default(''),
  last_name: Name.default(''),
  is_staff: z.boolean().default(false),
  roles: z.array(Role).min(1).max(10).default(['no_role']),
  display_lang: Language.default('ja'),
});
export type UserCreate = z.infer<typeof UserCreate>;

export const UserCreated = z.object({ user: User, set_password: SetPasswordLink });

export const USER_ORDERINGS = ['id', '-id', 'email', '-email', 'last_name', '-last_name'] as const;
export type UserOrdering = (typeof USER_ORDERINGS)[number];

export const UserListQuery = PageQuery.extend({
  /** Matched anywhere in the e-mail, first or last name, case-insensitively. */
  search: str().trim().normalize('NFC').max(100).optional(),
  ordering: z.enum(USER_ORDERINGS).default('id'),
});
export type UserListQuery = z.infer<typeof UserListQuery>;
export const UserList = paginated(User);
