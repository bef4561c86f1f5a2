import { and, eq, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { socialAccounts } from '../../db/schema-mail.ts';

export type SocialAccountRow = typeof socialAccounts.$inferSelect;

/** The link of this Google account (to one user), or null. */
export async function findGoogleLink(db: Executor, subject: string): Promise<SocialAccountRow | null> {
  const rows = await db
    .select()
    .from(socialAccounts)
    .where(and(eq(socialAccounts.provider, 'google'), eq(socialAccounts.subject, subject)))
    .limit(1);
  return rows[0] ?? null;
}

/** Whether the user has a Google account linked other than `subject`. */
export async function hasOtherGoogleLink(db: Executor, userId: number, subject: string): Promise<boolean> {
  const rows = await db
    .select({ id: socialAccounts.id })
    .from(socialAccounts)
    .where(
      and(
        eq(socialAccounts.provider, 'google'),
        eq(socialAccounts.userId, userId),
        ne(socialAccounts.subject, subject),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * Links the Google account to the user. When a concurrent first sign-in linked it a moment earlier,
 * nothing changes and that link (whichever user it names) is returned.
 */
export async function insertGoogleLink(
  db: Executor,
  fields: { subject: string; userId: number; email: string },
): Promise<SocialAccountRow> {
  await db
    .insert(socialAccounts)
    .values({ provider: 'google', ...fields })
    .onConflictDoNothing({ target: [socialAccounts.provider, socialAccounts.subject] });
  return (await findGoogleLink(db, fields.subject))!;
}

/** A sign-in through the link: the e-mail Google reports now, and when. */
export async function touchGoogleLink(db: Executor, id: number, email: string): Promise<void> {
  await db
    .update(socialAccounts)
    .set({ email, lastLoginAt: sql`now()` })
    .where(eq(socialAccounts.id, id));
}

/** Google vouched for this address: the account's e-mail counts as verified from now on. */
export async function markEmailVerified(db: Executor, userId: number, email: string): Promise<void> {
  await db
    .update(users)
    .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
    .where(and(eq(users.id, userId), sql`lower(${users.email}) = ${email.toLowerCase()}`));
}
