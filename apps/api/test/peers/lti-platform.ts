import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JWK } from 'jose';
import {
  KeyRing,
  contextOf,
  sendJson,
  urls,
  violation,
  type Exchange,
  type PlatformCore,
  type RecordedDeepLink,
  type RecordedRegistration,
  type RecordedScore,
  type RecordedTokenRequest,
} from './lti-platform-core.ts';
import { deepLinkReturn } from './lti-platform-deep-linking.ts';
import {
  authorizationEndpoint,
  coursePage,
  frameRedirect,
  prepareLaunch,
  type LtiLaunchSpec,
  type PreparedLtiLaunch,
} from './lti-platform-launch.ts';
import {
  addTool,
  dynamicRegistrationUrl,
  openIdConfiguration,
  registrationEndpoint,
  type LtiToolConfig,
} from './lti-platform-registration.ts';
import {
  lineItemEndpoint,
  lineItemsEndpoint,
  membershipsEndpoint,
  resultsEndpoint,
  scoresEndpoint,
  tokenEndpoint,
} from './lti-platform-services.ts';
import { NrpsMember, describeIssues, type AgsLineItem } from './lti-shapes.ts';

/*
 * An LTI 1.3 Advantage platform for tests: a plain HTTP server on 127.0.0.1 that behaves like a
 * spec-following LMS (launches, deep linking, AGS, NRPS, dynamic registration) and checks what the
 * tool sends against lti-shapes.ts. A fault of the tool is answered as an LMS would (the status or
 * OIDC error the specs give) and written to `violations`, so a test of a well-behaved tool asserts
 * `platform.violations` is empty. Misbehaviour of the platform for the tool's refusals is asked for
 * per launch (`misbehave`), by `rotateKey` and by `failScores`.
 *
 * Where the specs ask for HTTPS (an `iss` "using the HTTPS scheme", TLS for every exchange), the
 * emulator speaks plain HTTP on loopback, as the other test peers do; a tool under test allows
 * that only in tests.
 *
 * The parts: lti-platform-core.ts (state, keys, HTTP helpers), -launch.ts (login, id_token, LMS
 * pages), -deep-linking.ts, -services.ts (token, AGS, NRPS) and -registration.ts.
 */

export type { LtiLaunchSpec, PreparedLtiLaunch } from './lti-platform-launch.ts';
export type { LtiToolConfig } from './lti-platform-registration.ts';
export type {
  DeepLinkingOptions,
  LaunchMisbehaviour,
  RecordedDeepLink,
  RecordedRegistration,
  RecordedScore,
  RecordedTokenRequest,
} from './lti-platform-core.ts';

export interface LtiPlatformOptions {
  /** Access token lifetime in seconds (default 3600). */
  expiresIn?: number;
  /** The platform configuration's product_family_code (default `kadai-emulated-lms`). */
  productFamilyCode?: string;
}

export interface LtiPlatform {
  /** http://127.0.0.1:<port>, the `iss` of its messages. */
  issuer: string;
  openidConfigurationUrl: string;
  authUrl: string;
  tokenUrl: string;
  jwksUrl: string;
  registrationEndpoint: string;
  /** The kid of the key that signs now. */
  readonly kid: string;
  jwks(): { keys: JWK[] };
  /** The course page listing its links. */
  platformCourseUrl(contextId: string): string;
  lineItemsUrl(contextId: string): string;
  membershipsUrl(contextId: string): string;
  /** A new key signs from now on; the old one stays in the JWKS only when `keepOld`. Returns the new kid. */
  rotateKey(options: { keepOld: boolean }): Promise<string>;
  /** Manual registration; configuring the same clientId again adds the deployment. */
  configureTool(tool: LtiToolConfig): void;
  /** The URL the admin's browser opens: the tool's URL with openid_configuration and registration_token. */
  dynamicRegistrationUrl(toolRegistrationUrl: string): string;
  prepareLaunch(spec: LtiLaunchSpec): PreparedLtiLaunch;
  /** The roster NRPS serves for the context (otherwise: everyone who launched in it). */
  setMembers(contextId: string, members: NrpsMember[]): void;
  /** The next `count` score POSTs answer `status`, or lose their connection with 'drop'. */
  failScores(count: number, status: number | 'drop'): void;
  /** Lifetime of the access tokens issued from now on. */
  setExpiresIn(seconds: number): void;
  /** The context's line items as AGS serves them (id = the line item URL). */
  lineItems(contextId: string): (AgsLineItem & { id: string })[];
  readonly violations: string[];
  readonly registrations: RecordedRegistration[];
  readonly tokenRequests: RecordedTokenRequest[];
  readonly scores: RecordedScore[];
  readonly deepLinks: RecordedDeepLink[];
  /** Score POSTs failScores made fail. */
  readonly failedScorePosts: number;
  readonly lastIdToken: string | undefined;
  readonly lastState: string | undefined;
  close(): Promise<void>;
}

type Handler = (core: PlatformCore, exchange: Exchange) => void | Promise<void>;

interface Route {
  pattern: RegExp;
  methods: Record<string, Handler>;
}

const SEGMENT = '([^/]+)';
const CONTEXT = `/contexts/${SEGMENT}`;

const ROUTES: Route[] = [
  {
    pattern: /^\/\.well-known\/openid-configuration$/,
    methods: { GET: (c, e) => sendJson(e.res, 200, openIdConfiguration(c)) },
  },
  { pattern: /^\/jwks$/, methods: { GET: (c, e) => sendJson(e.res, 200, c.keys.jwks()) } },
  { pattern: /^\/auth$/, methods: { GET: authorizationEndpoint, POST: authorizationEndpoint } },
  { pattern: /^\/token$/, methods: { POST: tokenEndpoint } },
  { pattern: /^\/register$/, methods: { POST: registrationEndpoint } },
  { pattern: new RegExp(`^/deep-links/${SEGMENT}$`), methods: { POST: deepLinkReturn } },
  { pattern: new RegExp(`^/lms/course/${SEGMENT}(?:/launch/${SEGMENT})?$`), methods: { GET: coursePage } },
  { pattern: new RegExp(`^/lms/frame/${SEGMENT}$`), methods: { GET: frameRedirect } },
  {
    pattern: new RegExp(`^${CONTEXT}/lineitems$`),
    methods: { GET: lineItemsEndpoint, POST: lineItemsEndpoint },
  },
  {
    pattern: new RegExp(`^${CONTEXT}/lineitems/${SEGMENT}$`),
    methods: { GET: lineItemEndpoint, PUT: lineItemEndpoint, DELETE: lineItemEndpoint },
  },
  { pattern: new RegExp(`^${CONTEXT}/lineitems/${SEGMENT}/scores$`), methods: { POST: scoresEndpoint } },
  { pattern: new RegExp(`^${CONTEXT}/lineitems/${SEGMENT}/results$`), methods: { GET: resultsEndpoint } },
  { pattern: new RegExp(`^${CONTEXT}/memberships$`), methods: { GET: membershipsEndpoint } },
];

async function dispatch(core: PlatformCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', core.issuer);
  for (const route of ROUTES) {
    const match = route.pattern.exec(url.pathname);
    if (!match) continue;
    const params = match
      .slice(1)
      .flatMap((param) => (param === undefined ? [] : [decodeURIComponent(param)]));
    const handler = route.methods[req.method ?? 'GET'];
    if (!handler) {
      // AGS: scores are write-only and results read-only; a wrong method is the tool's mistake.
      violation(core, `${req.method} ${url.pathname}`, 'method not allowed');
      res.writeHead(405, { allow: Object.keys(route.methods).join(', ') }).end();
      return;
    }
    await handler(core, { req, res, url, params });
    return;
  }
  violation(core, `${req.method} ${url.pathname}`, 'no such endpoint');
  sendJson(res, 404, { error: 'not found' });
}

export async function startLtiPlatform(options: LtiPlatformOptions = {}): Promise<LtiPlatform> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const core: PlatformCore = {
    issuer,
    tokenUrl: `${issuer}/token`,
    keys: await KeyRing.create(),
    productFamilyCode: options.productFamilyCode ?? 'kadai-emulated-lms',
    expiresIn: options.expiresIn ?? 3600,
    tools: new Map(),
    launches: new Map(),
    contexts: new Map(),
    resourceLinks: new Map(),
    lineItems: new Map(),
    accessTokens: new Map(),
    usedJtis: new Map(),
    usedDeepLinkNonces: new Set(),
    registrationTokens: new Map(),
    scoreOutage: { count: 0, status: 503 },
    failedScorePosts: 0,
    violations: [],
    tokenRequests: [],
    scores: [],
    deepLinks: [],
    registrations: [],
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    dispatch(core, req, res).catch((error: unknown) => {
      // A fault of the emulator, not of the tool; a violation all the same so no test passes over it.
      const message = error instanceof Error ? error.message : String(error);
      violation(core, `${req.method} ${req.url}`, `emulator error: ${message}`);
      if (!res.headersSent) sendJson(res, 500, { error: message });
      else res.end();
    });
  });

  return {
    issuer,
    openidConfigurationUrl: `${issuer}/.well-known/openid-configuration`,
    authUrl: `${issuer}/auth`,
    tokenUrl: core.tokenUrl,
    jwksUrl: `${issuer}/jwks`,
    registrationEndpoint: `${issuer}/register`,
    get kid() {
      return core.keys.kid;
    },
    jwks: () => core.keys.jwks(),
    platformCourseUrl: (contextId) => urls.course(core, contextId),
    lineItemsUrl: (contextId) => urls.lineItems(core, contextId),
    membershipsUrl: (contextId) => urls.memberships(core, contextId),
    rotateKey: ({ keepOld }) => core.keys.rotate(keepOld),
    configureTool: (tool) => void addTool(core, tool),
    dynamicRegistrationUrl: (toolRegistrationUrl) => dynamicRegistrationUrl(core, toolRegistrationUrl),
    prepareLaunch: (spec) => prepareLaunch(core, spec),
    setMembers: (contextId, members) => {
      const parsed = NrpsMember.array().safeParse(members);
      if (!parsed.success) throw new Error(`setMembers: ${describeIssues(parsed.error).join('; ')}`);
      contextOf(core, contextId).members = parsed.data;
    },
    failScores: (count, status) => {
      core.scoreOutage = { count, status };
    },
    setExpiresIn: (seconds) => {
      core.expiresIn = seconds;
    },
    lineItems: (contextId) =>
      [...core.lineItems.values()]
        .filter((record) => record.contextId === contextId)
        .map((record) => ({ ...record.item, id: urls.lineItem(core, record) })),
    violations: core.violations,
    registrations: core.registrations,
    tokenRequests: core.tokenRequests,
    scores: core.scores,
    deepLinks: core.deepLinks,
    get failedScorePosts() {
      return core.failedScorePosts;
    },
    get lastIdToken() {
      return core.lastIdToken;
    },
    get lastState() {
      return core.lastState;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
