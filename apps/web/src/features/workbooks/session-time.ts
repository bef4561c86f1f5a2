import { WORKBOOK_WARN_BEFORE_MINUTES, type WorkbookSession } from '@kadai/contracts';

const MINUTE_MS = 60_000;

/** What the Extend menu offers, in minutes, as far as the session's allowance reaches. */
export const EXTENSION_STEPS = [15, 30, 60] as const;

/** Minutes the session may still be extended by. */
export function remainingExtension(
  session: Pick<WorkbookSession, 'extended_minutes' | 'max_extension_minutes'>,
) {
  return Math.max(0, session.max_extension_minutes - session.extended_minutes);
}

/** The steps that fit what remains; when none does but some time remains, that time. */
export function extensionChoices(
  session: Pick<WorkbookSession, 'extended_minutes' | 'max_extension_minutes'>,
): number[] {
  const remaining = remainingExtension(session);
  const fitting = EXTENSION_STEPS.filter((step) => step <= remaining);
  if (fitting.length > 0) return fitting;
  return remaining > 0 ? [remaining] : [];
}

/** Milliseconds until the session ends (never negative). */
export function msLeft(session: Pick<WorkbookSession, 'expires_at'>, now: number): number {
  return Math.max(0, Date.parse(session.expires_at) - now);
}

/** Within the last minutes of the session, when the page warns. */
export function isEndingSoon(msRemaining: number): boolean {
  return msRemaining > 0 && msRemaining <= WORKBOOK_WARN_BEFORE_MINUTES * MINUTE_MS;
}

/** Live by the server's word and by the clock: a session whose time is up is over even before the server says so. */
export function isSessionLive(session: Pick<WorkbookSession, 'status' | 'expires_at'>, now: number): boolean {
  return session.status === 'live' && msLeft(session, now) > 0;
}

/** The caller's own live session in the course (the list has live ones first). */
export function findMyLiveSession(
  sessions: readonly WorkbookSession[],
  userId: number | null,
  now: number,
): WorkbookSession | undefined {
  return sessions.find((session) => session.userId === userId && isSessionLive(session, now));
}

/** Others' live sessions, which editors see (and may end to free a kernel). */
export function othersLiveSessions(
  sessions: readonly WorkbookSession[],
  userId: number | null,
  now: number,
): WorkbookSession[] {
  return sessions.filter((session) => session.userId !== userId && isSessionLive(session, now));
}
