import { Language, ROLES, type Role, type User, type UserSummary } from '@kadai/contracts';
import type { UserRow } from './users.repo.ts';

const KNOWN_ROLES: ReadonlySet<string> = new Set(ROLES);

function isRole(value: string): value is Role {
  return KNOWN_ROLES.has(value);
}

/** Roles as the API states them: unknown values left by an older release are dropped, never sent. */
export function rolesOf(row: Pick<UserRow, 'roles'>): Role[] {
  const roles = row.roles.filter(isRole);
  return roles.length > 0 ? roles : ['no_role'];
}

export function languageOf(row: Pick<UserRow, 'displayLang'>): Language {
  const parsed = Language.safeParse(row.displayLang);
  return parsed.success ? parsed.data : 'ja';
}

/** The full account, as the user themself and staff see it. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    first_name_ja: row.firstNameJa,
    last_name_ja: row.lastNameJa,
    is_staff: row.isStaff,
    is_active: row.isActive,
    roles: rolesOf(row),
    display_lang: languageOf(row),
    has_password: row.passwordHash !== null,
    date_joined: row.dateJoined.toISOString(),
    last_login: row.lastLogin ? row.lastLogin.toISOString() : null,
  };
}

/** What other members of a course may see. */
export function toUserSummary(row: Pick<UserRow, 'id' | 'email' | 'firstName' | 'lastName'>): UserSummary {
  return { id: row.id, email: row.email, first_name: row.firstName, last_name: row.lastName };
}
