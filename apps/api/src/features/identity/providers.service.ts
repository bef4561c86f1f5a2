import type {
  AttributeMap,
  IdentityProvider,
  IdentityProviderCreate,
  IdentityProviderPatch,
  PublicIdentityProvider,
} from '@kadai/contracts';
import type { AppContext } from '../../lib/context.ts';
import { readCappedText } from '../../lib/capped-body.ts';
import { badRequest, conflict, HttpError, notFound } from '../../lib/errors.ts';
import { checkIssuerUrl, IssuerError, probeIssuer } from './oidc.client.ts';
import {
  deleteProviderRow,
  findProviderRow,
  insertProviderRow,
  listProviderRows,
  updateProviderRow,
  type NewProvider,
  type ProviderRow,
} from './providers.repo.ts';
import { describeCertificate, MetadataError, parseIdpMetadata } from './saml-metadata.ts';
import { seal } from '../../lib/secrets.ts';
import { OidcSettings, SamlSettings } from './settings.ts';

/*
 * Identity providers as data (docs/sign-in.md): staff add, change and remove them; those declared in
 * IDENTITY_PROVIDERS are read-only here. A SAML provider's metadata is read on save (fetched from its
 * URL, or as uploaded); an OpenID provider's issuer must answer discovery on save. A provider that
 * cannot be reached is a 502 with the reason, never a half-made provider.
 */

const METADATA_TIMEOUT_MS = 10_000;
/** An IdP's own metadata is a few KB; a small federation's aggregate a few MB. */
const METADATA_MAX_BYTES = 5 * 1024 * 1024;

const unreachable = (detail: string, code: string) => new HttpError(502, code, detail);

async function fetchMetadata(url: string): Promise<string> {
  let response: Response;
  let text: string | null;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
      signal: AbortSignal.timeout(METADATA_TIMEOUT_MS),
    });
    text = await readCappedText(response, METADATA_MAX_BYTES);
  } catch (error) {
    throw unreachable(
      `The metadata URL could not be reached: ${(error as Error).message}`,
      'metadata_unreachable',
    );
  }
  if (!response.ok)
    throw unreachable(`The metadata URL answered ${response.status}.`, 'metadata_unreachable');
  if (text === null)
    throw badRequest('The metadata is larger than 5 MB.', { metadata_url: ['Larger than 5 MB.'] });
  return text;
}

async function samlSettingsFrom(
  input: { metadata_url?: string; metadata_xml?: string; entity_id?: string },
  previous: SamlSettings | null,
): Promise<SamlSettings | null> {
  const url = input.metadata_url ?? null;
  if (!url && input.metadata_xml === undefined) return null;
  const field = url ? 'metadata_url' : 'metadata_xml';
  const xml = url ? await fetchMetadata(url) : input.metadata_xml!;
  try {
    const meta = parseIdpMetadata(xml, input.entity_id ?? previous?.entityId);
    return SamlSettings.parse({
      ...(previous ?? {}),
      metadataUrl: url,
      entityId: meta.entityId,
      ssoUrl: meta.ssoUrl,
      sloUrl: meta.sloUrl,
      certificates: meta.certificates,
      metadataFetchedAt: url ? new Date().toISOString() : null,
      attributeMap: previous?.attributeMap ?? {},
    });
  } catch (error) {
    if (error instanceof MetadataError) throw badRequest(error.message, { [field]: [error.message] });
    throw error;
  }
}

async function checkIssuer(issuer: string, clientId: string): Promise<void> {
  let reason: string | null;
  try {
    checkIssuerUrl(issuer);
    reason = await probeIssuer(issuer, clientId);
  } catch (error) {
    if (error instanceof IssuerError) throw badRequest(error.message, { issuer: [error.message] });
    throw error;
  }
  if (reason)
    throw unreachable(`The issuer did not answer OpenID discovery: ${reason}`, 'issuer_unreachable');
}

function stripMap(map: AttributeMap | undefined): AttributeMap {
  const out: AttributeMap = {};
  for (const [field, names] of Object.entries(map ?? {}) as [keyof AttributeMap, string[] | undefined][]) {
    if (names && names.length > 0) out[field] = names;
  }
  return out;
}

export function toIdentityProvider(row: ProviderRow): IdentityProvider {
  const common = {
    id: row.id,
    slug: row.slug,
    kind: row.kind,
    name_ja: row.nameJa,
    name_en: row.nameEn,
    email_domain: row.emailDomain,
    enabled: row.enabled,
    allow_create: row.allowCreate,
    managed_by: row.managedBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
  if (row.kind === 'saml') {
    const s = SamlSettings.parse(row.settings);
    return {
      ...common,
      attribute_map: s.attributeMap,
      saml: {
        metadata_url: s.metadataUrl,
        entity_id: s.entityId,
        sso_url: s.ssoUrl,
        slo_url: s.sloUrl,
        certificates: s.certificates.map(describeCertificate),
        id_source: s.idSource,
        metadata_fetched_at: s.metadataFetchedAt,
      },
      oidc: null,
    };
  }
  const o = OidcSettings.parse(row.settings);
  return {
    ...common,
    attribute_map: o.attributeMap,
    saml: null,
    oidc: {
      issuer: o.issuer,
      client_id: o.clientId,
      scopes: o.scopes,
      has_client_secret: row.secretEnc !== null,
    },
  };
}

export function toPublicProvider(row: ProviderRow): PublicIdentityProvider {
  return {
    slug: row.slug,
    kind: row.kind,
    name_ja: row.nameJa,
    name_en: row.nameEn,
    email_domain: row.emailDomain,
  };
}

export async function listProviders(ctx: AppContext): Promise<IdentityProvider[]> {
  return (await listProviderRows(ctx.db)).map(toIdentityProvider);
}

export async function enabledProviders(ctx: AppContext): Promise<PublicIdentityProvider[]> {
  return (await listProviderRows(ctx.db)).filter((r) => r.enabled).map(toPublicProvider);
}

export async function getProvider(ctx: AppContext, id: number): Promise<IdentityProvider> {
  const row = await findProviderRow(ctx.db, id);
  if (!row) throw notFound();
  return toIdentityProvider(row);
}

/** The row a create makes, checked against the provider (metadata read, discovery answered). */
export async function providerRowFrom(ctx: AppContext, input: IdentityProviderCreate): Promise<NewProvider> {
  const common = {
    slug: input.slug,
    kind: input.kind,
    nameJa: input.name_ja,
    nameEn: input.name_en,
    emailDomain: input.email_domain ?? null,
    enabled: input.enabled ?? true,
    allowCreate: input.allow_create ?? false,
  };
  if (input.kind === 'saml') {
    if (!input.metadata_url && input.metadata_xml === undefined) {
      const message = 'Give the metadata URL or the metadata XML.';
      throw badRequest(message, { metadata_url: [message] });
    }
    const settings = (await samlSettingsFrom(input, null))!;
    return {
      ...common,
      settings: {
        ...settings,
        idSource: input.id_source ?? 'attribute',
        attributeMap: stripMap(input.attribute_map),
      },
      secretEnc: null,
    };
  }
  await checkIssuer(input.issuer, input.client_id);
  const settings = OidcSettings.parse({
    issuer: input.issuer,
    clientId: input.client_id,
    scopes: input.scopes,
    attributeMap: stripMap(input.attribute_map),
  });
  return { ...common, settings, secretEnc: seal(ctx.config.JWT_SECRET, input.client_secret) };
}

const slugTaken = () =>
  conflict('Another provider uses this slug.', 'slug_taken', { slug: ['Already in use.'] });

export async function createProvider(
  ctx: AppContext,
  input: IdentityProviderCreate,
): Promise<IdentityProvider> {
  const row = await insertProviderRow(ctx.db, await providerRowFrom(ctx, input));
  if (!row) throw slugTaken();
  return toIdentityProvider(row);
}

async function changedSettings(ctx: AppContext, row: ProviderRow, patch: IdentityProviderPatch) {
  const map = patch.attribute_map === undefined ? undefined : stripMap(patch.attribute_map);
  if (row.kind === 'saml') {
    const previous = SamlSettings.parse(row.settings);
    const refreshed = await samlSettingsFrom(
      {
        metadata_url:
          patch.metadata_url ?? (patch.refresh_metadata ? (previous.metadataUrl ?? undefined) : undefined),
        metadata_xml: patch.metadata_xml,
        entity_id: patch.entity_id,
      },
      previous,
    );
    if (patch.entity_id !== undefined && !refreshed) {
      const message = 'Give the metadata (URL or XML) the entity id is to be picked from.';
      throw badRequest(message, { entity_id: [message] });
    }
    if (patch.refresh_metadata && !previous.metadataUrl && !patch.metadata_url) {
      throw badRequest('This provider has no metadata URL to fetch again.', { metadata_url: ['No URL.'] });
    }
    return {
      settings: {
        ...(refreshed ?? previous),
        idSource: patch.id_source ?? previous.idSource,
        attributeMap: map ?? previous.attributeMap,
      },
      secretEnc: row.secretEnc,
    };
  }
  const previous = OidcSettings.parse(row.settings);
  const next = {
    issuer: patch.issuer ?? previous.issuer,
    clientId: patch.client_id ?? previous.clientId,
    scopes: patch.scopes ?? previous.scopes,
    attributeMap: map ?? previous.attributeMap,
  };
  if (next.issuer !== previous.issuer || next.clientId !== previous.clientId) {
    await checkIssuer(next.issuer, next.clientId);
  }
  return {
    settings: next,
    secretEnc: patch.client_secret ? seal(ctx.config.JWT_SECRET, patch.client_secret) : row.secretEnc,
  };
}

export async function updateProvider(
  ctx: AppContext,
  id: number,
  patch: IdentityProviderPatch,
): Promise<IdentityProvider> {
  const row = await findProviderRow(ctx.db, id);
  if (!row) throw notFound();
  if (row.managedBy === 'env')
    throw conflict('This provider is declared in IDENTITY_PROVIDERS: change it there.', 'managed_by_env');
  const wrongKind =
    row.kind === 'saml'
      ? (['issuer', 'client_id', 'client_secret', 'scopes'] as const).filter((k) => patch[k] !== undefined)
      : (['metadata_url', 'metadata_xml', 'entity_id', 'refresh_metadata', 'id_source'] as const).filter(
          (k) => patch[k] !== undefined,
        );
  if (wrongKind.length > 0) {
    throw badRequest(
      `Not a setting of a ${row.kind.toUpperCase()} provider.`,
      Object.fromEntries(wrongKind.map((k) => [k, ['Not a setting of this kind of provider.']])),
    );
  }
  const { settings, secretEnc } = await changedSettings(ctx, row, patch);
  const updated = await updateProviderRow(ctx.db, id, {
    ...(patch.name_ja !== undefined ? { nameJa: patch.name_ja } : {}),
    ...(patch.name_en !== undefined ? { nameEn: patch.name_en } : {}),
    ...(patch.email_domain !== undefined ? { emailDomain: patch.email_domain } : {}),
    ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
    ...(patch.allow_create !== undefined ? { allowCreate: patch.allow_create } : {}),
    settings,
    secretEnc,
  });
  if (!updated) throw notFound();
  return toIdentityProvider(updated);
}

export async function deleteProvider(ctx: AppContext, id: number): Promise<void> {
  const row = await findProviderRow(ctx.db, id);
  if (!row) throw notFound();
  if (row.managedBy === 'env')
    throw conflict('This provider is declared in IDENTITY_PROVIDERS: remove it there.', 'managed_by_env');
  await deleteProviderRow(ctx.db, id);
}
