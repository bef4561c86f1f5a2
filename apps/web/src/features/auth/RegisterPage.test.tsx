import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { SESSION_DEFAULTS, useSession } from './session.ts';

const config = (selfRegistration: boolean) => ({
  product_name: 'Kadai',
  google_client_id: null,
  provider_url: 'https://example.com/',
  self_registration: selfRegistration,
});

function routes(selfRegistration: boolean, answer: (request: RecordedRequest) => Response) {
  return (request: RecordedRequest) =>
    request.url === '/api/Config/' ? json(200, config(selfRegistration)) : answer(request);
}

const ok = () => json(200, { detail: 'ok' });

beforeEach(() => {
  useSession.setState({ ...SESSION_DEFAULTS, displayLang: 'en-US' });
});

describe('Login', () => {
  it('links to registration only when self-registration is on', async () => {
    stubFetch(routes(true, ok));
    const view = renderApp('/login');
    expect(await screen.findByRole('link', { name: 'Create an account' })).toBeTruthy();
    view.unmount();

    stubFetch(routes(false, ok));
    renderApp('/login');
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Create an account' })).toBeNull();
  });
});

describe('Register', () => {
  async function fill(password2 = 'amber-willow-harbor-63') {
    fireEvent.change(await screen.findByRole('textbox', { name: /^E-mail/ }), {
      target: { value: 'hana@example.ac.jp' },
    });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'amber-willow-harbor-63' } });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: password2 } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
  }

  it('registers in the display language and says to check the mailbox, with a resend form', async () => {
    const { requests } = stubFetch(routes(true, () => json(201, { detail: 'Verification e-mail sent.' })));
    renderApp('/register');
    await fill();
    expect(await screen.findByText('Check your mailbox')).toBeTruthy();
    const sent = requests.find((r) => r.url === '/api/Auth/Email/Registration/');
    expect(sent?.body).toMatchObject({
      email: 'hana@example.ac.jp',
      password1: 'amber-willow-harbor-63',
      password2: 'amber-willow-harbor-63',
      display_lang: 'en-US',
    });
    expect(screen.getByRole('button', { name: 'Resend the verification e-mail' })).toBeTruthy();
  });

  it('sends nothing when the passwords differ, and shows the server’s field messages', async () => {
    const { requests } = stubFetch(
      routes(true, () =>
        json(400, { detail: 'Invalid input.', code: 'invalid', password1: ['This password is too common.'] }),
      ),
    );
    renderApp('/register');
    await fill('something-else-entirely-1');
    expect(await screen.findByText('Passwords do not match')).toBeTruthy();
    expect(requests.some((r) => r.url.includes('Registration'))).toBe(false);

    fireEvent.change(screen.getByLabelText(/^Confirm password/), {
      target: { value: 'amber-willow-harbor-63' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('This password is too common.')).toBeTruthy();
  });

  it('asks for both passwords before sending, the rules described to the password field throughout', async () => {
    const { requests } = stubFetch(routes(true, ok));
    renderApp('/register');
    const email = await screen.findByRole('textbox', { name: /^E-mail/ });
    const description = () =>
      (screen.getByLabelText(/^Password/).getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' | ');
    expect(description()).toContain('Contain at least 8 characters');
    fireEvent.change(email, { target: { value: 'hana@example.ac.jp' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findAllByText('Enter a password')).toHaveLength(2);
    expect(requests.some((r) => r.url.includes('Registration'))).toBe(false);
    expect(description()).toContain('Enter a password');
    expect(description()).toContain('Contain at least 8 characters');
  });

  it('says registration is closed when the server does not offer it', async () => {
    stubFetch(routes(false, ok));
    renderApp('/register');
    expect(await screen.findByText('Registration is closed')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create account' })).toBeNull();
  });
});

describe('VerifyEmail', () => {
  it('verifies the key once and offers sign-in', async () => {
    const { requests } = stubFetch(routes(true, ok));
    renderApp('/verify-email?key=MQ.abc.sig');
    expect(await screen.findByText('E-mail address verified')).toBeTruthy();
    const verifications = requests.filter((r) => r.url === '/api/Registration/verify-email/');
    expect(verifications.map((r) => r.body)).toEqual([{ key: 'MQ.abc.sig' }]);
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy();
  });

  it('tells an already verified address from an expired link, which can ask for a new e-mail', async () => {
    stubFetch(
      routes(true, () =>
        json(400, {
          detail: 'Already.',
          code: 'already_verified',
          key: ['This e-mail address has already been verified.'],
        }),
      ),
    );
    const view = renderApp('/verify-email?key=MQ.abc.sig');
    expect(await screen.findByText('Already verified')).toBeTruthy();
    view.unmount();

    const { requests } = stubFetch(
      routes(true, (request) =>
        request.url === '/api/Registration/verify-email/'
          ? json(400, { detail: 'Invalid input.', code: 'expired_key', key: ['Expired.'] })
          : ok(),
      ),
    );
    renderApp('/verify-email?key=MQ.old.sig');
    expect(await screen.findByText('This link has expired')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: /^E-mail/ }), {
      target: { value: 'hana@example.ac.jp' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Resend the verification e-mail' }));
    await waitFor(() =>
      expect(requests.find((r) => r.url === '/api/Registration/resend-email/')?.body).toEqual({
        email: 'hana@example.ac.jp',
      }),
    );
  });
});
