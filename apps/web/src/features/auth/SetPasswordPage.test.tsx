import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { SESSION_DEFAULTS, useSession } from './session.ts';

const CONFIG = { product_name: 'Kadai', google_client_id: null, provider_url: 'https://example.com/' };

function routes(confirm: (request: RecordedRequest) => Response) {
  return (request: RecordedRequest) =>
    request.url === '/api/Auth/password/reset/confirm/' ? confirm(request) : json(200, CONFIG);
}

async function fill(first: string, second: string) {
  fireEvent.change(await screen.findByLabelText(/^New password/), { target: { value: first } });
  fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: second } });
  fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
}

beforeEach(() => {
  useSession.setState({ ...SESSION_DEFAULTS, displayLang: 'en-US' });
});

describe('SetPassword', () => {
  it('shows the password hints', async () => {
    stubFetch(routes(() => json(200, { detail: 'ok' })));
    renderApp('/set-password?uid=MQ&token=abc');
    expect(await screen.findByText('Your password must :')).toBeTruthy();
    expect(screen.getByText('Contain at least 8 characters')).toBeTruthy();
    expect(screen.getByText('Not be too common')).toBeTruthy();
    // The spec's 'Be alphanumerical', as the server enforces it (Django's NumericPasswordValidator).
    expect(screen.getByText('Not be entirely numeric')).toBeTruthy();
    expect(screen.getByText('Not be too similar to your name or e-mail address')).toBeTruthy();
  });

  it("says 'Passwords do not match' and sends nothing when they differ", async () => {
    const { requests } = stubFetch(routes(() => json(200, { detail: 'ok' })));
    renderApp('/set-password?uid=MQ&token=abc');
    await fill('correct-horse-42', 'correct-horse-43');
    expect(await screen.findByText('Passwords do not match')).toBeTruthy();
    expect(requests.some((r) => r.url.includes('reset/confirm'))).toBe(false);
  });

  it('shows the first new_password2 message of a 400', async () => {
    stubFetch(
      routes(() =>
        json(400, {
          detail: 'Invalid input.',
          code: 'invalid',
          new_password2: ['This password is too common.', 'This password is entirely numeric.'],
        }),
      ),
    );
    renderApp('/set-password?uid=MQ&token=abc');
    await fill('password', 'password');
    expect(await screen.findByText('This password is too common.')).toBeTruthy();
    expect(screen.queryByText('This password is entirely numeric.')).toBeNull();
  });

  it('says the link is invalid when the server rejects the token', async () => {
    stubFetch(routes(() => json(400, { detail: 'Invalid input.', code: 'invalid', token: ['Invalid.'] })));
    renderApp('/set-password?uid=MQ&token=abc');
    await fill('correct-horse-42', 'correct-horse-42');
    expect(await screen.findByText('This link is invalid or has expired')).toBeTruthy();
  });

  it('posts uid and token, confirms, and goes to /login after 2 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { requests } = stubFetch(routes(() => json(200, { detail: 'Password has been set.' })));
    const { router } = renderApp('/set-password?uid=MQ&token=abc');
    await fill('correct-horse-42', 'correct-horse-42');
    expect(await screen.findByText('Password set successfully')).toBeTruthy();
    expect(requests.find((r) => r.url.includes('reset/confirm'))?.body).toEqual({
      new_password1: 'correct-horse-42',
      new_password2: 'correct-horse-42',
      uid: 'MQ',
      token: 'abc',
    });
    act(() => vi.advanceTimersByTime(1900));
    expect(router.state.location.pathname).toBe('/set-password');
    act(() => vi.advanceTimersByTime(200));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('explains a link without uid or token', async () => {
    stubFetch(routes(() => json(200, {})));
    renderApp('/set-password');
    expect(await screen.findByText('This link is invalid or has expired')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
  });
});
