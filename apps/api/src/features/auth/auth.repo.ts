import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { authSessions, courseEditors, courseStudents, refreshTokens, users } from '../../db/schema.ts';
import { prepareSelect, statementCache } from '../../db/prepared.ts';

const sessionActorStatement = statementCache(
  () => 'session_actor',
  (db, _key: null, name) =>
    prepareSelect(
      db,
      db
        .select({ userId: users.id, email: users.email, isStaff: users.isStaff })
        .from(authSessions)
        .innerJoin(users, eq(users.id, authSessions.userId))
        .where(
          and(
            eq(authSessions.id, sql.placeholder('sessionId')),
            eq(authSessions.userId, sql.placeholder('userId')),
            isNull(authSessions.revokedAt),
            eq(users.isActive, true),
          ),
        )
        .limit(1),
      name,
    ),
);

/**
 * The user behind a live session, or null when the session was revoked or the user deactivated.
 * Runs on every signed-in request, so it is one prepared statement.
 */
export async function findSessionActor(db: Executor, userId: number, sessionId: string) {
  const rows = await sessionActorStatement(db, null).execute({ userId, sessionId });
  return rows[0] ?? null;
}

export type SessionRow = typeof authSessions.$inferSelect;

/** Why a session ended; kept on the row for audits. */
export type RevokeReason =
  | 'logout'
  | 'token_reused'
  | 'password_change'
  | 'password_reset'
  | 'deactivated'
  /** The institution's IdP ended the person's single sign-on session (SAML single logout). */
  | 'sso_logout';

export async function insertSession(
  db: Executor,
  fields: { userId: number; userAgent: string | null; ipAddress: string | null },
): Promise<SessionRow> {
  const [row] = await db.insert(authSessions).values(fields).returning();
  return row!;
}

export async function insertRefreshToken(
  db: Executor,
  fields: { sessionId: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(refreshTokens).values(fields);
}

/**
 * The refresh token with this hash and its session, locked until the transaction ends: of two
 * concurrent refreshes of one token, the second waits and then sees it used.
 */
export async function findRefreshTokenForUpdate(tx: Executor, tokenHash: string) {
  const rows = await tx
    .select({
      id: refreshTokens.id,
      sessionId: refreshTokens.sessionId,
      expiresAt: refreshTokens.expiresAt,
      usedAt: refreshTokens.usedAt,
      sessionRevokedAt: authSessions.revokedAt,
      userId: users.id,
      userIsActive: users.isActive,
    })
    .from(refreshTokens)
    .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .limit(1)
    .for('update', { of: refreshTokens });
  return rows[0] ?? null;
}

export async function markRefreshTokenUsed(db: Executor, id: number): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ usedAt: sql`now()` })
    .where(eq(refreshTokens.id, id));
}

/** The session a refresh token belongs to, if it is one of this user's. */
export async function findSessionIdOfRefreshToken(
  db: Executor,
  userId: number,
  tokenHash: string,
): Promise<string | null> {
  const rows = await db
    .select({ sessionId: authSessions.id })
    .from(refreshTokens)
    .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
    .where(and(eq(refreshTokens.tokenHash, tokenHash), eq(authSessions.userId, userId)))
    .limit(1);
  return rows[0]?.sessionId ?? null;
}

/** Ends the live ones of these sessions; returns whose they were. */
export async function revokeSessions(
  db: Executor,
  sessionIds: string[],
  reason: RevokeReason,
): Promise<number[]> {
  if (sessionIds.length === 0) return [];
  const rows = await db
    .update(authSessions)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(and(inArray(authSessions.id, sessionIds), isNull(authSessions.revokedAt)))
    .returning({ userId: authSessions.userId });
  return [...new Set(rows.map((r) => r.userId))];
}

/** Ends every live session of a user, except `keepSessionId` when given (the caller's own). */
export async function revokeUserSessions(
  db: Executor,
  userId: number,
  reason: RevokeReason,
  keepSessionId?: string,
): Promise<void> {
  await db
    .update(authSessions)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(
      and(
        eq(authSessions.userId, userId),
        isNull(authSessions.revokedAt),
        keepSessionId ? ne(authSessions.id, keepSessionId) : undefined,
      ),
    );
}

/**
 * Course ids the user edits and studies, for UserInfo: as JSON, which the driver reads with JSON.parse,
 * where a PostgreSQL array is parsed character by character.
 */
const courseIdsOf = (table: typeof courseEditors | typeof courseStudents) => {
  const ids = sql`array(select ${table.courseId} from ${table} where ${table.userId} = ${users.id} order by 1)`;
  return sql<number[]>`array_to_json(${ids})`;
};

/**
 * Only what UserInfo answers: the other columns (the password hash, four timestamps) cost reading and
 * decoding on every page load (a fresh `Date` for each timestamp) and were never sent.
 */
const userInfoStatement = statementCache(
  () => 'user_info',
  (db, _key: null, name) =>
    prepareSelect(
      db,
      db
        .select({
          id: users.id,
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
          isStaff: users.isStaff,
          roles: sql<string[]>`array_to_json(${users.roles})`,
          displayLang: users.displayLang,
          editorCourses: courseIdsOf(courseEditors),
          studentCourses: courseIdsOf(courseStudents),
        })
        .from(users)
        .where(eq(users.id, sql.placeholder('userId')))
        .limit(1),
      name,
    ),
);

/** The user with the ids of the courses they edit and study, in one prepared statement. */
export async function findUserWithCourseIds(db: Executor, userId: number) {
  const [row] = await userInfoStatement(db, null).execute({ userId });
  return row ?? null;
}

/**
 * Deletes refresh tokens a day after they expired (an expired token is refused whether or not its row
 * exists), then sessions left with no token once `keepDays` have passed since they began: they can
 * no longer be used, and their row (with why it ended) has served its time for audits.
 */
export async function deleteDeadAuthRows(db: Executor, keepDays: number) {
  const tokens = await db
    .delete(refreshTokens)
    .where(sql`${refreshTokens.expiresAt} < now() - interval '1 day'`)
    .returning({ id: refreshTokens.id });
  const sessions = await db
    .delete(authSessions)
    .where(
      and(
        sql`${authSessions.createdAt} < now() - make_interval(days => ${keepDays})`,
        sql`not exists (select 1 from ${refreshTokens} where ${refreshTokens.sessionId} = ${authSessions.id})`,
      ),
    )
    .returning({ id: authSessions.id });
  return { refreshTokens: tokens.length, sessions: sessions.length };
}
