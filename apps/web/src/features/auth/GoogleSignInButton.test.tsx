import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch, tokenExpiringIn, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import type { GoogleTokenClientConfig, GoogleTokenResponse } from './google-identity.ts';
import { SESSION_DEFAULTS, useSession } from './session.ts';

const CLIENT_ID = 'kadai-test.apps.googleusercontent.com';
const SCRIPT_URL = 'https://accounts.google.com/gsi/client';
const CONFIG = {
  product_name: 'Kadai',
  google_client_id: CLIENT_ID,
  google_script_url: SCRIPT_URL,
  provider_url: 'https://example.com/',
};
const USER_INFO = {
  id: 7,
  email: 'hanako@example.ac.jp',
  first_name: 'Hanako',
  last_name: 'Sato',
  roles: ['student'],
  is_staff: false,
  editor_courses: [],
  student_courses: [1],
  display_lang: 'en-US',
};

/** Google's token client, as the identity script would define it; answers with `answer`. */
function fakeGoogle(answer: GoogleTokenResponse) {
  const configs: GoogleTokenClientConfig[] = [];
  window.google = {
    accounts: {
      oauth2: {
        initTokenClient: (config) => {
          configs.push(config);
          return { requestAccessToken: () => config.callback(answer) };
        },
      },
    },
  };
  return configs;
}

function routes(google: (request: RecordedRequest) => Response, config: object = CONFIG) {
  return (request: RecordedRequest) => {
    if (request.url === '/api/Config/') return json(200, config);
    if (request.url === '/api/Auth/SocialLogin/Google/') return google(request);
    if (request.url === '/api/Auth/UserInfo/') return json(200, USER_INFO);
    if (request.url.startsWith('/api/Course/'))
      return json(200, { count: 0, limit: 12, offset: 0, results: [] });
    return json(404, { detail: 'Not found.', code: 'not_found' });
  };
}

const googleButton = () => screen.findByRole('button', { name: 'Sign in with Google' });

let warn = vi.fn();
beforeEach(() => {
  useSession.setState({ ...SESSION_DEFAULTS, displayLang: 'en-US' });
  // Spec §8: a social login failure is logged.
  warn = vi.fn();
  vi.spyOn(console, 'warn').mockImplementation(warn);
});
afterEach(() => {
  delete window.google;
  vi.restoreAllMocks();
});

describe('Google sign-in button', () => {
  it('is not shown without a client id', async () => {
    stubFetch(routes(() => json(500, {}), { ...CONFIG, google_client_id: null }));
    renderApp('/login');
    await screen.findByRole('button', { name: 'Sign In' });
    expect(screen.queryByRole('button', { name: 'Sign in with Google' })).toBeNull();
  });

  it('shows the light or dark image, and the pressed image on hover', async () => {
    fakeGoogle({});
    stubFetch(routes(() => json(500, {})));
    renderApp('/login');
    await googleButton();
    // Asked afresh each time: the page may render the button again (when its config arrives), and an
    // event on an element it dropped would reach nothing.
    const button = () => screen.getByRole('button', { name: 'Sign in with Google' });
    const image = () => button().querySelector('img')!;
    // Disabled until Google's script has loaded, and a disabled button gets no pointer events: on a
    // loaded machine the script's promise settled after the first hover, which then pressed nothing.
    await waitFor(() => expect(button()).toHaveProperty('disabled', false));
    expect(image().dataset.variant).toBe('light-normal');
    fireEvent.mouseEnter(button());
    expect(image().dataset.variant).toBe('light-pressed');
    fireEvent.mouseLeave(button());
    expect(image().dataset.variant).toBe('light-normal');
    useSession.setState({ isDarkMode: true });
    await waitFor(() => expect(image().dataset.variant).toBe('dark-normal'));
    fireEvent.mouseEnter(button());
    expect(image().dataset.variant).toBe('dark-pressed');
    // A pointer that arrives without an enter (React drops it when the pointer left a node it had
    // just removed, such as a closed menu's item) presses the button on its first move.
    fireEvent.mouseLeave(button());
    fireEvent.mouseMove(button());
    expect(image().dataset.variant).toBe('dark-pressed');
  });

  it('signs in with the token from Google, runs post-login and goes to Course replacing history', async () => {
    const configs = fakeGoogle({ access_token: 'ya29.google-token' });
    const access = tokenExpiringIn(7200);
    const { requests } = stubFetch(
      routes(() =>
        json(200, { access, refresh: 'r-google', user: { pk: 7, email: 'hanako@example.ac.jp' } }),
      ),
    );
    const { router } = renderApp('/login');
    const button = await googleButton();
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    expect(configs[0]).toMatchObject({ client_id: CLIENT_ID, scope: 'openid email profile' });
    fireEvent.click(button);
    await waitFor(() => expect(router.state.location.pathname).toBe('/course'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(requests.find((r) => r.url === '/api/Auth/SocialLogin/Google/')?.body).toEqual({
      access_token: 'ya29.google-token',
    });
    expect(useSession.getState()).toMatchObject({
      authToken: access,
      refreshToken: 'r-google',
      userId: 7,
      emailAddress: 'hanako@example.ac.jp',
      roles: ['student'],
    });
  });

  it('clears both tokens and says why when the server refuses', async () => {
    fakeGoogle({ access_token: 'ya29.unverified' });
    stubFetch(
      routes(() =>
        json(401, { detail: 'Google has not verified the e-mail address.', code: 'email_not_verified' }),
      ),
    );
    // Left over from an earlier session on this device.
    useSession.setState({ refreshToken: 'stale-refresh' });
    const { router } = renderApp('/login');
    const button = await googleButton();
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    fireEvent.click(button);
    expect(
      await screen.findByText(/has not verified the e-mail address of this Google account/),
    ).toBeTruthy();
    expect(useSession.getState()).toMatchObject({ authToken: null, refreshToken: null });
    expect(router.state.location.pathname).toBe('/login');
    expect(warn).toHaveBeenCalled();
  });

  it('says Google could not be reached on 502', async () => {
    fakeGoogle({ access_token: 'ya29.token' });
    stubFetch(
      routes(() => json(502, { detail: 'Google could not be reached.', code: 'google_unavailable' })),
    );
    renderApp('/login');
    const button = await googleButton();
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    fireEvent.click(button);
    expect(
      await screen.findByText('Google could not be reached. Please try again in a moment.'),
    ).toBeTruthy();
  });

  it('sends nothing when the person closes Google’s pop-up', async () => {
    fakeGoogle({ error: 'access_denied' });
    const { requests } = stubFetch(routes(() => json(500, {})));
    renderApp('/login');
    const button = await googleButton();
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    fireEvent.click(button);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests.some((r) => r.url === '/api/Auth/SocialLogin/Google/')).toBe(false);
    expect(screen.queryByText('Google sign-in failed. Please try again.')).toBeNull();
  });
});
