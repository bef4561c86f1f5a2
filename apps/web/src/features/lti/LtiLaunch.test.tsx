import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { LtiError } from '@kadai/contracts';
import { StrictMode, useLayoutEffect } from 'react';
import { MemoryRouter, useLocation, type Location } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../../app/App.tsx';
import { createQueryClient } from '../../app/query-client.ts';
import { AppRoutes } from '../../app/router.tsx';
import { i18n } from '../../i18n/index.ts';
import { json, tokenExpiringIn } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { SESSION_DEFAULTS, useSession } from '../auth/session.ts';
import { axeViolations, exchanged, server } from './lti-fixtures.ts';

vi.setConfig({ testTimeout: 20_000 });
const SLOW = { timeout: 8000 };

beforeEach(async () => {
  useSession.setState({ ...SESSION_DEFAULTS, displayLang: 'en-US' });
  await i18n.changeLanguage('en-US');
});

/** The app in StrictMode, as main.tsx renders it: effects run twice in development. */
function renderStrict(path: string) {
  const seen: { location: Location | null } = { location: null };
  function Observer() {
    const location = useLocation();
    useLayoutEffect(() => {
      seen.location = location;
    });
    return null;
  }
  render(
    <StrictMode>
      <Providers queryClient={createQueryClient()}>
        <MemoryRouter initialEntries={[path]}>
          <Observer />
          <AppRoutes />
        </MemoryRouter>
      </Providers>
    </StrictMode>,
  );
  return seen;
}

const ERROR_TEXTS: Record<LtiError | 'something_new', RegExp> = {
  expired: /has expired or was already used/,
  invalid: /could not check the request from your LMS/,
  unknown_platform: /not registered with Kadai yet/,
  disabled: /turned off for this LMS/,
  not_ready: /Your instructor has not set up Kadai for this course yet/,
  no_email: /did not share your e-mail address/,
  inactive: /account has been deactivated/,
  unreachable: /could not reach your LMS just now/,
  something_new: /Kadai could not be opened from your LMS/,
};

describe('/lti, inside the LMS’s frame', () => {
  it('exchanges the code once (in strict mode too), keeps the session and opens the page', async () => {
    const { requests } = server((request, path) =>
      path === '/api/Lti/Exchange/' ? exchanged('/course/1/assignment/5') : undefined,
    );
    const seen = renderStrict('/lti?code=one-time');
    await waitFor(() => expect(seen.location?.pathname).toBe('/course/1/assignment/5'), SLOW);
    const exchanges = requests.filter((r) => r.url === '/api/Lti/Exchange/');
    expect(exchanges.map((r) => r.body)).toEqual([{ code: 'one-time' }]);
    expect(exchanges[0]?.headers.authorization).toBeUndefined();
    expect(useSession.getState()).toMatchObject({
      refreshToken: 'r-lti',
      userId: 4,
      emailAddress: 'taro@example.ac.jp',
      roles: ['student'],
    });
  });

  it('takes the code out of the address and never follows a next of another site', async () => {
    server((request, path) => (path === '/api/Lti/Exchange/' ? exchanged('//evil.example') : undefined));
    const { router } = renderApp('/lti?code=one-time');
    await waitFor(() => expect(router.state.location.pathname).toBe('/course'), SLOW);
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('explains a spent code and leaves the browser signed out', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    useSession.setState({ authToken: tokenExpiringIn(7200), refreshToken: 'someone-else', userId: 9 });
    server((request, path) =>
      path === '/api/Lti/Exchange/' ? json(410, { detail: 'Gone.', code: 'lti_code_expired' }) : undefined,
    );
    const { router } = renderApp('/lti?code=used');
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(within(alert).getByText(ERROR_TEXTS.expired)).toBeTruthy();
    expect(router.state.location.search).toBe('');
    expect(useSession.getState().authToken).toBeNull();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it.each(Object.entries(ERROR_TEXTS))('explains error=%s in plain words', async (reason, text) => {
    server();
    renderApp(`/lti?error=${reason}`);
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(within(alert).getByText(text)).toBeTruthy();
    if (reason === 'not_ready') expect(await axeViolations()).toEqual([]);
  });

  it('explains a reason in Japanese too', async () => {
    useSession.setState({ displayLang: 'ja' });
    await i18n.changeLanguage('ja');
    server();
    renderApp('/lti?error=not_ready');
    expect(
      await screen.findByText(/担当の先生がこのコースの Kadai をまだ準備していません/, {}, SLOW),
    ).toBeTruthy();
  });

  it('links to an existing account with its password, after a wrong one', async () => {
    let attempts = 0;
    const { requests } = server((request, path) => {
      if (request.url === '/api/Lti/Link/?code=link-1')
        return json(200, { email: 'taro@example.ac.jp', platform: 'Moodle of Example University' });
      if (path === '/api/Lti/Link/' && request.method === 'POST') {
        attempts += 1;
        return attempts === 1
          ? json(401, { detail: 'Wrong password.', code: 'invalid_credentials' })
          : exchanged('/course/1');
      }
      return undefined;
    });
    const { router } = renderApp('/lti?link=link-1');
    expect(
      await screen.findByText(
        'A Kadai account for taro@example.ac.jp already exists. Enter its password once to use it from Moodle of Example University from now on.',
        {},
        SLOW,
      ),
    ).toBeTruthy();
    expect(router.state.location.search).toBe('');
    expect(await axeViolations()).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Link and continue' }));
    expect(await screen.findByText('Enter a password')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Link and continue' }));
    expect(await screen.findByText('This is not the password of that account.')).toBeTruthy();

    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'right-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Link and continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/course/1'));
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { code: 'link-1', password: 'wrong' },
      { code: 'link-1', password: 'right-password' },
    ]);
    expect(useSession.getState().refreshToken).toBe('r-lti');
  });

  it('says a link code has expired', async () => {
    server((request, path) =>
      path === '/api/Lti/Link/' ? json(410, { detail: 'Gone.', code: 'lti_code_expired' }) : undefined,
    );
    renderApp('/lti?link=old');
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(within(alert).getByText(ERROR_TEXTS.expired)).toBeTruthy();
  });
});
