import { expect } from 'vitest';
import { LoginResponse } from '@kadai/contracts';
import { call, type TestApp } from '../../../test/harness.ts';

/** Signs in through the real route and returns the pair, failing the test if sign-in fails. */
export async function signIn(t: TestApp, user: { email: string; password: string }): Promise<LoginResponse> {
  const res = await call(t, 'POST', '/api/Auth/Token/', {
    body: { email: user.email, password: user.password },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return LoginResponse.parse(res.body);
}
