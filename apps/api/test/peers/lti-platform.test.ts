import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTool, type FakeTool } from './lti-fake-tool.ts';
import { startLtiPlatform, type LtiPlatform } from './lti-platform.ts';
import {
  AccessTokenResponse,
  CLAIM,
  LtiDeepLinkingIdToken,
  LtiResourceLinkIdToken,
  MEDIA_TYPE,
  NrpsMembershipContainer,
  PlatformOpenIdConfiguration,
  ROLE,
  SCOPE,
  TOOL_CONFIGURATION,
  ToolRegistrationResponse,
} from './lti-shapes.ts';

// The LTI platform emulator proven without Kadai: lti-fake-tool.ts plays a minimal tool.

const CLIENT = 'kadai-client';
const DEPLOYMENT = 'deployment-1';
const COURSE = { id: 'course-7', label: 'PY101', title: 'Python 1' };
const LEARNER = { sub: 'user-learner', name: 'Hanako Sato', givenName: 'Hanako', familyName: 'Sato' };

describe('LTI platform emulator', () => {
  let platform: LtiPlatform;
  let tool: FakeTool;
  beforeAll(async () => {
    tool = await startFakeTool();
  });
  afterAll(async () => {
    await tool.close();
  });
  async function start() {
    platform = await startLtiPlatform();
    platform.configureTool(tool.config(CLIENT, DEPLOYMENT));
    return platform;
  }
  afterEach(async () => {
    await platform.close();
  });

  const launchAs = (extra: Partial<Parameters<LtiPlatform['prepareLaunch']>[0]> = {}) =>
    platform.prepareLaunch({ user: LEARNER, roles: [ROLE.learner], context: COURSE, ...extra });

  async function idTokenFor(extra: Partial<Parameters<LtiPlatform['prepareLaunch']>[0]> = {}) {
    const answer = await tool.authenticate(platform, launchAs(extra));
    return { ...answer, idToken: answer.form?.fields.id_token ?? '' };
  }

  async function accessToken(scope: string): Promise<string> {
    const response = await tool.requestToken(platform, await tool.assertion(platform, CLIENT), scope);
    expect(response.status).toBe(200);
    return AccessTokenResponse.parse(await response.json()).access_token;
  }

  it('launches: login initiation, then an id_token that passes the shapes and verifies', async () => {
    await start();
    const launch = launchAs({ resourceLink: { id: 'rl-1', title: 'Week 1' }, custom: { unit: '1' } });
    const initiation = new URL(launch.loginInitiationUrl);
    expect(initiation.origin + initiation.pathname).toBe(tool.loginUrl);
    expect(Object.fromEntries(initiation.searchParams)).toEqual({
      iss: platform.issuer,
      login_hint: LEARNER.sub,
      target_link_uri: tool.redirectUri,
      lti_message_hint: launch.messageHint,
      client_id: CLIENT,
      lti_deployment_id: DEPLOYMENT,
    });

    const { form, nonce, state } = await tool.authenticate(platform, launch);
    expect(form?.method).toBe('POST');
    expect(form?.action).toBe(tool.redirectUri);
    expect(form?.fields.state).toBe(state);
    const idToken = form?.fields.id_token ?? '';
    const { payload, protectedHeader } = await jwtVerify(
      idToken,
      createRemoteJWKSet(new URL(platform.jwksUrl)),
      {
        issuer: platform.issuer,
        audience: CLIENT,
      },
    );
    expect(protectedHeader.kid).toBe(platform.kid);
    const claims = LtiResourceLinkIdToken.parse(payload);
    expect(claims.nonce).toBe(nonce);
    expect(claims[CLAIM.resourceLink]).toEqual({ id: 'rl-1', title: 'Week 1' });
    expect(claims[CLAIM.custom]).toEqual({ unit: '1' });
    expect(claims[CLAIM.agsEndpoint]?.lineitems).toBe(platform.lineItemsUrl(COURSE.id));
    expect(claims[CLAIM.namesRoleService]?.context_memberships_url).toBe(platform.membershipsUrl(COURSE.id));
    expect(platform.lastIdToken).toBe(idToken);
    expect(platform.lastState).toBe(state);

    // The LMS page frames a platform URL that redirects to the login initiation.
    const page = await fetch(launch.lmsPageUrl).then((response) => response.text());
    const src = /<iframe[^>]*\ssrc="([^"]+)"/.exec(page)?.[1] ?? '';
    const redirect = await fetch(src, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(launch.loginInitiationUrl);
    expect(platform.violations).toEqual([]);
  });

  it('refuses an unregistered redirect_uri and an unknown client, and misbehaves on request', async () => {
    await start();
    const wrongRedirect = await tool.authenticate(platform, launchAs(), {
      redirect_uri: `${tool.baseUrl}/other`,
    });
    expect(wrongRedirect.status).toBe(400);
    const unknownClient = await tool.authenticate(platform, launchAs(), { client_id: 'stranger' });
    expect(unknownClient.status).toBe(400);
    const noPrompt = await tool.authenticate(platform, launchAs(), { prompt: 'login' });
    expect(noPrompt.form?.fields.error).toBe('invalid_request');
    expect(platform.violations).toHaveLength(3);

    const keys = createRemoteJWKSet(new URL(platform.jwksUrl));
    const first = await idTokenFor();
    const replayed = await idTokenFor({ misbehave: { replayNonce: true } });
    expect(decodeJwt(replayed.idToken).nonce).toBe(first.nonce);
    const foreign = await idTokenFor({ misbehave: { unknownKey: true } });
    await expect(jwtVerify(foreign.idToken, keys)).rejects.toThrow();
    const expired = await idTokenFor({ misbehave: { expired: true, omitClaims: [CLAIM.deploymentId] } });
    await expect(jwtVerify(expired.idToken, keys)).rejects.toThrow(/exp/);
    expect(decodeJwt(expired.idToken)[CLAIM.deploymentId]).toBeUndefined();

    const oldKid = platform.kid;
    await platform.rotateKey({ keepOld: false });
    expect(platform.jwks().keys.map((key) => key.kid)).toEqual([platform.kid]);
    expect(platform.kid).not.toBe(oldKid);
  });

  it('registers a tool dynamically, once per registration token, and launches it', async () => {
    await start();
    const opened = new URL(platform.dynamicRegistrationUrl(`${tool.baseUrl}/lti/register`));
    const configUrl = opened.searchParams.get('openid_configuration') ?? '';
    const token = opened.searchParams.get('registration_token') ?? '';
    const configuration = PlatformOpenIdConfiguration.parse(await fetch(configUrl).then((r) => r.json()));
    const registration = {
      application_type: 'web',
      response_types: ['id_token'],
      grant_types: ['implicit', 'client_credentials'],
      initiate_login_uri: tool.loginUrl,
      redirect_uris: [tool.redirectUri],
      client_name: 'Kadai',
      jwks_uri: tool.jwksUrl,
      token_endpoint_auth_method: 'private_key_jwt',
      scope: `${SCOPE.score} ${SCOPE.lineItem}`,
      [TOOL_CONFIGURATION]: {
        domain: new URL(tool.baseUrl).host,
        target_link_uri: tool.redirectUri,
        claims: ['iss', 'sub', 'name'],
        messages: [{ type: 'LtiDeepLinkingRequest', target_link_uri: `${tool.baseUrl}/lti/deep-link` }],
      },
    };
    const post = (body: unknown) =>
      fetch(configuration.registration_endpoint, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const response = await post(registration);
    expect(response.status).toBe(200);
    const registered = ToolRegistrationResponse.parse(await response.json());
    expect(registered.scope).toBe(`${SCOPE.lineItem} ${SCOPE.score}`);
    expect(platform.registrations).toHaveLength(1);
    expect((await post(registration)).status).toBe(401);
    expect(platform.violations).toEqual(['dynamic registration: the registration_token was used']);

    const launch = platform.prepareLaunch({
      clientId: registered.client_id,
      user: LEARNER,
      roles: [ROLE.instructor],
      context: COURSE,
      messageType: 'LtiDeepLinkingRequest',
    });
    const initiation = new URL(launch.loginInitiationUrl).searchParams;
    expect(initiation.get('lti_deployment_id')).toBe(registered[TOOL_CONFIGURATION].deployment_id);
    expect(initiation.get('target_link_uri')).toBe(`${tool.baseUrl}/lti/deep-link`);
  });

  it('grants tokens to a valid assertion only, and records each request', async () => {
    await start();
    const foreign = await tool.assertion(platform, CLIENT, { unknownKey: true });
    expect((await tool.requestToken(platform, foreign, SCOPE.score)).status).toBe(400);
    const assertion = await tool.assertion(platform, CLIENT, { jti: 'once' });
    const granted = await tool.requestToken(platform, assertion, `${SCOPE.score} https://example.com/other`);
    expect(granted.status).toBe(200);
    expect(AccessTokenResponse.parse(await granted.json())).toMatchObject({
      token_type: 'Bearer',
      scope: SCOPE.score,
    });
    expect((await tool.requestToken(platform, assertion, SCOPE.score)).status).toBe(400);
    expect(platform.tokenRequests.map((request) => request.status)).toEqual([400, 200, 400]);
    expect(platform.violations).toHaveLength(2);
    expect(platform.violations[1]).toMatch(/jti once replayed/);
  });

  it('takes scores with their media type, ignores a stale one, and fails on request', async () => {
    await start();
    await idTokenFor({ resourceLink: { id: 'rl-9' } });
    const token = await accessToken(`${SCOPE.lineItem} ${SCOPE.score} ${SCOPE.resultReadonly}`);
    const created = await fetch(platform.lineItemsUrl(COURSE.id), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': MEDIA_TYPE.lineItem },
      body: JSON.stringify({ label: 'Quiz', scoreMaximum: 10, resourceLinkId: 'rl-9' }),
    });
    expect(created.status).toBe(201);
    const lineItemUrl = ((await created.json()) as { id: string }).id;
    const postScore = (body: unknown, contentType: string = MEDIA_TYPE.score) =>
      fetch(`${lineItemUrl}/scores`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
        body: JSON.stringify(body),
      });
    const score = (scoreGiven: number, timestamp: string) => ({
      userId: LEARNER.sub,
      scoreGiven,
      scoreMaximum: 20,
      timestamp,
      activityProgress: 'Completed',
      gradingProgress: 'FullyGraded',
    });
    expect((await postScore(score(15, '2025-01-01T00:00:00.100Z'), 'application/json')).status).toBe(415);
    expect((await postScore(score(15, '2025-01-01T00:00:00.100Z'))).status).toBe(204);
    expect((await postScore(score(5, '2025-01-01T00:00:00.050Z'))).status).toBe(204);
    expect((await postScore({ ...score(5, '2025-01-01T00:00:01Z'), gradingProgress: 'Done' })).status).toBe(
      400,
    );
    expect(platform.scores.map((recorded) => [recorded.score.scoreGiven, recorded.applied])).toEqual([
      [15, true],
      [5, false],
    ]);
    expect(platform.violations.map((v) => v.replace(/^score POST to line item [\w-]+: /, ''))).toEqual([
      `content type "application/json" is not ${MEDIA_TYPE.score}`,
      `timestamp 2025-01-01T00:00:00.050Z does not follow 2025-01-01T00:00:00.100Z for ${LEARNER.sub}`,
      'timestamp: ISO 8601 with sub-second precision and a time zone',
      expect.stringMatching(/^gradingProgress: /),
    ]);
    const results = await fetch(`${lineItemUrl}/results`, { headers: { authorization: `Bearer ${token}` } });
    expect(results.headers.get('content-type')).toBe(MEDIA_TYPE.resultContainer);
    expect(await results.json()).toMatchObject([
      { userId: LEARNER.sub, resultScore: 7.5, resultMaximum: 10 },
    ]);

    platform.failScores(1, 503);
    expect((await postScore(score(16, '2025-01-01T00:00:02.000Z'))).status).toBe(503);
    platform.failScores(1, 'drop');
    await expect(postScore(score(16, '2025-01-01T00:00:02.000Z'))).rejects.toThrow();
    expect((await postScore(score(16, '2025-01-01T00:00:02.000Z'))).status).toBe(204);
    expect(platform.failedScorePosts).toBe(2);
  });

  it('pages the roster with rel="next" links', async () => {
    await start();
    const members = Array.from({ length: 5 }, (_, i) => ({
      user_id: `user-${i}`,
      roles: [i === 0 ? ROLE.instructor : ROLE.learner],
      status: i === 4 ? ('Inactive' as const) : ('Active' as const),
      name: `User ${i}`,
    }));
    platform.setMembers(COURSE.id, members);
    const token = await accessToken(SCOPE.contextMembershipReadonly);
    const seen: string[] = [];
    let next: string | undefined = `${platform.membershipsUrl(COURSE.id)}?limit=2`;
    while (next) {
      const response: Response = await fetch(next, {
        headers: { authorization: `Bearer ${token}`, accept: MEDIA_TYPE.membershipContainer },
      });
      expect(response.headers.get('content-type')).toBe(MEDIA_TYPE.membershipContainer);
      seen.push(...NrpsMembershipContainer.parse(await response.json()).members.map((m) => m.user_id));
      next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    }
    expect(seen).toEqual(members.map((member) => member.user_id));
    expect(platform.violations).toEqual([]);
  });

  it('takes a deep linking response, creates the link and its line item, and refuses a bad one', async () => {
    await start();
    const launch = launchAs({ roles: [ROLE.instructor], messageType: 'LtiDeepLinkingRequest' });
    const { idToken } = await tool
      .authenticate(platform, launch)
      .then((a) => ({ idToken: a.form?.fields.id_token }));
    const settings = LtiDeepLinkingIdToken.parse(decodeJwt(idToken ?? ''))[CLAIM.deepLinkingSettings];
    expect(settings.deep_link_return_url).toBe(launch.deepLinkReturnUrl);
    const now = Math.floor(Date.now() / 1000);
    const response = (nonce: string, data: string | undefined) =>
      tool.sign({
        iss: CLIENT,
        aud: platform.issuer,
        iat: now,
        exp: now + 300,
        nonce,
        [CLAIM.messageType]: 'LtiDeepLinkingResponse',
        [CLAIM.version]: '1.3.0',
        [CLAIM.deploymentId]: DEPLOYMENT,
        [CLAIM.data]: data,
        [CLAIM.contentItems]: [
          {
            type: 'ltiResourceLink',
            title: 'Quiz 3',
            url: `${tool.baseUrl}/a/3`,
            lineItem: { scoreMaximum: 5 },
          },
        ],
      });
    const post = async (jwt: string) =>
      (
        await fetch(settings.deep_link_return_url, {
          method: 'POST',
          body: new URLSearchParams({ JWT: jwt }),
        })
      ).status;
    expect(await post(await response('n-1', settings.data))).toBe(200);
    expect(await post(await response('n-1', settings.data))).toBe(400);
    expect(await post(await response('n-2', 'forged'))).toBe(400);
    expect(platform.violations).toEqual([
      'deep linking response: nonce n-1 was used before',
      `deep linking response: data "forged" does not echo the request's ${settings.data}`,
    ]);

    const [link] = platform.deepLinks[0]?.resourceLinks ?? [];
    expect(link?.lineItemUrl).toBe(platform.lineItems(COURSE.id)[0]?.id);
    const later = await idTokenFor({ resourceLink: { id: link?.id ?? '' } });
    const claims = LtiResourceLinkIdToken.parse(decodeJwt(later.idToken));
    expect(claims[CLAIM.agsEndpoint]?.lineitem).toBe(link?.lineItemUrl);
    expect(claims[CLAIM.targetLinkUri]).toBe(`${tool.baseUrl}/a/3`);
  });
});
