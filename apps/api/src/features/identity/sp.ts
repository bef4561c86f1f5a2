import { generate } from 'selfsigned';
import type { ServiceProviderInfo } from '@kadai/contracts';
import type { AppContext } from '../../lib/context.ts';
import { seal, unseal } from '../../lib/secrets.ts';
import { insertSpKeyRow, oldestSpKeyRow } from './sso.repo.ts';

/*
 * Kadai as a service provider: its stable URLs (what is registered with GakuNin or an IdP) and the key
 * pair that signs its AuthnRequests and LogoutRequests and decrypts encrypted assertions. The pair is
 * made on first use and kept in the database (the private key sealed), so every API instance uses the
 * same one and it survives restarts; the oldest pair wins when two instances make one at once.
 */

export function spUrls(ctx: AppContext): ServiceProviderInfo {
  const base = `${ctx.config.publicUrl}/api`;
  return {
    saml_entity_id: `${base}/Auth/Saml/metadata/`,
    saml_metadata_url: `${base}/Auth/Saml/metadata/`,
    saml_acs_url: `${base}/Auth/Saml/acs/`,
    saml_slo_url: `${base}/Auth/Saml/slo/`,
    oidc_redirect_uri: `${base}/Auth/Oidc/callback/`,
  };
}

export interface SpKeyPair {
  certificate: string;
  privateKey: string;
}

/** Per database (tests run several in one process). */
const cached = new WeakMap<object, Promise<SpKeyPair>>();

async function oldestPair(ctx: AppContext): Promise<SpKeyPair | null> {
  const row = await oldestSpKeyRow(ctx.db);
  if (!row) return null;
  const privateKey = unseal(ctx.config.JWT_SECRET, row.privateKeyEnc);
  if (!privateKey) throw new Error('The SAML SP key cannot be opened: JWT_SECRET changed since it was made.');
  return { certificate: row.certificate, privateKey };
}

async function loadOrCreate(ctx: AppContext): Promise<SpKeyPair> {
  const existing = await oldestPair(ctx);
  if (existing) return existing;
  const host = new URL(ctx.config.publicUrl).hostname;
  const made = await generate([{ name: 'commonName', value: host }], {
    keySize: 2048,
    notAfterDate: new Date(Date.now() + 10 * 365 * 24 * 60 * 60 * 1000),
    algorithm: 'sha256',
  });
  await insertSpKeyRow(ctx.db, {
    certificate: made.cert,
    privateKeyEnc: seal(ctx.config.JWT_SECRET, made.private),
  });
  return (await oldestPair(ctx))!;
}

export function spKeyPair(ctx: AppContext): Promise<SpKeyPair> {
  let pair = cached.get(ctx.db);
  if (!pair) {
    pair = loadOrCreate(ctx);
    cached.set(ctx.db, pair);
    pair.catch(() => cached.delete(ctx.db));
  }
  return pair;
}
