import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { IdentityProvider } from '@kadai/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { useSession } from '../auth/session.ts';
import { oidcProvider, samlProvider } from './identity-fixtures.ts';

vi.setConfig({ testTimeout: 20_000 });
const SLOW = { timeout: 8000 };

const SP = {
  saml_entity_id: 'https://kadai.example.ac.jp/api/Auth/Saml/metadata/',
  saml_metadata_url: 'https://kadai.example.ac.jp/api/Auth/Saml/metadata/',
  saml_acs_url: 'https://kadai.example.ac.jp/api/Auth/Saml/acs/',
  saml_slo_url: 'https://kadai.example.ac.jp/api/Auth/Saml/slo/',
  oidc_redirect_uri: 'https://kadai.example.ac.jp/api/Auth/Oidc/callback/',
};

type Handler = (request: RecordedRequest) => Response | undefined;

function server(providers: IdentityProvider[], handler: Handler = () => undefined) {
  return stubFetch((request) => {
    const answer = handler(request);
    if (answer) return answer;
    const path = new URL(request.url, 'http://test').pathname;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (path === '/api/IdentityProvider/' && request.method === 'GET')
      return json(200, { results: providers });
    if (path === '/api/IdentityProvider/sp/') return json(200, SP);
    if (path === '/api/SignInSettings/' && request.method === 'GET')
      return json(200, { password_hidden_domains: ['u-tokyo.ac.jp'] });
    if (path === '/api/SignInSettings/' && request.method === 'PUT') return json(200, request.body);
    return json(404, { detail: 'Not found.', code: 'not_found' });
  });
}

beforeEach(async () => {
  signInAsStudent();
  useSession.setState({ userId: 1, roles: ['no_role'], is_staff: true });
  await i18n.changeLanguage('en-US');
});

describe('the sign-in settings page', () => {
  it('lists the providers, with env-managed ones read-only and a certificate about to expire', async () => {
    const soon = new Date(Date.now() + 10 * 24 * 3600 * 1000).toISOString();
    const envManaged = samlProvider({
      managed_by: 'env',
      saml: {
        ...samlProvider().saml!,
        certificates: [{ fingerprint_sha256: 'AA:BB', subject: 'CN=x', not_after: soon }],
      },
    });
    server([envManaged, oidcProvider()]);
    renderApp('/admin/sign-in');
    const table = await screen.findByRole('table', { name: 'Identity providers' }, SLOW);
    expect(within(table).getByText('Set in the environment (read-only)')).toBeTruthy();
    expect(within(table).getByText('Expires within 30 days')).toBeTruthy();
    expect(within(table).queryByRole('button', { name: 'Edit The University of Tokyo' })).toBeNull();
    expect(within(table).getByRole('button', { name: 'Edit Kyoto University' })).toBeTruthy();
    expect(within(table).getByRole('switch', { name: 'Enabled: The University of Tokyo' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(await screen.findByDisplayValue(SP.saml_acs_url)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy OpenID Connect redirect URI' })).toBeTruthy();
  });

  it('switches a provider on with a PATCH', async () => {
    const { requests } = server([oidcProvider()], (request) =>
      request.method === 'PATCH' ? json(200, oidcProvider({ enabled: true })) : undefined,
    );
    renderApp('/admin/sign-in');
    fireEvent.click(await screen.findByRole('switch', { name: 'Enabled: Kyoto University' }, SLOW));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'PATCH')).toMatchObject({
        url: '/api/IdentityProvider/2/',
        body: { enabled: true },
      }),
    );
  });

  it('creates a SAML provider, showing the server’s field errors and a 502’s detail first', async () => {
    let posts = 0;
    const { requests } = server([], (request) => {
      if (request.url !== '/api/IdentityProvider/' || request.method !== 'POST') return undefined;
      posts += 1;
      if (posts === 1)
        return json(400, { detail: 'Invalid.', code: 'invalid', slug: ['This slug is taken.'] });
      if (posts === 2)
        return json(502, {
          detail: 'Could not fetch https://idp.example.ac.jp/metadata.xml: connection refused',
          code: 'metadata_unreachable',
        });
      return json(201, samlProvider({ id: 9, slug: 'example' }));
    });
    renderApp('/admin/sign-in');
    fireEvent.click(await screen.findByRole('button', { name: 'Add a provider' }, SLOW));
    const dialog = await screen.findByRole('dialog', { name: 'Add an identity provider' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Name in Japanese/ }), {
      target: { value: '例大学' },
    });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Name in English/ }), {
      target: { value: 'Example University' },
    });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Slug/ }), { target: { value: 'example' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Metadata URL/ }), {
      target: { value: 'https://idp.example.ac.jp/metadata.xml' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Attribute mapping (advanced)' }));
    // jsdom runs no transitions: the opened panel's fields stay `hidden` to the queries.
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'E-mail', hidden: true }), {
      target: { value: 'mail, email' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('This slug is taken.')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(
      await within(dialog).findByText(
        'Could not fetch https://idp.example.ac.jp/metadata.xml: connection refused',
      ),
    ).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Add an identity provider' })).toBeNull(),
    );
    const posted = requests.filter((r) => r.method === 'POST').map((r) => r.body);
    expect(posted).toHaveLength(3);
    expect(posted[2]).toEqual({
      kind: 'saml',
      slug: 'example',
      name_ja: '例大学',
      name_en: 'Example University',
      email_domain: null,
      enabled: true,
      allow_create: false,
      attribute_map: { email: ['mail', 'email'] },
      id_source: 'attribute',
      metadata_url: 'https://idp.example.ac.jp/metadata.xml',
    });
  });

  it('keeps a stored OIDC secret unless a new one is typed', async () => {
    const { requests } = server([oidcProvider()], (request) =>
      request.method === 'PATCH' ? json(200, oidcProvider()) : undefined,
    );
    renderApp('/admin/sign-in');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Kyoto University' }, SLOW));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Kyoto University' });
    expect(within(dialog).getByText('A secret is stored — leave empty to keep it.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(requests.find((r) => r.method === 'PATCH')).toBeTruthy());
    const body = requests.find((r) => r.method === 'PATCH')?.body;
    expect(body).toMatchObject({ issuer: 'https://login.kyoto-u.ac.jp', client_id: 'kadai' });
    expect(body).not.toHaveProperty('client_secret');
  });

  it('deletes a provider after confirming', async () => {
    const { requests } = server([oidcProvider()], (request) =>
      request.method === 'DELETE' ? new Response(null, { status: 204 }) : undefined,
    );
    renderApp('/admin/sign-in');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Kyoto University' }, SLOW));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Kyoto University?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'DELETE')?.url).toBe('/api/IdentityProvider/2/'),
    );
  });

  it('saves the domains without password sign-in', async () => {
    const { requests } = server([]);
    renderApp('/admin/sign-in');
    const input = await screen.findByRole('combobox', { name: /Domains without password sign-in/ }, SLOW);
    // Mantine's combobox inputs take only what is typed into the focused input (not an autofill).
    input.focus();
    fireEvent.change(input, { target: { value: 'Kyoto-U.ac.jp' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({
        password_hidden_domains: ['u-tokyo.ac.jp', 'kyoto-u.ac.jp'],
      }),
    );
  });

  it('is for staff only, in Japanese too', async () => {
    useSession.setState({ is_staff: false });
    await i18n.changeLanguage('ja');
    server([]);
    renderApp('/admin/sign-in');
    expect(await screen.findByText('ログイン方法を変更できるのはスタッフだけです。', {}, SLOW)).toBeTruthy();
  });
});
