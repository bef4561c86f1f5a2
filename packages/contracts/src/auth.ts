import { z } from 'zod';
import { Language, str } from './common.ts';

export const ROLES = ['no_role', 'student', 'teaching_assistant', 'instructor', 'observer'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

export const LoginRequest = z.object({
  email: str().trim().normalize('NFC').min(1).max(254),
  password: str().min(1).max(1024),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const TokenPair = z.object({ access: z.string(), refresh: z.string() });
export type TokenPair = z.infer<typeof TokenPair>;

export const LoginUser = z.object({ pk: z.number().int(), email: z.string() });

export const LoginResponse = TokenPair.extend({ user: LoginUser });
export type LoginResponse = z.infer<typeof LoginResponse>;

/** Google sign-in: an OAuth access token from Google's token client (scope `openid email profile`). */
export const GoogleLoginRequest = z.object({ access_token: str().trim().normalize('NFC').min(1).max(4096) });
export type GoogleLoginRequest = z.infer<typeof GoogleLoginRequest>;

export const RefreshRequest = z.object({ refresh: str().min(1).max(512) });
export type RefreshRequest = z.infer<typeof RefreshRequest>;

export const LogoutRequest = z.object({
  refresh: str().max(512).optional(),
  /** Sign out of every device, not only this one. */
  all: z.boolean().default(false),
});
export type LogoutRequest = z.infer<typeof LogoutRequest>;

export const UserInfo = z
  .object({
    id: z.number().int(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    roles: z.array(Role),
    is_staff: z.boolean(),
    editor_courses: z.array(z.number().int()),
    student_courses: z.array(z.number().int()),
    display_lang: Language,
  })
  .meta({ id: 'UserInfo' });
export type UserInfo = z.infer<typeof UserInfo>;

export const RolesList = z.object({ roles: z.array(Role) });

const NewPassword = str().min(1).max(128);

/** A new password and its confirmation, as every form that sets one sends them. */
export const NewPasswords = z.object({
  new_password1: NewPassword,
  new_password2: NewPassword,
});
export type NewPasswords = z.infer<typeof NewPasswords>;

export const PasswordChangeRequest = NewPasswords.extend({
  /**
   * The current password (dj-rest-auth's name): required when the account has one, ignored when it
   * has none yet (signed up through Google). Checked by the API, not here, so a missing one is
   * answered like a wrong one, under `old_password`.
   */
  old_password: str().max(1024).optional(),
});
export type PasswordChangeRequest = z.infer<typeof PasswordChangeRequest>;

/** Setting a password from an e-mailed link: the link stands for the old password. */
export const PasswordResetConfirmRequest = NewPasswords.extend({
  uid: str().min(1).max(64),
  token: str().min(1).max(128),
});
export type PasswordResetConfirmRequest = z.infer<typeof PasswordResetConfirmRequest>;

export const DetailResponse = z.object({ detail: z.string() });

export const SetPasswordLink = z.object({
  uid: z.string(),
  token: z.string(),
  url: z.string(),
  expires_at: z.iso.datetime(),
});
export type SetPasswordLink = z.infer<typeof SetPasswordLink>;
