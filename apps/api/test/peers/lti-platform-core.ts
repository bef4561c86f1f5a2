import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  SignJWT,
  exportJWK,
  generateKeyPair,
  type CryptoKey,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import type {
  AgsLineItem,
  AgsScore,
  ContentItem,
  NrpsMember,
  ToolRegistrationRequest,
} from './lti-shapes.ts';

/*
 * What the parts of the LTI platform emulator share: its state, its signing keys and the few HTTP
 * helpers its endpoints use. lti-platform.ts wires the parts together; see it for the overview.
 */

export interface ToolRecord {
  clientId: string;
  deploymentIds: string[];
  loginUrl: string;
  redirectUris: string[];
  jwksUrl: string;
  /** Where resource link launches go unless the link or the launch names another URL. */
  targetLinkUri: string;
  /** Where deep linking requests go (the "content selection URL" an LMS admin enters). */
  deepLinkingUrl: string;
  /** The scopes the platform grants this tool (AGS and NRPS). */
  scopes: string[];
  /** The tool's keys, fetched from its jwks URL and fetched again for an unknown kid. */
  keys: JWTVerifyGetKey;
  /** The nonce of the tool's previous authentication request, for the nonce-replay misbehaviour. */
  lastNonce?: string;
}

export interface LaunchMisbehaviour {
  /** The id_token's `aud` (and `azp`) instead of the client_id. */
  aud?: string | string[];
  /** The id_token's `iss` instead of the platform's issuer. */
  iss?: string;
  /** The id_token's deployment_id claim instead of the launch's. */
  deploymentId?: string;
  /** iat fifteen and exp ten minutes ago. */
  expired?: boolean;
  /** The nonce of the tool's previous authentication request instead of this one's. */
  replayNonce?: boolean;
  /** Signed with a fresh key whose kid the platform's JWKS never lists. */
  unknownKey?: boolean;
  /** Claim names left out of the id_token (full URLs for the LTI claims). */
  omitClaims?: string[];
}

export interface DeepLinkingOptions {
  acceptTypes?: ('link' | 'file' | 'html' | 'ltiResourceLink' | 'image')[];
  acceptPresentationDocumentTargets?: ('iframe' | 'window' | 'embed')[];
  acceptMultiple?: boolean;
  acceptLineItem?: boolean;
  autoCreate?: boolean;
  title?: string;
  text?: string;
  /** The opaque `data` the tool must echo; a random value unless given, none when null. */
  data?: string | null;
}

export interface PreparedLaunchRecord {
  id: string;
  clientId: string;
  deploymentId: string;
  loginHint: string;
  messageType: 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest';
  user: { sub: string; name?: string; givenName?: string; familyName?: string; email?: string };
  roles: string[];
  contextId: string;
  resourceLinkId?: string;
  targetLinkUri: string;
  custom?: Record<string, string>;
  agsScopes?: string[];
  nrps: boolean;
  deepLinking?: DeepLinkingOptions & { data?: string };
  presentation: { documentTarget: 'iframe' | 'window' | 'frame'; returnUrl?: string; locale?: string };
  misbehave: LaunchMisbehaviour;
  loginInitiationUrl: string;
}

export interface ContextRecord {
  id: string;
  label?: string;
  title?: string;
  /** Set by setMembers; otherwise the roster is everyone who launched in the context. */
  members?: NrpsMember[];
  launched: Map<string, NrpsMember>;
}

export interface ResourceLinkRecord {
  id: string;
  contextId: string;
  title?: string;
  url?: string;
  custom?: Record<string, string>;
}

export interface LineItemRecord {
  id: string;
  contextId: string;
  item: AgsLineItem;
  /** userId → the last score applied, whose timestamp later scores must follow. */
  results: Map<string, AgsScore>;
}

export interface RecordedTokenRequest {
  clientId?: string;
  scopes: string[];
  /** The HTTP status the platform answered. */
  status: number;
}

export interface RecordedScore {
  contextId: string;
  lineItemUrl: string;
  score: AgsScore;
  /** False when the platform ignored it: its timestamp did not follow the last one on record. */
  applied: boolean;
}

export interface RecordedDeepLink {
  launchId: string;
  contextId: string;
  contentItems: ContentItem[];
  /** The resource links the platform created, with the line item it made for each when asked. */
  resourceLinks: { id: string; title?: string; url?: string; lineItemUrl?: string }[];
  msg?: string;
  log?: string;
  errormsg?: string;
  errorlog?: string;
}

export interface RecordedRegistration {
  clientId: string;
  deploymentId: string;
  request: ToolRegistrationRequest;
}

interface PlatformKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  published: boolean;
}

async function newKey(published: boolean): Promise<PlatformKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomBytes(8).toString('hex');
  return {
    kid,
    privateKey,
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
    published,
  };
}

/** The platform's RS256 keys: one signs, the JWKS lists the published ones (SEC §6 key management). */
export class KeyRing {
  private constructor(private keys: PlatformKey[]) {}

  static async create(): Promise<KeyRing> {
    return new KeyRing([await newKey(true)]);
  }

  get kid(): string {
    return this.current.kid;
  }

  private get current(): PlatformKey {
    const key = this.keys.at(-1);
    if (!key) throw new Error('the key ring is empty');
    return key;
  }

  jwks(): { keys: JWK[] } {
    return { keys: this.keys.filter((key) => key.published).map((key) => key.publicJwk) };
  }

  /** A new key signs from now on; the old ones stay in the JWKS only when `keepOld`. */
  async rotate(keepOld: boolean): Promise<string> {
    const next = await newKey(true);
    if (!keepOld) for (const key of this.keys) key.published = false;
    this.keys.push(next);
    return next.kid;
  }

  /** Signs with the current key, or with a throwaway key the JWKS never lists. */
  async sign(payload: JWTPayload, options: { unknownKey?: boolean } = {}): Promise<string> {
    const key = options.unknownKey ? await newKey(false) : this.current;
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .sign(key.privateKey);
  }
}

export interface PlatformCore {
  issuer: string;
  tokenUrl: string;
  keys: KeyRing;
  productFamilyCode: string;
  expiresIn: number;
  tools: Map<string, ToolRecord>;
  launches: Map<string, PreparedLaunchRecord>;
  contexts: Map<string, ContextRecord>;
  resourceLinks: Map<string, ResourceLinkRecord>;
  lineItems: Map<string, LineItemRecord>;
  accessTokens: Map<string, { clientId: string; scopes: string[]; expiresAt: number }>;
  /** Assertion jti → its exp (seconds): SEC §4.1.1 lets a jti come back once that has passed. */
  usedJtis: Map<string, number>;
  usedDeepLinkNonces: Set<string>;
  /** Registration token → whether it was used (DR: each is good for one registration). */
  registrationTokens: Map<string, boolean>;
  scoreOutage: { count: number; status: number | 'drop' };
  failedScorePosts: number;
  lastIdToken?: string;
  lastState?: string;
  violations: string[];
  tokenRequests: RecordedTokenRequest[];
  scores: RecordedScore[];
  deepLinks: RecordedDeepLink[];
  registrations: RecordedRegistration[];
}

/** A short identifier unique within the process, for line items, links and launches. */
let sequence = 0;
export function nextId(prefix: string): string {
  sequence += 1;
  return `${prefix}-${sequence}`;
}

export function randomToken(): string {
  return randomBytes(24).toString('base64url');
}

export function violation(core: PlatformCore, where: string, message: string): void {
  core.violations.push(`${where}: ${message}`);
}

export function contextOf(core: PlatformCore, id: string): ContextRecord {
  let context = core.contexts.get(id);
  if (!context) {
    context = { id, launched: new Map() };
    core.contexts.set(id, context);
  }
  return context;
}

export const urls = {
  lineItems: (core: PlatformCore, contextId: string) =>
    `${core.issuer}/contexts/${encodeURIComponent(contextId)}/lineitems`,
  lineItem: (core: PlatformCore, record: LineItemRecord) =>
    `${urls.lineItems(core, record.contextId)}/${encodeURIComponent(record.id)}`,
  memberships: (core: PlatformCore, contextId: string) =>
    `${core.issuer}/contexts/${encodeURIComponent(contextId)}/memberships`,
  course: (core: PlatformCore, contextId: string) =>
    `${core.issuer}/lms/course/${encodeURIComponent(contextId)}`,
};

export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** The route's captured path segments, decoded. */
  params: string[];
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > 1_000_000) throw new Error('request body over 1 MB');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The request's media type without parameters (`application/json; charset=utf-8` → `application/json`). */
export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

export function send(res: ServerResponse, status: number, body: string, contentType: string): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  contentType = 'application/json',
): void {
  send(res, status, JSON.stringify(value), contentType);
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  send(res, status, html, 'text/html; charset=utf-8');
}

/** RFC 6749 §5.2 / RFC 7591 §3.2.2 error body. */
export function sendOAuthError(
  res: ServerResponse,
  status: number,
  error: string,
  description: string,
): void {
  sendJson(res, status, { error, error_description: description });
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * One page of `items` by the `limit` and `page` query parameters, with the RFC 8288 `Link` header
 * AGS and NRPS ask for: rel="next" while more items follow (the next URL carries every filter of
 * this one, as AGS "Container Request Filters" requires), and rel="first".
 */
export function paginate<T>(core: PlatformCore, exchange: Exchange, where: string, items: T[]): T[] {
  const { url, res } = exchange;
  const limitParam = url.searchParams.get('limit');
  if (limitParam === null) return items;
  const limit = Number(limitParam);
  if (!Number.isInteger(limit) || limit < 1) {
    violation(core, where, `limit must be a positive integer, got ${JSON.stringify(limitParam)}`);
    return items;
  }
  const page = Math.max(1, Number(url.searchParams.get('page') ?? '1') || 1);
  const link = (pageNumber: number, rel: string) => {
    const target = new URL(url.href);
    target.searchParams.set('page', String(pageNumber));
    return `<${target.href}>; rel="${rel}"`;
  };
  const links = [link(1, 'first')];
  if (page * limit < items.length) links.push(link(page + 1, 'next'));
  res.setHeader('link', links.join(', '));
  return items.slice((page - 1) * limit, page * limit);
}

/**
 * The access token of a service request (SEC §4.1: `Authorization: Bearer`), refused per RFC 6750
 * §3.1 when absent or unknown (401) or without one of `scopes` (403). An expired token is refused
 * without a violation: using one just past its lifetime is the race a tool recovers from.
 */
export function authorize(core: PlatformCore, exchange: Exchange, where: string, scopes: string[]): boolean {
  const { req, res } = exchange;
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  const refuse = (status: number, error: string, description: string, isViolation = true) => {
    if (isViolation) violation(core, where, description);
    res.setHeader('www-authenticate', `Bearer error="${error}", error_description="${description}"`);
    sendOAuthError(res, status, error, description);
    return false;
  };
  if (!match?.[1]) return refuse(401, 'invalid_request', 'no Bearer access token');
  const token = core.accessTokens.get(match[1]);
  if (!token) return refuse(401, 'invalid_token', 'unknown access token');
  if (token.expiresAt <= Date.now()) return refuse(401, 'invalid_token', 'expired access token', false);
  if (!scopes.some((scope) => token.scopes.includes(scope))) {
    return refuse(403, 'insufficient_scope', `the access token has none of the scopes ${scopes.join(', ')}`);
  }
  return true;
}
