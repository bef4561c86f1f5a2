import { createServer } from 'node:net';
import { expect } from 'vitest';
import { createUser, tokenFor } from '../../../test/factories.ts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { Browser, type Page } from '../../../test/peers/browser.ts';
import { workLtiScores } from './lti.jobs.ts';
import { startLtiPlatform, type LtiLaunchSpec, type LtiPlatform } from '../../../test/peers/lti-platform.ts';

/*
 * Kadai listening on a real port (the emulated LMS fetches its JWKS and posts to it as a platform
 * would), registered by hand with an emulated LMS, and a launch driven like a browser: the LMS's login
 * initiation, the platform's auto-posting form, Kadai's answer.
 */

export const DEPLOYMENT = 'dep-1';

let people = 0;
/** A person of the LMS, new each time. */
export const lmsPerson = (name: string) => {
  const id = `${Date.now().toString(36)}${(people++).toString(36)}`;
  return {
    sub: `sub-${name}-${id}`,
    givenName: name,
    familyName: 'Yamada',
    email: `${name}-${id}@lms.example.ac.jp`,
  };
};
export const CLIENT_ID = 'kadai-tool';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface LtiRig {
  t: TestApp;
  lms: LtiPlatform;
  base: string;
  staffToken: string;
  platformId: number;
  close(): Promise<void>;
}

export async function startRig(): Promise<LtiRig> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ jobs: true, env: { PUBLIC_URL: base } });
  await t.app.listen({ port, host: '127.0.0.1' });
  // Grade passback runs as in production; the minute sweep is left out so tests decide when to sync.
  await workLtiScores(t.ctx);
  const lms = await startLtiPlatform();
  const staff = await createUser(t, { isStaff: true });
  const staffToken = await tokenFor(t, staff);
  const res = await call(t, 'POST', '/api/Lti/Platform/', {
    token: staffToken,
    body: {
      name: 'Emulated Moodle',
      issuer: lms.issuer,
      client_id: CLIENT_ID,
      auth_url: lms.authUrl,
      token_url: lms.tokenUrl,
      jwks_url: lms.jwksUrl,
      deployment_ids: [DEPLOYMENT],
    },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  lms.configureTool({
    clientId: CLIENT_ID,
    deploymentId: DEPLOYMENT,
    loginUrl: `${base}/api/Lti/login/`,
    redirectUris: [`${base}/api/Lti/launch/`],
    jwksUrl: `${base}/api/Lti/jwks/`,
  });
  return {
    t,
    lms,
    base,
    staffToken,
    platformId: (res.json as { id: number }).id,
    close: async () => {
      await lms.close();
      await t.close();
    },
  };
}

export interface LaunchResult {
  /** Kadai's answer to the id_token: 0 when it sent the browser on to the web app. */
  status: number;
  /** Where the browser went on to (`/lti?code=…`), or Kadai's refusal as text. */
  location: string;
  body: string;
}

/** The whole launch, as the browser inside the LMS's frame makes it. */
export async function launch(
  rig: LtiRig,
  spec: LtiLaunchSpec,
  browser = new Browser(),
): Promise<LaunchResult> {
  const prepared = rig.lms.prepareLaunch(spec);
  const form = await browser.follow(prepared.loginInitiationUrl);
  expect(form.status, `${form.url}: ${form.body.slice(0, 500)}`).toBe(200);
  return postForm(browser, form);
}

export async function postForm(browser: Browser, form: Page): Promise<LaunchResult> {
  const page = await browser.submitForm(form, {}, { stopAt: (next) => next.pathname === '/lti' });
  return {
    status: page.status,
    location: page.status === 0 ? new URL(page.url).pathname + new URL(page.url).search : '',
    body: page.body,
  };
}

/** The code of a launch that went on to the web app, exchanged as the page does. */
export async function exchange(rig: LtiRig, result: LaunchResult) {
  expect(result.status, result.body).toBe(0);
  const code = new URLSearchParams(result.location.split('?')[1]).get('code');
  expect(code, result.location).toBeTruthy();
  const res = await call(rig.t, 'POST', '/api/Lti/Exchange/', { body: { code } });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json as { access: string; user: { pk: number; email: string }; next: string };
}
