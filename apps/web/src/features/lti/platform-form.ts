import type { LtiPlatform, LtiPlatformInput } from '@kadai/contracts';

/** The platform dialog's fields, as its inputs hold them. */
export interface PlatformFormValues {
  name: string;
  issuer: string;
  client_id: string;
  auth_url: string;
  token_url: string;
  jwks_url: string;
  deployment_ids: string[];
  frame_origins: string[];
  allow_staff: boolean;
  enabled: boolean;
}

/** The fields the server may name in a 400, as the form names them. */
export const PLATFORM_FORM_FIELDS = [
  'name',
  'issuer',
  'client_id',
  'auth_url',
  'token_url',
  'jwks_url',
  'deployment_ids',
  'frame_origins',
] as const;

/** The text fields of the form, in the dialog's order. */
export const PLATFORM_TEXT_FIELDS = [
  'name',
  'issuer',
  'client_id',
  'auth_url',
  'token_url',
  'jwks_url',
] as const;
export type PlatformTextField = (typeof PLATFORM_TEXT_FIELDS)[number];

export function emptyPlatformForm(): PlatformFormValues {
  return {
    name: '',
    issuer: '',
    client_id: '',
    auth_url: '',
    token_url: '',
    jwks_url: '',
    deployment_ids: [],
    frame_origins: [],
    allow_staff: false,
    enabled: true,
  };
}

export function platformToForm(platform: LtiPlatform): PlatformFormValues {
  return {
    name: platform.name,
    issuer: platform.issuer,
    client_id: platform.client_id,
    auth_url: platform.auth_url,
    token_url: platform.token_url,
    jwks_url: platform.jwks_url,
    deployment_ids: [...platform.deployment_ids],
    frame_origins: [...platform.frame_origins],
    allow_staff: platform.allow_staff,
    enabled: platform.enabled,
  };
}

/** An origin as the server keeps it: scheme, host and port, without a path or a trailing slash. */
export function normalizeOrigin(value: string): string {
  const trimmed = value.trim();
  try {
    const url = new URL(trimmed);
    return url.origin === 'null' ? trimmed : url.origin;
  } catch {
    return trimmed;
  }
}

/**
 * The body of a new platform (or of a change: every field is sent). An empty list of frame origins is
 * left out of a new platform (the server then takes the origins of the issuer and the authorization
 * URL) and sent empty in a change (the same default, now that the list is cleared).
 */
export function toPlatformBody(values: PlatformFormValues, isNew: boolean): LtiPlatformInput {
  const body: LtiPlatformInput = {
    name: values.name.trim(),
    issuer: values.issuer.trim(),
    client_id: values.client_id.trim(),
    auth_url: values.auth_url.trim(),
    token_url: values.token_url.trim(),
    jwks_url: values.jwks_url.trim(),
    deployment_ids: values.deployment_ids.map((id) => id.trim()).filter((id) => id !== ''),
    allow_staff: values.allow_staff,
    enabled: values.enabled,
  };
  const origins = values.frame_origins.map(normalizeOrigin).filter((origin) => origin !== '');
  if (origins.length > 0 || !isNew) body.frame_origins = origins;
  return body;
}
