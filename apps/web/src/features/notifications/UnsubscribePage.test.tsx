import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SESSION_DEFAULTS, useSession } from '../auth/session.ts';
import { i18n } from '../../i18n/index.ts';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { axeViolations } from '../lti/lti-fixtures.ts';

// Pages load their code on demand: the first render of each takes a while in jsdom.
vi.setConfig({ testTimeout: 45_000 });
const SLOW = { timeout: 10_000 };

beforeEach(async () => {
  // Nobody signed in: the link in an e-mail works without a session.
  useSession.setState({ ...SESSION_DEFAULTS, displayLang: 'en-US' });
  await i18n.changeLanguage('en-US');
});

function server(result: unknown, status = 200) {
  return stubFetch((request: RecordedRequest) => {
    const url = new URL(request.url, 'http://test');
    if (url.pathname === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (url.pathname === '/api/Notification/unsubscribe/') return json(status, result);
    return json(404, { detail: 'Not found.', code: 'not_found' });
  });
}

describe('the unsubscribe page', () => {
  it('says what the link turns off, and turns it off only when asked', async () => {
    const { requests } = server({ kind: 'announcement', scope: 'kind' });
    renderApp('/unsubscribe?token=abc.def');
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Stop e-mails about “Announcements”' }, SLOW),
    ).toBeTruthy();
    expect(requests.filter((r) => r.url.startsWith('/api/Notification/'))).toEqual([
      expect.objectContaining({ method: 'GET', url: '/api/Notification/unsubscribe/?token=abc.def' }),
    ]);
    // No session: no token is sent, and the page does not send the visitor to sign in.
    expect(requests[requests.length - 1]!.headers.authorization).toBeUndefined();
    expect(await axeViolations(document.body)).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Stop these e-mails' }));
    expect(await screen.findByText('Done: you will no longer get these e-mails.')).toBeTruthy();
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual([
      '/api/Notification/unsubscribe/?token=abc.def',
    ]);
    expect(screen.getByRole('link', { name: 'Notification settings' }).getAttribute('href')).toBe(
      '/notifications/settings',
    );
  });

  it('names a course’s and every e-mail', async () => {
    server({ kind: null, scope: 'all' });
    renderApp('/unsubscribe?token=abc');
    expect(await screen.findByRole('heading', { name: 'Stop all notification e-mails' }, SLOW)).toBeTruthy();
  });

  it('refuses a forged or expired link, and one without a token', async () => {
    const { requests } = server({ detail: 'Invalid token.', code: 'invalid_token' }, 400);
    const { router } = renderApp('/unsubscribe?token=forged');
    expect(await screen.findByText('This link is invalid or has expired.', undefined, SLOW)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Stop these e-mails' })).toBeNull();
    await router.navigate('/unsubscribe');
    expect(
      await screen.findByText('This link has no token. Open the link in the e-mail again.'),
    ).toBeTruthy();
    await waitFor(() => expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0));
  });
});
