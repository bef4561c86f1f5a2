import type { Actor } from './actor.ts';

/*
 * The callers of live sessions, remembered so that a signed-in request need not read its session row
 * (docs/auth.md, "Remembered sessions"). Revocation still takes effect at once:
 * - this process forgets a user's sessions as soon as it has changed them (logout, password change,
 *   deactivation, a change of staff status or e-mail: forgetUser, after the change commits);
 * - every process hears of changes made elsewhere through PostgreSQL: triggers on auth_sessions and
 *   users notify the channel AUTH_CHANNEL with the user's id, and the listener forgets that user;
 * - while the listening connection is down, nothing is remembered (every request reads its row).
 * A generation counter keeps a read that started before a change from storing what it read after.
 */

/** The channel the auth triggers notify (migration 0010), with payload `u<user id>`. */
export const AUTH_CHANNEL = 'kadai_auth';

interface Entry {
  actor: Readonly<Actor>;
  expires: number;
}

export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly sessionsOf = new Map<number, Set<string>>();
  private generation = 0;
  private listening = false;

  /**
   * @param ttlMs how long a caller is remembered (0: never); a bound on staleness should a
   *   notification ever be lost.
   * @param maxEntries the oldest entries make room beyond this count.
   */
  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 20_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether callers are being remembered: a TTL is set and changes made elsewhere can be heard. */
  get enabled(): boolean {
    return this.ttlMs > 0 && this.listening;
  }

  /** The remembered caller of this session, if it is still fresh and the user ids agree. */
  get(sessionId: string, userId: number): Readonly<Actor> | undefined {
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    if (entry.expires <= this.now() || entry.actor.userId !== userId) {
      this.drop(sessionId, entry.actor.userId);
      return undefined;
    }
    return entry.actor;
  }

  /** A token to pass to `put` with what is read next: a change in between voids it. */
  begin(): number {
    return this.generation;
  }

  /** Remembers a caller read from the database since `begin()`, unless something changed meanwhile. */
  put(actor: Actor, since: number): void {
    if (!this.enabled || since !== this.generation) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.entries().next().value;
      if (oldest) this.drop(oldest[0], oldest[1].actor.userId);
    }
    this.entries.set(actor.sessionId, {
      actor: Object.freeze({ ...actor }),
      expires: this.now() + this.ttlMs,
    });
    let sessions = this.sessionsOf.get(actor.userId);
    if (!sessions) this.sessionsOf.set(actor.userId, (sessions = new Set()));
    sessions.add(actor.sessionId);
  }

  /** Forgets every session of the user (their sessions, account or standing changed). */
  forgetUser(userId: number): void {
    this.generation += 1;
    for (const sessionId of this.sessionsOf.get(userId) ?? []) this.entries.delete(sessionId);
    this.sessionsOf.delete(userId);
  }

  /** A notification on AUTH_CHANNEL: `u<user id>`; other payloads forget everyone. */
  notified(payload: string | undefined): void {
    const match = /^u(\d+)$/.exec(payload ?? '');
    if (match) this.forgetUser(Number(match[1]));
    else this.clear();
  }

  /** The listening connection came up or went down: either way, what was remembered may be stale. */
  setListening(up: boolean): void {
    this.clear();
    this.listening = up;
  }

  get size(): number {
    return this.entries.size;
  }

  private clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.sessionsOf.clear();
  }

  private drop(sessionId: string, userId: number): void {
    this.entries.delete(sessionId);
    const sessions = this.sessionsOf.get(userId);
    sessions?.delete(sessionId);
    if (sessions?.size === 0) this.sessionsOf.delete(userId);
  }
}
