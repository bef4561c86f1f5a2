import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, stubFetch, tokenExpiringIn, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { SESSION_DEFAULTS, useSession } from './session.ts';

const CONFIG = { product_name: 'Kadai', google_client_id: null, provider_url: 'https://example.com/' };
const USER_INFO = {
  id: 4,
  email: 'student1@example.com',
  first_name: 'Taro',
  last_name: 'Yamada',
  roles: ['student'],
  is_staff: false,
  editor_courses: [],
  student_courses: [1],
  display_lang: 'en-US',
};

function routes(login: (request: RecordedRequest) => Response) {
  return (request: RecordedRequest) => {
    if (request.url === '/api/Config/') return json(200, CONFIG);
    if (request.url === '/api/Auth/Email/Login/') return login(request);
    if (request.url === '/api/Auth/UserInfo/') return json(200, USER_INFO);
    if (request.url.startsWith('/api/Course/'))
      return json(200, { count: 0, limit: 12, offset: 0, results: [] });
    return json(404, { detail: 'Not found.', code: 'not_found' });
  };
}

async function submit(email: string, password: string) {
  fireEvent.change(await screen.findByLabelText(/E-mail/), { target: { value: email } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
}

beforeEach(() => {
  useSession.setState({ ...SESSION_DEFAULTS, displayLang: 'en-US' });
});

describe('Login', () => {
  it('uses an e-mail input and a password with a show/hide toggle', async () => {
    stubFetch(routes(() => json(500, {})));
    renderApp('/login');
    expect((await screen.findByLabelText(/E-mail/)).getAttribute('type')).toBe('email');
    const password = screen.getByLabelText(/^Password/);
    expect(password.getAttribute('type')).toBe('password');
    fireEvent.mouseDown(screen.getByRole('button', { name: 'Show password' }));
    expect(password.getAttribute('type')).toBe('text');
  });

  it("shows 'Email authentication failed.' when the server answers 401", async () => {
    stubFetch(routes(() => json(401, { detail: 'Bad credentials.', code: 'authentication_failed' })));
    renderApp('/login');
    await submit('student1@example.com', 'wrong-password');
    expect(await screen.findByText('Email authentication failed.')).toBeTruthy();
    expect(useSession.getState().authToken).toBeNull();
  });

  it('tells the user how long to wait on 429', async () => {
    stubFetch(
      routes(() => json(429, { detail: 'Too many attempts.', code: 'throttled' }, { 'Retry-After': '120' })),
    );
    renderApp('/login');
    await submit('student1@example.com', 'wrong-password');
    expect(await screen.findByText(/wait 120 seconds/)).toBeTruthy();
  });

  it('signs in, runs post-login and returns to the remembered route', async () => {
    const access = tokenExpiringIn(7200);
    const { requests } = stubFetch(
      routes(() => json(200, { access, refresh: 'r1', user: { pk: 4, email: 'student1@example.com' } })),
    );
    useSession.setState({ callback: '/course?search=algo' });
    const { router } = renderApp('/login');
    await submit('student1@example.com', 'demo-password-2026');
    await waitFor(() => expect(router.state.location.pathname).toBe('/course'));
    expect(router.state.location.search).toBe('?search=algo');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(requests.find((r) => r.url === '/api/Auth/Email/Login/')?.body).toEqual({
      email: 'student1@example.com',
      password: 'demo-password-2026',
    });
    expect(useSession.getState()).toMatchObject({
      authToken: access,
      refreshToken: 'r1',
      userId: 4,
      emailAddress: 'student1@example.com',
      roles: ['student'],
      callback: null,
    });
  });

  it('opens the forgotten-password dialog with the product name', async () => {
    stubFetch(routes(() => json(500, {})));
    renderApp('/login');
    fireEvent.click(await screen.findByRole('button', { name: 'Forgotten your password?' }));
    expect(
      await screen.findByText('Please contact the Kadai team if you have forgotten your password'),
    ).toBeTruthy();
  });
});
