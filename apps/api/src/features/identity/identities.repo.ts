import { and, asc, eq, ne, sql, type AnyColumn } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { identityProviders, userIdentities } from '../../db/schema-identity.ts';

export type IdentityRow = typeof userIdentities.$inferSelect;

export async function findIdentity(
  db: Executor,
  providerId: number,
  externalId: string,
): Promise<IdentityRow | null> {
  const rows = await db
    .select()
    .from(userIdentities)
    .where(and(eq(userIdentities.providerId, providerId), eq(userIdentities.externalId, externalId)))
    .limit(1);
  return rows[0] ?? null;
}

/** Whether the user is linked at this provider under another external id. */
export async function hasOtherIdentity(
  db: Executor,
  providerId: number,
  userId: number,
  externalId: string,
): Promise<boolean> {
  const rows = await db
    .select({ id: userIdentities.id })
    .from(userIdentities)
    .where(
      and(
        eq(userIdentities.providerId, providerId),
        eq(userIdentities.userId, userId),
        ne(userIdentities.externalId, externalId),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** Links the identity; when it was linked a moment earlier (a race), that link is returned unchanged. */
export async function insertIdentity(
  db: Executor,
  row: typeof userIdentities.$inferInsert,
): Promise<IdentityRow> {
  await db
    .insert(userIdentities)
    .values(row)
    .onConflictDoNothing({ target: [userIdentities.providerId, userIdentities.externalId] });
  return (await findIdentity(db, row.providerId, row.externalId))!;
}

export async function touchIdentity(
  db: Executor,
  id: number,
  fields: { email: string | null; institutionalId: string | null },
): Promise<void> {
  await db
    .update(userIdentities)
    .set({ ...fields, lastLoginAt: sql`now()` })
    .where(eq(userIdentities.id, id));
}

export async function listIdentitiesOfUser(db: Executor, userId: number) {
  return db
    .select({ identity: userIdentities, provider: identityProviders })
    .from(userIdentities)
    .innerJoin(identityProviders, eq(identityProviders.id, userIdentities.providerId))
    .where(eq(userIdentities.userId, userId))
    .orderBy(asc(userIdentities.id))
    .limit(100);
}

export async function deleteIdentity(db: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(userIdentities)
    .where(and(eq(userIdentities.id, id), eq(userIdentities.userId, userId)))
    .returning({ id: userIdentities.id });
  return rows.length > 0;
}

/** Fills the names the account does not have yet; names someone already set are kept. */
export async function fillEmptyNames(
  db: Executor,
  userId: number,
  names: { firstName: string; lastName: string; firstNameJa: string; lastNameJa: string },
): Promise<void> {
  const fill = (column: AnyColumn, value: string) =>
    sql`case when ${column} = '' then ${value} else ${column} end`;
  await db
    .update(users)
    .set({
      firstName: fill(users.firstName, names.firstName),
      lastName: fill(users.lastName, names.lastName),
      firstNameJa: fill(users.firstNameJa, names.firstNameJa),
      lastNameJa: fill(users.lastNameJa, names.lastNameJa),
    })
    .where(eq(users.id, userId));
}
