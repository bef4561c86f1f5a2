import type { LinkedIdentity } from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { joinPendingMemberships } from '../courses/members.service.ts';
import { findUserById } from '../users/users.service.ts';
import { deleteIdentity, findIdentity, insertIdentity, listIdentitiesOfUser } from './identities.repo.ts';
import { findProviderRow } from './providers.repo.ts';
import { toPublicProvider } from './providers.service.ts';

/*
 * A user's institutional identities: the user sees their own, staff see and change everyone's. A staff
 * link is the other way (besides the password) to prove that an identity belongs to an account.
 */

type Listed = Awaited<ReturnType<typeof listIdentitiesOfUser>>[number];

function toLinkedIdentity({ identity, provider }: Listed): LinkedIdentity {
  return {
    id: identity.id,
    provider: { id: provider.id, ...toPublicProvider(provider) },
    external_id: identity.externalId,
    institutional_id: identity.institutionalId,
    email: identity.email,
    created_at: identity.createdAt.toISOString(),
    last_login_at: identity.lastLoginAt?.toISOString() ?? null,
  };
}

async function visibleUser(ctx: AppContext, actor: Actor, userId: number) {
  // Someone else's identities are as invisible as a user that does not exist.
  if (!actor.isStaff && actor.userId !== userId) throw notFound();
  const user = await findUserById(ctx.db, userId);
  if (!user) throw notFound();
  return user;
}

export async function listIdentities(
  ctx: AppContext,
  actor: Actor,
  userId: number,
): Promise<LinkedIdentity[]> {
  await visibleUser(ctx, actor, userId);
  return (await listIdentitiesOfUser(ctx.db, userId)).map(toLinkedIdentity);
}

export async function linkIdentity(
  ctx: AppContext,
  actor: Actor,
  userId: number,
  input: { provider_id: number; external_id: string; institutional_id?: string },
): Promise<LinkedIdentity> {
  await visibleUser(ctx, actor, userId);
  const provider = await findProviderRow(ctx.db, input.provider_id);
  if (!provider) throw badRequest('No such provider.', { provider_id: ['No such provider.'] });
  return ctx.db.transaction(async (tx) => {
    const taken = await findIdentity(tx, provider.id, input.external_id);
    if (taken && taken.userId !== userId) {
      throw conflict('This identity is linked to another account.', 'identity_taken', {
        external_id: ['Linked to another account.'],
      });
    }
    const identity = await insertIdentity(tx, {
      providerId: provider.id,
      externalId: input.external_id,
      userId,
      institutionalId: input.institutional_id ?? null,
    });
    if (identity.institutionalId) await joinPendingMemberships(tx, userId, [identity.institutionalId]);
    const rows = await listIdentitiesOfUser(tx, userId);
    return toLinkedIdentity(rows.find((r) => r.identity.id === identity.id)!);
  });
}

export async function unlinkIdentity(
  ctx: AppContext,
  actor: Actor,
  userId: number,
  id: number,
): Promise<void> {
  await visibleUser(ctx, actor, userId);
  if (!(await deleteIdentity(ctx.db, userId, id))) throw notFound();
}
