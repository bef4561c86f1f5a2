import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { useSession } from './session.ts';

const CONFIG = { product_name: 'Kadai', google_client_id: null, provider_url: 'https://example.com/' };
const PAGE = '/password-change';
/** The page loads lazily: on a busy machine the first render may take a few seconds. */
const SLOW = { timeout: 10_000 };

const user = (hasPassword: boolean) => ({
  id: 4,
  email: 'hanako.yamada@example.ac.jp',
  first_name: 'Hanako',
  last_name: 'Yamada',
  first_name_ja: '',
  last_name_ja: '',
  is_staff: false,
  is_active: true,
  roles: ['student'],
  display_lang: 'en-US',
  has_password: hasPassword,
  date_joined: '2026-04-01T00:00:00.000Z',
  last_login: null,
});

/** The API as the page sees it: the user's account, and `change` answering the password change. */
function server(options: { hasPassword: boolean; change?: (request: RecordedRequest) => Response }) {
  let hasPassword = options.hasPassword;
  return (request: RecordedRequest) => {
    if (request.url === '/api/Auth/User/4/') return json(200, user(hasPassword));
    if (request.url === '/api/Auth/password/change/') {
      const answer = options.change?.(request) ?? json(200, { detail: 'New password has been saved.' });
      if (answer.ok) hasPassword = true;
      return answer;
    }
    return json(200, CONFIG);
  };
}

const currentField = () => screen.queryByLabelText(/^Current Password/);

async function fill(values: { current?: string; first: string; second: string }) {
  fireEvent.change(await screen.findByLabelText(/^New Password/, {}, SLOW), {
    target: { value: values.first },
  });
  fireEvent.change(screen.getByLabelText(/^Retype New Password/), { target: { value: values.second } });
  if (values.current !== undefined) {
    fireEvent.change(currentField()!, { target: { value: values.current } });
  }
  fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
}

const changes = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.url === '/api/Auth/password/change/');

beforeEach(() => {
  signInAsStudent();
});

describe('PasswordChange', { timeout: 30_000 }, () => {
  it('asks for the current password, with a show/hide toggle, and sends it as old_password', async () => {
    const { requests } = stubFetch(server({ hasPassword: true }));
    renderApp(PAGE);
    const current = await screen.findByLabelText(/^Current Password/, {}, SLOW);
    expect(current.getAttribute('type')).toBe('password');
    expect(current.getAttribute('autocomplete')).toBe('current-password');
    // One toggle per field: current, new, retype.
    const toggles = screen.getAllByRole('button', { name: 'Show password' });
    expect(toggles).toHaveLength(3);
    fireEvent.mouseDown(toggles[0]!);
    expect(current.getAttribute('type')).toBe('text');

    await fill({ current: 'my-old-secret-11', first: 'lantern-orbit-57', second: 'lantern-orbit-57' });
    expect(await screen.findByText('New password has been saved.')).toBeTruthy();
    expect(changes(requests).map((r) => r.body)).toEqual([
      {
        old_password: 'my-old-secret-11',
        new_password1: 'lantern-orbit-57',
        new_password2: 'lantern-orbit-57',
      },
    ]);
  });

  it('requires the current password before sending anything', async () => {
    const { requests } = stubFetch(server({ hasPassword: true }));
    renderApp(PAGE);
    await screen.findByLabelText(/^Current Password/, {}, SLOW);
    await fill({ first: 'lantern-orbit-57', second: 'lantern-orbit-57' });
    expect(await screen.findByText('Enter your current password')).toBeTruthy();
    expect(changes(requests)).toEqual([]);
  });

  it('shows the server’s old_password message beside the field', async () => {
    stubFetch(
      server({
        hasPassword: true,
        change: () =>
          json(400, {
            detail: 'Invalid input.',
            code: 'invalid',
            old_password: ['Your old password was entered incorrectly. Please enter it again.'],
          }),
      }),
    );
    renderApp(PAGE);
    await screen.findByLabelText(/^Current Password/, {}, SLOW);
    await fill({ current: 'not-it-at-all', first: 'lantern-orbit-57', second: 'lantern-orbit-57' });
    const message = 'Your old password was entered incorrectly. Please enter it again.';
    // The field's error, which the input names as its description for screen readers.
    await waitFor(() => {
      const describedBy = currentField()!.getAttribute('aria-describedby') ?? '';
      expect(document.getElementById(describedBy)?.textContent).toBe(message);
    });
    // And in the failure notice, as no new_password2 message came with it.
    expect(await screen.findByText('Failed to change password.')).toBeTruthy();
    expect(screen.getAllByText(message)).toHaveLength(2);
  });

  it('shows the first new_password2 message of a 400, under the field and in the notice', async () => {
    stubFetch(
      server({
        hasPassword: true,
        change: () =>
          json(400, {
            detail: 'Invalid input.',
            code: 'invalid',
            new_password2: [
              'The password is too similar to the email address.',
              'This password is too common.',
            ],
          }),
      }),
    );
    renderApp(PAGE);
    await screen.findByLabelText(/^Current Password/, {}, SLOW);
    await fill({ current: 'my-old-secret-11', first: 'hanakoyamada', second: 'hanakoyamada' });
    expect(await screen.findAllByText('The password is too similar to the email address.')).toHaveLength(2);
    const retyped = screen.getByLabelText(/^Retype New Password/);
    const described = (retyped.getAttribute('aria-describedby') ?? '').split(' ');
    const messages = described.map((id) => document.getElementById(id)?.textContent ?? '');
    expect(messages).toContain('The password is too similar to the email address.');
    expect(screen.queryByText('This password is too common.')).toBeNull();
  });

  it('says how long to wait when the guesses are throttled', async () => {
    stubFetch(
      server({
        hasPassword: true,
        change: () =>
          json(429, { detail: 'Request was throttled.', code: 'throttled' }, { 'Retry-After': '600' }),
      }),
    );
    renderApp(PAGE);
    await screen.findByLabelText(/^Current Password/, {}, SLOW);
    await fill({ current: 'guess-number-6', first: 'lantern-orbit-57', second: 'lantern-orbit-57' });
    expect(await screen.findByText('Too many attempts. Please wait 600 seconds and try again.')).toBeTruthy();
  });

  it('does not ask an account without a password (signed up through Google), then asks once it has one', async () => {
    const { requests } = stubFetch(server({ hasPassword: false }));
    renderApp(PAGE);
    await screen.findByLabelText(/^New Password/, {}, SLOW);
    expect(currentField()).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Show password' })).toHaveLength(2);
    await fill({ first: 'lantern-orbit-57', second: 'lantern-orbit-57' });
    expect(await screen.findByText('New password has been saved.')).toBeTruthy();
    expect(changes(requests).map((r) => r.body)).toEqual([
      { new_password1: 'lantern-orbit-57', new_password2: 'lantern-orbit-57' },
    ]);
    expect(await screen.findByLabelText(/^Current Password/)).toBeTruthy();
  });

  it('speaks Japanese', async () => {
    useSession.setState({ displayLang: 'ja' });
    stubFetch(server({ hasPassword: true }));
    renderApp(PAGE);
    expect(await screen.findByLabelText(/^現在のパスワード/, {}, SLOW)).toBeTruthy();
    expect(screen.getByText('数字だけでないこと')).toBeTruthy();
    expect(screen.getByText('名前やメールアドレスに似すぎていないこと')).toBeTruthy();
  });

  it('offers to sign in first when signed out', async () => {
    useSession.setState({ authToken: null, refreshToken: null, userId: null });
    const { requests } = stubFetch(server({ hasPassword: true }));
    renderApp(PAGE);
    expect(await screen.findByRole('button', { name: 'Sign In' }, SLOW)).toBeTruthy();
    expect(currentField()).toBeNull();
    expect(requests.some((r) => r.url.startsWith('/api/Auth/User/'))).toBe(false);
  });
});
