import { expect, type APIRequestContext, type Locator } from '@playwright/test';
import { unique } from './support.ts';

/** Who calls: an access token, or anything holding one (what `apiToken` and `newStudent` return). */
export type Caller = string | { token: string };

/** A JSON call to the API (`path` after `/api`) that must succeed; its answer. */
export async function apiCall<T>(
  request: APIRequestContext,
  who: Caller,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  data?: unknown,
): Promise<T> {
  const token = typeof who === 'string' ? who : who.token;
  const response = await request.fetch(`/api${path}`, {
    method,
    data,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return (response.status() === 204 ? null : await response.json()) as T;
}

/**
 * A password the server accepts for every test e-mail: 12 letters and digits among 32 characters, so however
 * many it shares with the address (one built from Date.now() shared its time part), Django's similarity
 * ratio stays at most 2·12/(32+12) < 0.7.
 */
export function randomPassword(): string {
  return `Kd!#%^(${Math.random().toString(36).slice(2, 10).padEnd(8, '0')})&*+=Qz~[]{}<>?;:`;
}

/** A new student account with a password of its own (staff open it, its set-password link is used). */
export async function newStudent(
  request: APIRequestContext,
  staff: Caller,
  prefix: string,
  names: { first_name: string; last_name: string } = { first_name: 'Aiko', last_name: 'Home' },
) {
  const email = `${unique(prefix)}@example.com`;
  const created = await apiCall<{ user: { id: number }; set_password: { uid: string; token: string } }>(
    request,
    staff,
    'POST',
    '/Auth/User/',
    { email, ...names, roles: ['student'], display_lang: 'en-US' },
  );
  const password = randomPassword();
  const reset = await request.post('/api/Auth/password/reset/confirm/', {
    data: { ...created.set_password, new_password1: password, new_password2: password },
  });
  expect(reset.ok(), `set the password of ${email}: ${await reset.text()}`).toBe(true);
  const login = await request.post('/api/Auth/Email/Login/', { data: { email, password } });
  expect(login.status(), `API sign-in of ${email}`).toBe(200);
  const body = (await login.json()) as { access: string };
  return { id: created.user.id, email, password, token: body.access };
}

/**
 * Replaces the text of a CodeMirror editor, as a person would: select all, type. `exact`: wait until the
 * editor holds exactly the code (else its first line is enough).
 */
export async function typeCode(editor: Locator, code: string, { exact = false } = {}): Promise<void> {
  await editor.click();
  // An editable editor is a text area until its first focus makes it CodeMirror (ui/CodeEditor.tsx).
  await expect(editor).not.toHaveAttribute('data-code-placeholder');
  await editor.press('ControlOrMeta+a');
  await editor.press('Delete');
  await editor.page().keyboard.insertText(code);
  if (exact) await expect(editor).toHaveText(code.trimEnd().split('\n').join(''));
  else await expect(editor).toContainText(code.trimEnd().split('\n')[0]!);
}
