import { expect } from 'vitest';
import { SsoExchangeResponse } from '@kadai/contracts';
import { call, type TestApp } from '../../../test/harness.ts';

/** Test helpers for the sign-in flows (identity/*.test.ts): the browser's side, through inject. */

/** `GET start/` → the provider's URL the browser is sent to. */
export async function startAt(t: TestApp, slug: string, next?: string): Promise<string> {
  const res = await call(t, 'GET', `/api/Auth/Sso/${slug}/start/`, next ? { query: { next } } : {});
  expect(res.status, JSON.stringify(res.body)).toBe(303);
  return String(res.headers.location);
}

/** Posts the IdP's auto-submitted form to the ACS (as the browser would); the Location it answers. */
export async function postToAcs(t: TestApp, fields: Record<string, string>): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/Auth/Saml/acs/',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
  expect(res.statusCode, res.body).toBe(303);
  return String(res.headers.location);
}

/** The code of a landing `/login/sso?code=…`, or fails with where it landed instead. */
export function codeOf(location: string, kind: 'code' | 'link' = 'code'): string {
  const url = new URL(location, 'http://x');
  const code = url.pathname === '/login/sso' ? url.searchParams.get(kind) : null;
  expect(code, `landed on ${location}`).toBeTruthy();
  return code!;
}

export function errorOf(location: string): string | null {
  return new URL(location, 'http://x').searchParams.get('sso_error');
}

export async function exchange(t: TestApp, code: string): Promise<SsoExchangeResponse> {
  const res = await call(t, 'POST', '/api/Auth/Sso/Exchange/', { body: { code } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return SsoExchangeResponse.parse(res.body);
}
