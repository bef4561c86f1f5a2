import type { MemberKind } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import { listUsersByIds, type UserRow } from '../users/users.service.ts';
import * as repo from './pending-members.repo.ts';

export type { PendingRow } from './pending-members.repo.ts';
export { deletePendingMembers, listPendingMembers } from './pending-members.repo.ts';

/**
 * Institutional ids as asked for, each once: compared without regard to case (an eppn's domain, a
 * student number's letter prefix), keeping the first spelling given.
 */
export function uniqueInstitutionalIds(ids: string[]): string[] {
  const seen = new Map<string, string>();
  for (const raw of ids) {
    const id = raw.trim();
    if (id !== '' && !seen.has(id.toLowerCase())) seen.set(id.toLowerCase(), id);
  }
  return [...seen.values()];
}

export interface InstitutionalIdOutcome {
  /** The accounts that signed in with one of the ids: the caller adds them like other existing accounts. */
  users: UserRow[];
  /** Ids nobody has signed in with: held on the list (or held already). */
  pending: string[];
  /** Ids several accounts have signed in with: nobody is added for them. */
  ambiguous: string[];
}

/**
 * Resolves institutional ids (from `uniqueInstitutionalIds`) to the accounts that signed in with them,
 * and holds the others on the list until that person's first sign-in (`joinPendingMemberships`). Runs
 * inside the caller's transaction.
 */
export async function resolveInstitutionalIds(
  tx: Executor,
  kind: MemberKind,
  courseId: number,
  ids: string[],
  addedBy: number,
): Promise<InstitutionalIdOutcome> {
  const accounts = await repo.listUserIdsByInstitutionalIds(
    tx,
    ids.map((id) => id.toLowerCase()),
  );
  const pending: string[] = [];
  const ambiguous: string[] = [];
  const userIds: number[] = [];
  for (const id of ids) {
    const found = accounts.get(id.toLowerCase()) ?? [];
    if (found.length === 0) pending.push(id);
    else if (found.length > 1) ambiguous.push(id);
    else userIds.push(found[0]!);
  }
  await repo.insertPendingMembers(tx, kind, courseId, pending, addedBy);
  return { users: await listUsersByIds(tx, userIds), pending, ambiguous };
}

/**
 * The sign-in hook: called inside the sign-in's transaction on every sign-in through an identity
 * provider, with the institutional ids the person now has. Every list that holds one of them as pending
 * gets the person (a list that already has them is left alone) and the pending entries are dropped.
 * Returns how many memberships were made. Should two accounts share an id, the first to sign in takes it.
 */
export async function joinPendingMemberships(
  tx: Executor,
  userId: number,
  institutionalIds: string[],
): Promise<number> {
  const lowerIds = uniqueInstitutionalIds(institutionalIds).map((id) => id.toLowerCase());
  const taken = await repo.takePendingMembers(tx, lowerIds);
  let made = 0;
  for (const kind of ['student', 'editor'] as const) {
    const courseIds = [...new Set(taken.filter((p) => p.kind === kind).map((p) => p.courseId))];
    made += await repo.insertMemberships(tx, kind, userId, courseIds);
  }
  return made;
}
