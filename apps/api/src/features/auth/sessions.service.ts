/*
 * The sessions as code outside auth's own services reaches them: lib/access.ts finds the caller behind a
 * live session on every request, and users.service.ts ends a deactivated account's sessions. A file of its
 * own, apart from auth.service.ts: that one reads accounts through users.service.ts, which would otherwise
 * have to import it back.
 */
export { findSessionActor, revokeUserSessions, type RevokeReason } from './auth.repo.ts';
