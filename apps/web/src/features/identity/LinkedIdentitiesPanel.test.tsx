import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { LinkedIdentity, User } from '@kadai/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { useSession } from '../auth/session.ts';
import { oidcProvider, samlProvider } from './identity-fixtures.ts';

vi.setConfig({ testTimeout: 20_000 });
const SLOW = { timeout: 8000 };

function user(id: number): User {
  return {
    id,
    email: `user${id}@u-tokyo.ac.jp`,
    first_name: 'Hanako',
    last_name: 'Sato',
    first_name_ja: '',
    last_name_ja: '',
    is_staff: false,
    is_active: true,
    roles: ['student'],
    display_lang: 'en-US',
    has_password: false,
    date_joined: '2026-04-01T09:00:00.000Z',
    last_login: null,
  };
}

const IDENTITY: LinkedIdentity = {
  id: 31,
  provider: {
    id: 1,
    slug: 'utokyo',
    kind: 'saml',
    name_ja: '東京大学',
    name_en: 'The University of Tokyo',
    email_domain: 'u-tokyo.ac.jp',
  },
  external_id: 'hanako@u-tokyo.ac.jp',
  institutional_id: '03-123456',
  email: 'user7@u-tokyo.ac.jp',
  created_at: '2026-04-01T09:00:00.000Z',
  last_login_at: null,
};

type Handler = (request: RecordedRequest) => Response | undefined;

function server(handler: Handler = () => undefined) {
  return stubFetch((request) => {
    const answer = handler(request);
    if (answer) return answer;
    const path = new URL(request.url, 'http://test').pathname;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    const userMatch = /^\/api\/Auth\/User\/(\d+)\/$/.exec(path);
    if (userMatch) return json(200, user(Number(userMatch[1])));
    if (/^\/api\/Auth\/User\/\d+\/identities\/$/.test(path) && request.method === 'GET')
      return json(200, { results: [IDENTITY] });
    if (path === '/api/IdentityProvider/') return json(200, { results: [samlProvider(), oidcProvider()] });
    if (path === '/api/Auth/RolesList/') return json(200, { roles: ['student', 'teacher'] });
    return json(404, { detail: 'Not found.', code: 'not_found' });
  });
}

beforeEach(async () => {
  signInAsStudent();
  await i18n.changeLanguage('en-US');
});

describe('linked identities on a profile', () => {
  it('shows a person their own, without actions', async () => {
    const { requests } = server();
    renderApp('/profile');
    const panel = await screen.findByRole('region', { name: 'University sign-in' }, SLOW);
    expect(await within(panel).findByText('The University of Tokyo')).toBeTruthy();
    expect(within(panel).getByText('hanako@u-tokyo.ac.jp')).toBeTruthy();
    expect(within(panel).getByText('03-123456')).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: /Unlink/ })).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'Link' })).toBeNull();
    expect(requests.some((r) => r.url === '/api/Auth/User/4/identities/')).toBe(true);
    expect(requests.some((r) => r.url === '/api/IdentityProvider/')).toBe(false);
  });

  it('lets staff unlink one after confirming, and link another', async () => {
    useSession.setState({ userId: 1, is_staff: true });
    const { requests } = server((request) => {
      if (request.method === 'DELETE') return new Response(null, { status: 204 });
      if (request.method === 'POST' && request.url === '/api/Auth/User/7/identities/') {
        const body = request.body;
        const isTaken =
          typeof body === 'object' && body !== null && 'external_id' in body && body.external_id === 'taken';
        return isTaken
          ? json(400, {
              detail: 'Invalid.',
              code: 'invalid',
              external_id: ['Already linked to another account.'],
            })
          : json(201, { ...IDENTITY, id: 32 });
      }
      return undefined;
    });
    renderApp('/profile/7');
    const panel = await screen.findByRole('region', { name: 'University sign-in' }, SLOW);
    fireEvent.click(
      await within(panel).findByRole('button', {
        name: 'Unlink The University of Tokyo (hanako@u-tokyo.ac.jp)',
      }),
    );
    const confirm = await screen.findByRole('dialog', { name: 'Unlink The University of Tokyo?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Unlink' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'DELETE')?.url).toBe('/api/Auth/User/7/identities/31/'),
    );

    const providerSelect = within(panel).getByRole('combobox', { name: /Identity provider/ });
    fireEvent.click(providerSelect);
    fireEvent.click(await screen.findByRole('option', { name: 'Kyoto University', hidden: true }));
    fireEvent.change(within(panel).getByRole('textbox', { name: /External ID/ }), {
      target: { value: 'taken' },
    });
    fireEvent.click(within(panel).getByRole('button', { name: 'Link' }));
    expect(await within(panel).findByText('Already linked to another account.')).toBeTruthy();

    fireEvent.change(within(panel).getByRole('textbox', { name: /External ID/ }), {
      target: { value: 'k0123' },
    });
    fireEvent.change(within(panel).getByRole('textbox', { name: /Student or staff number/ }), {
      target: { value: 'S-9' },
    });
    fireEvent.click(within(panel).getByRole('button', { name: 'Link' }));
    await waitFor(() => expect(requests.filter((r) => r.method === 'POST')).toHaveLength(2));
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { provider_id: 2, external_id: 'taken' },
      { provider_id: 2, external_id: 'k0123', institutional_id: 'S-9' },
    ]);
  });

  it('is labelled in Japanese too', async () => {
    await i18n.changeLanguage('ja');
    server();
    renderApp('/profile');
    const panel = await screen.findByRole('region', { name: '大学のアカウント' }, SLOW);
    expect(await within(panel).findByText('東京大学')).toBeTruthy();
  });
});
