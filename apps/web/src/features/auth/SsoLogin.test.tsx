import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PublicIdentityProvider } from '@kadai/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { json, stubFetch, tokenExpiringIn, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { SESSION_DEFAULTS, useSession } from './session.ts';
import { chooseLanguage } from './sign-in.ts';

vi.setConfig({ testTimeout: 20_000 });

const TOKYO: PublicIdentityProvider = {
  slug: 'utokyo',
  kind: 'saml',
  name_ja: '東京大学',
  name_en: 'The University of Tokyo',
  email_domain: 'u-tokyo.ac.jp',
};
const KYOTO: PublicIdentityProvider = {
  slug: 'kyoto',
  kind: 'oidc',
  name_ja: '京都大学',
  name_en: 'Kyoto University',
  email_domain: null,
};
const CONFIG = {
  product_name: 'Kadai',
  google_client_id: null,
  provider_url: 'https://example.com/',
  identity_providers: [TOKYO, KYOTO],
  password_hidden_domains: ['u-tokyo.ac.jp'],
};
const USER_INFO = {
  id: 4,
  email: 'taro@u-tokyo.ac.jp',
  first_name: 'Taro',
  last_name: 'Yamada',
  roles: ['student'],
  is_staff: false,
  editor_courses: [],
  student_courses: [1],
  display_lang: 'en-US',
};

type Handler = (request: RecordedRequest) => Response | undefined;

function server(handler: Handler = () => undefined) {
  return stubFetch((request) => {
    const answer = handler(request);
    if (answer) return answer;
    if (request.url === '/api/Config/') return json(200, CONFIG);
    if (request.url === '/api/Auth/UserInfo/') return json(200, USER_INFO);
    if (request.url.startsWith('/api/Course/'))
      return json(200, { count: 0, limit: 12, offset: 0, results: [] });
    return json(404, { detail: 'Not found.', code: 'not_found' });
  });
}

const exchanged = (next: string | null) =>
  json(200, {
    access: tokenExpiringIn(7200),
    refresh: 'r-sso',
    user: { pk: 4, email: USER_INFO.email },
    next,
  });

beforeEach(async () => {
  useSession.setState({ ...SESSION_DEFAULTS, displayLang: 'en-US' });
  await i18n.changeLanguage('en-US');
});

describe('the login page’s university buttons', () => {
  it('has one link per provider, in English, starting at the API with the remembered page', async () => {
    server();
    useSession.setState({ callback: '/course/3/assignment' });
    renderApp('/login');
    const tokyo = await screen.findByRole('link', { name: 'Sign in with The University of Tokyo' });
    expect(tokyo.getAttribute('href')).toBe('/api/Auth/Sso/utokyo/start/?next=%2Fcourse%2F3%2Fassignment');
    expect(screen.getByRole('link', { name: 'Sign in with Kyoto University' }).getAttribute('href')).toBe(
      '/api/Auth/Sso/kyoto/start/?next=%2Fcourse%2F3%2Fassignment',
    );
    expect(screen.getByText('For addresses at u-tokyo.ac.jp')).toBeTruthy();
    expect(screen.getByText('or')).toBeTruthy();
  });

  it('names the providers in Japanese on a Japanese page', async () => {
    useSession.setState({ displayLang: 'ja' });
    await i18n.changeLanguage('ja');
    server();
    renderApp('/login');
    const tokyo = await screen.findByRole('link', { name: '東京大学でログイン' });
    expect(tokyo.getAttribute('href')).toBe('/api/Auth/Sso/utokyo/start/');
    expect(screen.getByRole('link', { name: '京都大学でログイン' })).toBeTruthy();
    expect(screen.getByText('または')).toBeTruthy();
  });

  it.each([
    ['expired', 'Your sign-in took too long or was already used. Please try again.'],
    ['no_account', 'There is no Kadai account for you yet. Ask your instructor to add you.'],
    ['refused', "Your university's sign-in did not let you in."],
    ['something_new', 'Signing in through your university did not work. Please try again.'],
  ])('explains sso_error=%s', async (code, text) => {
    server();
    renderApp(`/login?sso_error=${code}`);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(text)).toBeTruthy();
  });

  it('explains a clock skew in Japanese too', async () => {
    useSession.setState({ displayLang: 'ja' });
    await i18n.changeLanguage('ja');
    server();
    renderApp('/login?sso_error=clock_skew');
    expect(await screen.findByText(/時刻が合っていません/)).toBeTruthy();
  });

  it('hides the password for an address at a university domain (and its subdomains)', async () => {
    server();
    renderApp('/login');
    const email = await screen.findByLabelText(/E-mail/);
    expect(screen.getByLabelText(/^Password/)).toBeTruthy();
    fireEvent.change(email, { target: { value: 'taro@cs.u-tokyo.ac.jp' } });
    expect(
      await screen.findByText('People at u-tokyo.ac.jp sign in with their university account.'),
    ).toBeTruthy();
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign In' })).toBeNull();
    // The note offers the provider of that domain, not every provider.
    expect(screen.getAllByRole('link', { name: 'Sign in with The University of Tokyo' })).toHaveLength(2);
    expect(screen.getAllByRole('link', { name: 'Sign in with Kyoto University' })).toHaveLength(1);

    fireEvent.change(email, { target: { value: 'taro@not-u-tokyo.ac.jp' } });
    expect(await screen.findByLabelText(/^Password/)).toBeTruthy();
  });

  it('says so when the server refuses a password sign-in for the domain', async () => {
    server((request) =>
      request.url === '/api/Auth/Email/Login/'
        ? json(403, { detail: 'Use your university.', code: 'password_sign_in_disabled' })
        : undefined,
    );
    renderApp('/login');
    fireEvent.change(await screen.findByLabelText(/E-mail/), { target: { value: 'hana@example.com' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'secret-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(
      await screen.findByText(/sign in with their university account, not with a password/),
    ).toBeTruthy();
  });
});

describe('/login/sso', () => {
  it('exchanges the code, keeps the session and goes to where the person was going', async () => {
    const { requests } = server((request) =>
      request.url === '/api/Auth/Sso/Exchange/' ? exchanged('/course/3/assignment') : undefined,
    );
    const { router } = renderApp('/login/sso?code=one-time');
    await waitFor(() => expect(router.state.location.pathname).toBe('/course/3/assignment'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(requests.find((r) => r.url === '/api/Auth/Sso/Exchange/')?.body).toEqual({ code: 'one-time' });
    expect(requests.filter((r) => r.url === '/api/Auth/Sso/Exchange/')).toHaveLength(1);
    expect(useSession.getState()).toMatchObject({
      refreshToken: 'r-sso',
      userId: 4,
      emailAddress: 'taro@u-tokyo.ac.jp',
      roles: ['student'],
    });
  });

  it('keeps the language picked on the login page, which the trip to the university reloads', async () => {
    // Picked while signed out: remembered in the tab's storage, as the page is left for the provider.
    chooseLanguage('ja');
    expect(sessionStorage.getItem('kadai-language-chosen')).toBe('1');
    const { requests } = server((request) =>
      request.url === '/api/Auth/Sso/Exchange/' ? exchanged(null) : undefined,
    );
    const { router } = renderApp('/login/sso?code=one-time');
    await waitFor(() => expect(router.state.location.pathname).toBe('/course'));
    // The account said English: the choice wins and is saved to the account, once.
    expect(useSession.getState().displayLang).toBe('ja');
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'PATCH' && r.url === '/api/Auth/User/4/')?.body).toEqual({
        display_lang: 'ja',
      }),
    );
    expect(sessionStorage.getItem('kadai-language-chosen')).toBeNull();
  });

  it.each(['//evil.com', '/\\evil.com', 'https://evil.com/'])(
    'goes to the course list, not to next=%s',
    async (next) => {
      server((request) => (request.url === '/api/Auth/Sso/Exchange/' ? exchanged(next) : undefined));
      const { router } = renderApp('/login/sso?code=one-time');
      await waitFor(() => expect(router.state.location.pathname).toBe('/course'));
    },
  );

  it('sends a code the server refuses back to the login page with an explanation', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    server((request) =>
      request.url === '/api/Auth/Sso/Exchange/' ? json(410, { detail: 'Gone.', code: 'expired' }) : undefined,
    );
    const { router } = renderApp('/login/sso?code=used');
    expect(
      await screen.findByText('Your sign-in took too long or was already used. Please try again.'),
    ).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?sso_error=expired');
    expect(useSession.getState().authToken).toBeNull();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('links to an existing account with its password, and takes the code out of the address', async () => {
    let attempts = 0;
    const { requests } = server((request) => {
      if (request.url === '/api/Auth/Sso/Link/?code=link-1')
        return json(200, { email: 'taro@u-tokyo.ac.jp', provider: TOKYO });
      if (request.url === '/api/Auth/Sso/Link/' && request.method === 'POST') {
        attempts += 1;
        return attempts === 1
          ? json(401, { detail: 'Wrong password.', code: 'authentication_failed' })
          : exchanged(null);
      }
      return undefined;
    });
    const { router } = renderApp('/login/sso?link=link-1');
    expect(
      await screen.findByText(
        'An account for taro@u-tokyo.ac.jp already exists. Enter its password once to link your The University of Tokyo sign-in to it.',
      ),
    ).toBeTruthy();
    expect(router.state.location.search).toBe('');

    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Link and sign in' }));
    expect(await screen.findByText('This is not the password of that account.')).toBeTruthy();

    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'right-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Link and sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/course'));
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { code: 'link-1', password: 'wrong' },
      { code: 'link-1', password: 'right-password' },
    ]);
    expect(useSession.getState().refreshToken).toBe('r-sso');
  });

  it('asks an account without a password to get help rather than a password', async () => {
    server((request) =>
      request.url === '/api/Auth/Sso/Link/?code=link-2'
        ? json(200, { email: 'hanako@u-tokyo.ac.jp', provider: TOKYO, has_password: false })
        : undefined,
    );
    renderApp('/login/sso?link=link-2');
    expect(await screen.findByText(/has no password yet, so it cannot be linked here/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Link and sign in' })).toBeNull();
  });

  it('says a link code has expired', async () => {
    server((request) =>
      request.url.startsWith('/api/Auth/Sso/Link/')
        ? json(410, { detail: 'Gone.', code: 'expired' })
        : undefined,
    );
    renderApp('/login/sso?link=old');
    expect(
      await screen.findByText('Your sign-in took too long or was already used. Please try again.'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toBeTruthy();
  });
});
