import { asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { identityProviders, signInSettings } from '../../db/schema-identity.ts';

export type ProviderRow = typeof identityProviders.$inferSelect;
export type NewProvider = typeof identityProviders.$inferInsert;

export async function listProviderRows(db: Executor): Promise<ProviderRow[]> {
  return db.select().from(identityProviders).orderBy(asc(identityProviders.id)).limit(200);
}

export async function findProviderRow(db: Executor, id: number): Promise<ProviderRow | null> {
  const rows = await db.select().from(identityProviders).where(eq(identityProviders.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function findProviderRowBySlug(db: Executor, slug: string): Promise<ProviderRow | null> {
  const rows = await db.select().from(identityProviders).where(eq(identityProviders.slug, slug)).limit(1);
  return rows[0] ?? null;
}

/** The new row, or null when the slug is taken. */
export async function insertProviderRow(db: Executor, row: NewProvider): Promise<ProviderRow | null> {
  const rows = await db
    .insert(identityProviders)
    .values(row)
    .onConflictDoNothing({ target: identityProviders.slug })
    .returning();
  return rows[0] ?? null;
}

export async function updateProviderRow(
  db: Executor,
  id: number,
  fields: Partial<NewProvider>,
): Promise<ProviderRow | null> {
  const rows = await db
    .update(identityProviders)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(eq(identityProviders.id, id))
    .returning();
  return rows[0] ?? null;
}

export async function deleteProviderRow(db: Executor, id: number): Promise<boolean> {
  const rows = await db
    .delete(identityProviders)
    .where(eq(identityProviders.id, id))
    .returning({ id: identityProviders.id });
  return rows.length > 0;
}

/**
 * Declared in the environment: made or brought up to date at start-up, by slug. False when staff made
 * a provider with that slug in the app: the declaration does not take it over.
 */
export async function upsertEnvProviderRow(db: Executor, row: NewProvider): Promise<boolean> {
  const rows = await db
    .insert(identityProviders)
    .values({ ...row, managedBy: 'env' })
    .onConflictDoUpdate({
      target: identityProviders.slug,
      set: { ...row, managedBy: 'env', updatedAt: sql`now()` },
      setWhere: sql`${identityProviders.managedBy} = 'env'`,
    })
    .returning({ id: identityProviders.id });
  return rows.length > 0;
}

export async function readPasswordHiddenDomains(db: Executor): Promise<string[]> {
  const rows = await db
    .select({ domains: signInSettings.passwordHiddenDomains })
    .from(signInSettings)
    .where(eq(signInSettings.id, 1));
  return rows[0]?.domains ?? [];
}

export async function writePasswordHiddenDomains(db: Executor, domains: string[]): Promise<void> {
  await db
    .insert(signInSettings)
    .values({ id: 1, passwordHiddenDomains: domains })
    .onConflictDoUpdate({
      target: signInSettings.id,
      set: { passwordHiddenDomains: domains, updatedAt: sql`now()` },
    });
}
