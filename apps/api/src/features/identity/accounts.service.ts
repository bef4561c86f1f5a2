import { randomBytes } from 'node:crypto';
import type { SsoExchangeResponse } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { AppContext } from '../../lib/context.ts';
import { HttpError } from '../../lib/errors.ts';
import { openSessionWithId, type ClientInfo } from '../auth/auth.service.ts';
import { hashToken } from '../auth/tokens.ts';
import { joinPendingMemberships } from '../courses/members.service.ts';
import { findUserByEmail, findUserById, insertUser, updateLastLogin } from '../users/users.service.ts';
import { SsoFailure } from './failure.ts';
import {
  fillEmptyNames,
  findIdentity,
  hasOtherIdentity,
  insertIdentity,
  touchIdentity,
} from './identities.repo.ts';
import type { Person } from './person.ts';
import type { ProviderRow } from './providers.repo.ts';
import {
  insertSsoCode,
  insertSsoSession,
  takeSsoCode,
  type NewSsoCode,
  type SsoCodeRow,
} from './sso.repo.ts';

/*
 * Who signs in (docs/sign-in.md, "Who the person is"). The provider's stable id is the key:
 * 1. an identity already linked signs in to its account;
 * 2. otherwise, an account with the asserted e-mail is linked only when the person proves they own it
 *    (its password once: a `link` code; or a staff action), never on the IdP's word alone;
 * 3. an account already linked at this provider under another id is not taken over (account_mismatch);
 * 4. otherwise a new account is made when the provider allows it, else no_account.
 * What the browser carries back to the web app is a one-time code, never tokens in a URL.
 */

/** How long each kind of code holds: a sign-in is exchanged at once; a link waits for a password. */
const CODE_SECONDS = { sign_in: 120, link: 10 * 60 } as const;

/** What a SAML sign-in adds to the session, so single logout can find it. */
export interface SamlSessionInfo {
  nameId: string;
  nameIdFormat: string | null;
  sessionIndex: string | null;
}

interface CodePayload {
  person: Person;
  saml: SamlSessionInfo | null;
}

export interface Outcome {
  kind: SsoCodeRow['purpose'];
  code: string;
}

/** A one-time code for what the web app does next (only its hash is kept). */
async function newCode(
  tx: Executor,
  kind: Outcome['kind'],
  fields: Omit<NewSsoCode, 'codeHash' | 'expiresAt' | 'purpose'>,
): Promise<Outcome> {
  const code = randomBytes(32).toString('base64url');
  await insertSsoCode(tx, {
    ...fields,
    purpose: kind,
    codeHash: hashToken(code),
    expiresAt: new Date(Date.now() + CODE_SECONDS[kind] * 1000),
  });
  return { kind, code };
}

/** Links the person's identity at the provider to the user; an earlier link of it wins (a race). */
function linkPerson(tx: Executor, providerId: number, userId: number, person: Person) {
  return insertIdentity(tx, {
    providerId,
    externalId: person.externalId,
    userId,
    email: person.email,
    institutionalId: person.institutionalId,
  });
}

/** Records the sign-in on the identity and the account, and joins the courses waiting for the person. */
async function signedIn(tx: Executor, identityId: number, userId: number, person: Person): Promise<void> {
  await touchIdentity(tx, identityId, { email: person.email, institutionalId: person.institutionalId });
  await fillEmptyNames(tx, userId, person);
  if (person.institutionalId) await joinPendingMemberships(tx, userId, [person.institutionalId]);
}

/**
 * Decides who `person` is and hands back the code the web app continues with. Throws SsoFailure for
 * the person's own page; nothing is created by a refused sign-in (one transaction).
 */
export async function resolvePerson(
  ctx: AppContext,
  provider: ProviderRow,
  person: Person,
  saml: SamlSessionInfo | null,
  next: string | null,
): Promise<Outcome> {
  return ctx.db.transaction(async (tx) => {
    const payload: CodePayload = { person, saml };
    const linked = await findIdentity(tx, provider.id, person.externalId);
    if (linked) {
      const user = await findUserById(tx, linked.userId);
      if (!user?.isActive) throw new SsoFailure('inactive', `Account ${linked.userId} is deactivated.`);
      await signedIn(tx, linked.id, user.id, person);
      return newCode(tx, 'sign_in', { providerId: provider.id, userId: user.id, payload, next });
    }
    const existing = person.email ? await findUserByEmail(tx, person.email) : null;
    if (existing) {
      if (await hasOtherIdentity(tx, provider.id, existing.id, person.externalId)) {
        throw new SsoFailure(
          'account_mismatch',
          `${person.email} is linked at ${provider.slug} under another id than ${person.externalId}.`,
        );
      }
      if (!existing.isActive) throw new SsoFailure('inactive', `Account ${existing.id} is deactivated.`);
      return newCode(tx, 'link', { providerId: provider.id, userId: existing.id, payload, next });
    }
    if (!provider.allowCreate) throw new SsoFailure('no_account', `No account for ${person.externalId}.`);
    if (!person.email)
      throw new SsoFailure('no_email', `${provider.slug} sent no e-mail for ${person.externalId}.`);
    const user = await insertUser(tx, {
      email: person.email,
      firstName: person.firstName,
      lastName: person.lastName,
      firstNameJa: person.firstNameJa,
      lastNameJa: person.lastNameJa,
      emailVerifiedAt: new Date(),
    });
    // A concurrent first sign-in made the account a moment ago: that one's link decides.
    if (!user) throw new SsoFailure('expired', `Account for ${person.email} was created concurrently.`);
    const identity = await linkPerson(tx, provider.id, user.id, person);
    await signedIn(tx, identity.id, identity.userId, person);
    return newCode(tx, 'sign_in', { providerId: provider.id, userId: identity.userId, payload, next });
  });
}

/** 410: the code is gone (used, expired, or never made); the page says to sign in again. */
const codeExpired = () =>
  new HttpError(410, 'sso_code_expired', 'This sign-in has expired or was already used. Sign in again.');

function payloadOf(row: SsoCodeRow): CodePayload {
  return row.payload as CodePayload;
}

/** Opens the session a code stands for (inside `tx`) and answers as every sign-in does. */
async function openFor(
  ctx: AppContext,
  tx: Executor,
  row: SsoCodeRow,
  client: ClientInfo,
): Promise<SsoExchangeResponse> {
  const user = row.userId ? await findUserById(tx, row.userId) : null;
  if (!user?.isActive) throw codeExpired();
  await updateLastLogin(tx, user.id);
  const { tokens, sessionId } = await openSessionWithId(ctx, tx, user.id, client);
  const saml = payloadOf(row).saml;
  if (saml) await insertSsoSession(tx, { sessionId, providerId: row.providerId, ...saml });
  return { ...tokens, user: { pk: user.id, email: user.email }, next: row.next };
}

/** `POST Auth/Sso/Exchange/`: the one-time code for tokens. */
export async function exchangeCode(
  ctx: AppContext,
  code: string,
  client: ClientInfo,
): Promise<SsoExchangeResponse> {
  return ctx.db.transaction(async (tx) => {
    const row = await takeSsoCode(tx, hashToken(code), 'sign_in');
    if (!row) throw codeExpired();
    return openFor(ctx, tx, row, client);
  });
}

/** Links the identity a `link` code carries to its account (proven by the caller), then signs in. */
export async function completeLink(
  ctx: AppContext,
  tx: Executor,
  row: SsoCodeRow,
  client: ClientInfo,
): Promise<SsoExchangeResponse> {
  const { person } = payloadOf(row);
  if (!row.userId) throw codeExpired();
  if (await hasOtherIdentity(tx, row.providerId, row.userId, person.externalId)) throw codeExpired();
  const identity = await linkPerson(tx, row.providerId, row.userId, person);
  // Linked to someone else meanwhile (a staff action): this code no longer holds.
  if (identity.userId !== row.userId) throw codeExpired();
  await signedIn(tx, identity.id, row.userId, person);
  return openFor(ctx, tx, row, client);
}

export { codeExpired };
