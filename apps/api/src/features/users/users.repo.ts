import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { UserOrdering } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import { escapeLike } from '../../db/like.ts';
import { users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

export async function findUserById(db: Executor, id: number): Promise<UserRow | null> {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0] ?? null;
}

/** E-mail is case-insensitive: the lookup goes through the lower(email) unique index. */
export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | null> {
  const rows = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .limit(1);
  return rows[0] ?? null;
}

export async function listUsersByEmails(db: Executor, emails: string[]): Promise<UserRow[]> {
  if (emails.length === 0) return [];
  const lowered = [...new Set(emails.map((e) => e.trim().toLowerCase()))];
  return db
    .select()
    .from(users)
    .where(inArray(sql`lower(${users.email})`, lowered));
}

export async function listUsersByIds(db: Executor, ids: number[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(users)
    .where(inArray(users.id, [...new Set(ids)]));
}

/** Whether the database holds any account at all (the demo seed fills only an empty one). */
export async function hasAnyUser(db: Executor): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).limit(1);
  return rows.length > 0;
}

/** Inserts accounts; e-mails are stored lower-cased. */
export async function insertUsers(db: Executor, rows: NewUserRow[]): Promise<UserRow[]> {
  if (rows.length === 0) return [];
  return db
    .insert(users)
    .values(rows.map((r) => ({ ...r, email: r.email.trim().toLowerCase() })))
    .returning();
}

/** The user row locked until the transaction ends (password changes that must happen once). */
export async function findUserByIdForUpdate(tx: Executor, id: number): Promise<UserRow | null> {
  const rows = await tx.select().from(users).where(eq(users.id, id)).limit(1).for('update');
  return rows[0] ?? null;
}

/** Inserts one account; null when the e-mail (case-insensitive) is already taken. */
export async function insertUser(db: Executor, row: NewUserRow): Promise<UserRow | null> {
  const rows = await db
    .insert(users)
    .values({ ...row, email: row.email.trim().toLowerCase() })
    .onConflictDoNothing()
    .returning();
  return rows[0] ?? null;
}

export type UserChanges = Partial<
  Pick<NewUserRow, 'email' | 'firstName' | 'lastName' | 'displayLang' | 'isStaff' | 'isActive' | 'roles'>
>;

/**
 * Applies `changes` (undefined fields are left alone); returns the updated row, null when the user is gone, or 'email_taken' when the
 * new e-mail belongs to another account.
 */
export async function updateUser(
  db: Executor,
  id: number,
  changes: UserChanges,
): Promise<UserRow | 'email_taken' | null> {
  const values = { ...changes, ...(changes.email ? { email: changes.email.trim().toLowerCase() } : {}) };
  if (values.email) {
    const taken = await db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${values.email}`, ne(users.id, id)))
      .limit(1);
    if (taken.length > 0) return 'email_taken';
  }
  if (Object.values(values).every((v) => v === undefined)) return findUserById(db, id);
  try {
    const rows = await db.update(users).set(values).where(eq(users.id, id)).returning();
    return rows[0] ?? null;
  } catch (error) {
    // Another request took the e-mail between the check above and this update.
    if (isUniqueViolation(error)) return 'email_taken';
    throw error;
  }
}

/** Stores a new hash; the new password_changed_at is what invalidates older set-password links. */
export async function setPasswordHash(db: Executor, id: number, passwordHash: string): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash, passwordChangedAt: sql`clock_timestamp()` })
    .where(eq(users.id, id));
}

export async function updateLastLogin(db: Executor, id: number): Promise<void> {
  await db
    .update(users)
    .set({ lastLogin: sql`now()` })
    .where(eq(users.id, id));
}

/** Deletes the account; sessions, tokens and memberships go with it (ON DELETE CASCADE). */
export async function deleteUser(db: Executor, id: number): Promise<boolean> {
  const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  return rows.length > 0;
}

const ORDERINGS: Record<UserOrdering, SQL[]> = {
  id: [asc(users.id)],
  '-id': [desc(users.id)],
  email: [asc(users.email), asc(users.id)],
  '-email': [desc(users.email), desc(users.id)],
  last_name: [asc(users.lastName), asc(users.firstName), asc(users.id)],
  '-last_name': [desc(users.lastName), desc(users.firstName), desc(users.id)],
};

export async function listUsers(
  db: Executor,
  query: { search?: string; ordering: UserOrdering; limit: number; offset: number },
): Promise<{ count: number; rows: UserRow[] }> {
  const pattern = query.search ? `%${escapeLike(query.search)}%` : null;
  const where = pattern
    ? or(ilike(users.email, pattern), ilike(users.firstName, pattern), ilike(users.lastName, pattern))
    : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(...ORDERINGS[query.ordering])
      .limit(query.limit)
      .offset(query.offset),
    db.select({ count: count() }).from(users).where(where),
  ]);
  return { count: total?.count ?? 0, rows };
}

/** PostgreSQL's unique_violation, whether the driver error arrives bare or wrapped by drizzle. */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 3; depth++) {
    if ('code' in e && e.code === '23505') return true;
    e = 'cause' in e ? e.cause : null;
  }
  return false;
}
