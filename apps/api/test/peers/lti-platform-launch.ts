import type { JWTPayload } from 'jose';
import {
  contextOf,
  escapeHtml,
  nextId,
  randomToken,
  readBody,
  sendHtml,
  urls,
  violation,
  type DeepLinkingOptions,
  type Exchange,
  type LaunchMisbehaviour,
  type PlatformCore,
  type PreparedLaunchRecord,
} from './lti-platform-core.ts';
import {
  CLAIM,
  CONTEXT_TYPE,
  LtiDeepLinkingIdToken,
  LtiResourceLinkIdToken,
  OidcAuthenticationRequest,
  SCOPE,
  describeIssues,
} from './lti-shapes.ts';

/*
 * The launch: third-party initiated login (SEC §5.1.1.1), the authentication request and response
 * (SEC §5.1.1.2–3) and the id_token's claims (Core §5.3–5.4, DL "Deep linking request message",
 * AGS and NRPS claims), plus the LMS course page a browser test opens.
 */

export interface LtiLaunchSpec {
  /** The tool launched; the only (or last) configured tool when left out. */
  clientId?: string;
  /** The tool's first deployment when left out. */
  deploymentId?: string;
  user: { sub: string; name?: string; givenName?: string; familyName?: string; email?: string };
  /** Full role URIs (ROLE in lti-shapes.ts). */
  roles: string[];
  context: { id: string; label?: string; title?: string };
  messageType?: 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest';
  /** Resource link launches only; a new link `link-N` when left out. */
  resourceLink?: { id: string; title?: string; description?: string };
  /** The link's URL (from deep linking), else the tool's launch or deep linking URL, when left out. */
  targetLinkUri?: string;
  custom?: Record<string, string>;
  /** The AGS endpoint claim; by default present when the tool was granted an AGS scope. */
  ags?: boolean | { scopes: string[] };
  /** The NRPS claim; by default present when the tool was granted the membership scope. */
  nrps?: boolean;
  deepLinking?: DeepLinkingOptions;
  presentation?: { documentTarget?: 'iframe' | 'window' | 'frame'; returnUrl?: string; locale?: string };
  misbehave?: LaunchMisbehaviour;
}

export interface PreparedLtiLaunch {
  launchId: string;
  /** The tool's login URL with the SEC §5.1.1.1 parameters: where the browser goes first. */
  loginInitiationUrl: string;
  /** The LMS course page holding the tool's iframe, for browser tests. */
  lmsPageUrl: string;
  loginHint: string;
  messageHint: string;
  resourceLinkId?: string;
  /** Deep linking launches: where the tool posts its response. */
  deepLinkReturnUrl?: string;
}

const AGS_SCOPES: string[] = [SCOPE.lineItem, SCOPE.lineItemReadonly, SCOPE.resultReadonly, SCOPE.score];

export function prepareLaunch(core: PlatformCore, spec: LtiLaunchSpec): PreparedLtiLaunch {
  const tool = spec.clientId ? core.tools.get(spec.clientId) : [...core.tools.values()].at(-1);
  if (!tool) throw new Error(`prepareLaunch: no tool ${spec.clientId ?? ''} is configured`);
  const messageType = spec.messageType ?? 'LtiResourceLinkRequest';
  const context = contextOf(core, spec.context.id);
  context.label = spec.context.label ?? context.label;
  context.title = spec.context.title ?? context.title;
  const { user } = spec;
  context.launched.set(user.sub, {
    user_id: user.sub,
    roles: spec.roles,
    status: 'Active',
    name: user.name,
    given_name: user.givenName,
    family_name: user.familyName,
    email: user.email,
  });

  const id = randomToken();
  let targetLinkUri = spec.targetLinkUri;
  let resourceLinkId: string | undefined;
  if (messageType === 'LtiResourceLinkRequest') {
    resourceLinkId = spec.resourceLink?.id ?? nextId('link');
    const link = core.resourceLinks.get(resourceLinkId) ?? { id: resourceLinkId, contextId: context.id };
    link.title = spec.resourceLink?.title ?? link.title;
    core.resourceLinks.set(resourceLinkId, link);
    targetLinkUri ??= link.url ?? tool.targetLinkUri;
  }
  targetLinkUri ??= tool.deepLinkingUrl;

  const granted = (scopes: string[]) => tool.scopes.filter((scope) => scopes.includes(scope));
  const agsScopes =
    spec.ags === false ? undefined : typeof spec.ags === 'object' ? spec.ags.scopes : granted(AGS_SCOPES);
  const record: PreparedLaunchRecord = {
    id,
    clientId: tool.clientId,
    deploymentId: spec.deploymentId ?? tool.deploymentIds[0] ?? '',
    loginHint: user.sub,
    messageType,
    user,
    roles: spec.roles,
    contextId: context.id,
    resourceLinkId,
    targetLinkUri,
    custom: spec.custom,
    agsScopes: agsScopes?.length || spec.ags ? agsScopes : undefined,
    nrps: spec.nrps ?? tool.scopes.includes(SCOPE.contextMembershipReadonly),
    presentation: {
      documentTarget: spec.presentation?.documentTarget ?? 'iframe',
      returnUrl: spec.presentation?.returnUrl ?? urls.course(core, context.id),
      locale: spec.presentation?.locale,
    },
    misbehave: spec.misbehave ?? {},
    loginInitiationUrl: '',
  };
  if (messageType === 'LtiDeepLinkingRequest') {
    const data = spec.deepLinking?.data === undefined ? randomToken() : (spec.deepLinking.data ?? undefined);
    record.deepLinking = { ...spec.deepLinking, data };
  }
  const login = new URL(tool.loginUrl);
  login.searchParams.set('iss', core.issuer);
  login.searchParams.set('login_hint', record.loginHint);
  login.searchParams.set('target_link_uri', targetLinkUri);
  login.searchParams.set('lti_message_hint', id);
  login.searchParams.set('client_id', tool.clientId);
  login.searchParams.set('lti_deployment_id', record.deploymentId);
  record.loginInitiationUrl = login.href;
  core.launches.set(id, record);
  return {
    launchId: id,
    loginInitiationUrl: login.href,
    lmsPageUrl: `${urls.course(core, context.id)}/launch/${id}`,
    loginHint: record.loginHint,
    messageHint: id,
    resourceLinkId,
    deepLinkReturnUrl: record.deepLinking ? `${core.issuer}/deep-links/${id}` : undefined,
  };
}

function errorPage(title: string, detail: string): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(detail)}</p></html>`;
}

/** An auto-submitting form_post (OAuth 2.0 Form Post Response Mode) to the tool's redirect URI. */
function formPost(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>Launching…</title>
<body onload="document.forms[0].submit()">
<form method="post" action="${escapeHtml(action)}">
${inputs}
<noscript><button type="submit">Continue</button></noscript>
</form></body></html>`;
}

/**
 * SEC §5.1.1.2–3: checks the tool's authentication request and answers with the id_token. An unknown
 * client or unregistered redirect_uri gets an error page (OIDC Core §3.1.2.6 forbids redirecting to
 * it); every other fault goes back to the tool as an OIDC error response, as a platform does.
 */
export async function authorizationEndpoint(core: PlatformCore, exchange: Exchange): Promise<void> {
  const { req, res, url } = exchange;
  const where = 'authentication request';
  const params = req.method === 'POST' ? new URLSearchParams(await readBody(req)) : url.searchParams;
  const fields = Object.fromEntries(params);
  const tool = core.tools.get(fields.client_id ?? '');
  if (!tool) {
    violation(core, where, `unknown client_id ${JSON.stringify(fields.client_id)}`);
    sendHtml(res, 400, errorPage('Unknown client', 'This tool is not registered with the platform.'));
    return;
  }
  const redirectUri = fields.redirect_uri ?? '';
  if (!tool.redirectUris.includes(redirectUri)) {
    violation(
      core,
      where,
      `redirect_uri ${JSON.stringify(redirectUri)} is not registered for ${tool.clientId}`,
    );
    sendHtml(
      res,
      400,
      errorPage('Invalid redirect URI', 'The redirect_uri is not registered for this tool.'),
    );
    return;
  }
  const refuse = (error: string, description: string) => {
    violation(core, where, description);
    const answer: Record<string, string> = { error, error_description: description };
    if (fields.state) answer.state = fields.state;
    sendHtml(res, 200, formPost(redirectUri, answer));
  };
  const parsed = OidcAuthenticationRequest.safeParse(fields);
  if (!parsed.success) return refuse('invalid_request', describeIssues(parsed.error).join('; '));
  const request = parsed.data;
  const launch = core.launches.get(request.lti_message_hint ?? '');
  if (!launch) return refuse('invalid_request', 'lti_message_hint names no launch this platform started');
  if (launch.clientId !== tool.clientId)
    return refuse('invalid_request', 'the launch was for another client');
  if (launch.loginHint !== request.login_hint)
    return refuse('login_required', 'login_hint is not the launching user');

  if (request.state === undefined) {
    // RECOMMENDED, not REQUIRED (SEC §5.1.1.2): the launch goes on, but a tool without it has no CSRF defence.
    violation(core, where, 'no state (RECOMMENDED for CSRF mitigation)');
  }
  const nonce = launch.misbehave.replayNonce && tool.lastNonce ? tool.lastNonce : request.nonce;
  tool.lastNonce = request.nonce;
  const idToken = await mintIdToken(core, launch, nonce);
  core.lastIdToken = idToken;
  core.lastState = request.state;
  const response: Record<string, string> = { id_token: idToken };
  if (request.state !== undefined) response.state = request.state;
  sendHtml(res, 200, formPost(redirectUri, response));
}

function launchClaims(core: PlatformCore, launch: PreparedLaunchRecord, nonce: string): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  const context = contextOf(core, launch.contextId);
  const { user, presentation } = launch;
  const claims: JWTPayload = {
    iss: core.issuer,
    sub: user.sub,
    aud: launch.clientId,
    azp: launch.clientId,
    iat: now,
    exp: now + 600,
    nonce,
    name: user.name,
    given_name: user.givenName,
    family_name: user.familyName,
    email: user.email,
    [CLAIM.messageType]: launch.messageType,
    [CLAIM.version]: '1.3.0',
    [CLAIM.deploymentId]: launch.deploymentId,
    [CLAIM.targetLinkUri]: launch.targetLinkUri,
    [CLAIM.roles]: launch.roles,
    [CLAIM.context]: {
      id: context.id,
      label: context.label,
      title: context.title,
      type: [CONTEXT_TYPE.courseOffering],
    },
    [CLAIM.toolPlatform]: {
      guid: core.issuer,
      name: 'Emulated LMS',
      product_family_code: core.productFamilyCode,
    },
    [CLAIM.launchPresentation]: {
      document_target: presentation.documentTarget,
      return_url: presentation.returnUrl,
      locale: presentation.locale,
    },
  };
  const custom = { ...core.resourceLinks.get(launch.resourceLinkId ?? '')?.custom, ...launch.custom };
  if (Object.keys(custom).length > 0) claims[CLAIM.custom] = custom;
  if (launch.resourceLinkId) {
    const link = core.resourceLinks.get(launch.resourceLinkId);
    claims[CLAIM.resourceLink] = { id: launch.resourceLinkId, title: link?.title };
  }
  if (launch.agsScopes) {
    // AGS "Line item service": lineitem only when exactly one line item belongs to the link.
    const bound = [...core.lineItems.values()].filter(
      (record) => launch.resourceLinkId && record.item.resourceLinkId === launch.resourceLinkId,
    );
    claims[CLAIM.agsEndpoint] = {
      scope: launch.agsScopes,
      lineitems: urls.lineItems(core, context.id),
      lineitem: bound.length === 1 && bound[0] ? urls.lineItem(core, bound[0]) : undefined,
    };
  }
  if (launch.nrps) {
    claims[CLAIM.namesRoleService] = {
      context_memberships_url: urls.memberships(core, context.id),
      service_versions: ['2.0'],
    };
  }
  if (launch.deepLinking) {
    const settings = launch.deepLinking;
    claims[CLAIM.deepLinkingSettings] = {
      deep_link_return_url: `${core.issuer}/deep-links/${launch.id}`,
      accept_types: settings.acceptTypes ?? ['ltiResourceLink'],
      accept_presentation_document_targets: settings.acceptPresentationDocumentTargets ?? [
        'iframe',
        'window',
      ],
      accept_multiple: settings.acceptMultiple ?? true,
      accept_lineitem: settings.acceptLineItem ?? true,
      auto_create: settings.autoCreate,
      title: settings.title,
      text: settings.text,
      data: settings.data,
    };
  }
  return claims;
}

/** JSON drops undefined members; a schema check and a signature should see the same object. */
function withoutUndefined(value: JWTPayload): JWTPayload {
  return JSON.parse(JSON.stringify(value)) as JWTPayload;
}

async function mintIdToken(core: PlatformCore, launch: PreparedLaunchRecord, nonce: string): Promise<string> {
  const claims = withoutUndefined(launchClaims(core, launch, nonce));
  const schema =
    launch.messageType === 'LtiResourceLinkRequest' ? LtiResourceLinkIdToken : LtiDeepLinkingIdToken;
  const selfCheck = schema.safeParse(claims);
  if (!selfCheck.success) {
    violation(core, 'emulator id_token', describeIssues(selfCheck.error).join('; '));
  }
  const { misbehave } = launch;
  if (misbehave.aud !== undefined) {
    claims.aud = misbehave.aud;
    claims.azp = Array.isArray(misbehave.aud) ? misbehave.aud[0] : misbehave.aud;
  }
  if (misbehave.iss !== undefined) claims.iss = misbehave.iss;
  if (misbehave.deploymentId !== undefined) claims[CLAIM.deploymentId] = misbehave.deploymentId;
  if (misbehave.expired) {
    const now = Math.floor(Date.now() / 1000);
    Object.assign(claims, { iat: now - 900, exp: now - 600 });
  }
  const omit = new Set(misbehave.omitClaims);
  const sent = Object.fromEntries(Object.entries(claims).filter(([claim]) => !omit.has(claim)));
  return core.keys.sign(sent, { unknownKey: misbehave.unknownKey });
}

/** Canvas's `allow` list for tool iframes. */
const IFRAME_ALLOW =
  'geolocation *; microphone *; camera *; midi *; encrypted-media *; autoplay *; clipboard-write *; display-capture *';

function lmsPage(title: string, heading: string, body: string): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{margin:0;font-family:sans-serif}header{background:#2d3b45;color:#fff;padding:12px 24px}
main{padding:16px 24px}iframe{border:0;width:100%;min-height:800px}</style>
<header>Emulated LMS</header><main><h1>${escapeHtml(heading)}</h1>${body}</main></html>`;
}

/** GET /lms/course/{contextId}: the course with its links; /launch/{id} adds the tool's iframe. */
export function coursePage(core: PlatformCore, exchange: Exchange): void {
  const [contextId = '', launchId] = exchange.params;
  const context = core.contexts.get(contextId);
  if (!context) return sendHtml(exchange.res, 404, errorPage('Not found', 'No such course.'));
  const course = context.title ?? context.id;
  if (launchId === undefined) {
    const links = [...core.resourceLinks.values()]
      .filter((link) => link.contextId === contextId)
      .map((link) => `<li>${escapeHtml(link.title ?? link.id)}</li>`)
      .join('');
    return sendHtml(exchange.res, 200, lmsPage(`${course} · Emulated LMS`, course, `<ul>${links}</ul>`));
  }
  const launch = core.launches.get(launchId);
  if (!launch || launch.contextId !== contextId) {
    return sendHtml(exchange.res, 404, errorPage('Not found', 'No such launch in this course.'));
  }
  const link = core.resourceLinks.get(launch.resourceLinkId ?? '');
  const heading = link?.title ?? (launch.deepLinking ? 'Add content' : 'External tool');
  const iframe = `<iframe src="${escapeHtml(`${core.issuer}/lms/frame/${launchId}`)}" title="${escapeHtml(heading)}"
 width="100%" height="800" allow="${IFRAME_ALLOW}" allowfullscreen></iframe>`;
  sendHtml(exchange.res, 200, lmsPage(`${heading} · ${course} · Emulated LMS`, heading, iframe));
}

/** GET /lms/frame/{launchId}: the iframe's source, a redirect to the tool's login initiation URL. */
export function frameRedirect(core: PlatformCore, exchange: Exchange): void {
  const launch = core.launches.get(exchange.params[0] ?? '');
  if (!launch) return sendHtml(exchange.res, 404, errorPage('Not found', 'No such launch.'));
  exchange.res.writeHead(302, { location: launch.loginInitiationUrl }).end();
}
