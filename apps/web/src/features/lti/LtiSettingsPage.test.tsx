import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { json } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { useSession } from '../auth/session.ts';
import { TOOL, axeViolations, moodle, server } from './lti-fixtures.ts';

vi.setConfig({ testTimeout: 20_000 });
const SLOW = { timeout: 8000 };

beforeEach(async () => {
  signInAsStudent();
  useSession.setState({ userId: 1, roles: ['no_role'], is_staff: true });
  await i18n.changeLanguage('en-US');
});

const platformsAndTool = (path: string, method: string, platforms = [moodle()]) => {
  if (path === '/api/Lti/Platform/' && method === 'GET') return json(200, { results: platforms });
  if (path === '/api/Lti/Tool/' && method === 'GET') return json(200, TOOL);
  return undefined;
};

const change = (dialog: HTMLElement, name: RegExp, value: string) =>
  fireEvent.change(within(dialog).getByRole('textbox', { name }), { target: { value } });

/** Types into a Mantine tags input and presses Enter (it takes only what is typed into it, focused). */
function addTag(dialog: HTMLElement, name: RegExp, value: string) {
  const input = within(dialog).getByRole('combobox', { name });
  input.focus();
  fireEvent.change(input, { target: { value } });
  fireEvent.keyDown(input, { key: 'Enter' });
}

describe('the LTI settings page', () => {
  it('lists the platforms and Kadai’s details with copy buttons', async () => {
    server((request, path) => platformsAndTool(path, request.method));
    renderApp('/admin/lti');
    const table = await screen.findByRole('table', { name: 'Platforms (LMSs)' }, SLOW);
    const row = within(table).getByRole('row', { name: /Moodle of Example University/ });
    expect(within(row).getByText('https://moodle.example.ac.jp')).toBeTruthy();
    expect(within(row).getByText('kadai-client')).toBeTruthy();
    expect(within(row).getByText('Dynamic')).toBeTruthy();
    expect(within(row).getByText('moodle')).toBeTruthy();
    expect(within(row).getByText('3')).toBeTruthy();
    expect(within(row).getByRole('switch', { name: 'Enabled: Moodle of Example University' })).toHaveProperty(
      'checked',
      true,
    );
    expect(await screen.findByDisplayValue(TOOL.login_url)).toBeTruthy();
    for (const label of [
      'Login initiation URL',
      'Launch (redirect) URL',
      'Public keyset (JWKS) URL',
      'Deep linking URL',
      'Canvas configuration (JSON) URL',
    ])
      expect(screen.getByRole('button', { name: `Copy ${label}` })).toBeTruthy();
    const keys = screen.getByRole('table', { name: 'Signing keys' });
    expect(within(keys).getByText('key-2026-04')).toBeTruthy();
    expect(within(keys).getByText('Current')).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
  });

  it('adds a platform by hand, saying so when it is registered already', async () => {
    let posts = 0;
    const { requests } = server((request, path) => {
      if (path === '/api/Lti/Platform/' && request.method === 'POST') {
        posts += 1;
        return posts === 1
          ? json(409, { detail: 'Exists.', code: 'platform_exists' })
          : json(201, moodle({ id: 2, name: 'Canvas', source: 'manual' }));
      }
      return platformsAndTool(path, request.method, []);
    });
    renderApp('/admin/lti');
    expect(await screen.findByText(/No LMS is registered yet/, {}, SLOW)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add a platform' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a platform' });
    change(dialog, /^Name/, 'Canvas');
    change(dialog, /^Issuer/, 'https://canvas.instructure.com');
    change(dialog, /^Client ID/, '10000000000001');
    change(dialog, /^Authorization/, 'https://sso.canvaslms.com/api/lti/authorize_redirect');
    change(dialog, /^Access token URL/, 'https://sso.canvaslms.com/login/oauth2/token');
    change(dialog, /^Public keyset/, 'not a url');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('Enter at least one deployment ID.')).toBeTruthy();
    expect(within(dialog).getByText(/Enter an address that starts with https:\/\//)).toBeTruthy();
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    change(dialog, /^Public keyset/, 'https://sso.canvaslms.com/api/lti/security/jwks');
    addTag(dialog, /^Deployment IDs/, '42:abc');
    addTag(dialog, /^Sites that may show Kadai/, 'https://example.instructure.com/');
    fireEvent.click(within(dialog).getByRole('switch', { name: /LMS administrators become Kadai staff/ }));
    expect(within(dialog).getByText(/could then act as Kadai staff/)).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('This issuer and client id are registered already.')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add a platform' })).toBeNull());
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.body)[1]).toEqual({
      name: 'Canvas',
      issuer: 'https://canvas.instructure.com',
      client_id: '10000000000001',
      auth_url: 'https://sso.canvaslms.com/api/lti/authorize_redirect',
      token_url: 'https://sso.canvaslms.com/login/oauth2/token',
      jwks_url: 'https://sso.canvaslms.com/api/lti/security/jwks',
      deployment_ids: ['42:abc'],
      frame_origins: ['https://example.instructure.com'],
      allow_staff: true,
      enabled: true,
    });
  });

  it('switches a platform off, and deletes one after confirming', async () => {
    const { requests } = server((request, path) => {
      if (request.method === 'PATCH') return json(200, moodle({ enabled: false }));
      if (request.method === 'DELETE') return new Response(null, { status: 204 });
      return platformsAndTool(path, request.method);
    });
    renderApp('/admin/lti');
    fireEvent.click(
      await screen.findByRole('switch', { name: 'Enabled: Moodle of Example University' }, SLOW),
    );
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'PATCH')).toMatchObject({
        url: '/api/Lti/Platform/1/',
        body: { enabled: false },
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete Moodle of Example University' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Moodle of Example University?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'DELETE')?.url).toBe('/api/Lti/Platform/1/'),
    );
  });

  it('rotates the signing key after saying the old one stays published', async () => {
    const rotated = {
      ...TOOL,
      keys: [
        { kid: 'key-2026-10', created_at: '2026-10-01T09:00:00.000Z', current: true },
        { ...TOOL.keys[0]!, current: false },
      ],
    };
    const { requests } = server((request, path) =>
      path === '/api/Lti/Tool/rotate-key/' && request.method === 'POST'
        ? json(200, rotated)
        : platformsAndTool(path, request.method),
    );
    renderApp('/admin/lti');
    fireEvent.click(await screen.findByRole('button', { name: 'Rotate key' }, SLOW));
    const confirm = await screen.findByRole('dialog', { name: "Rotate Kadai's signing key?" });
    expect(
      within(confirm).getByText(/old key stays published in Kadai's keyset until the next rotation/),
    ).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Rotate key' }));
    const keys = screen.getByRole('table', { name: 'Signing keys' });
    expect(await within(keys).findByText('key-2026-10')).toBeTruthy();
    expect(within(keys).getAllByText('Current')).toHaveLength(1);
    expect(requests.filter((r) => r.url === '/api/Lti/Tool/rotate-key/')).toHaveLength(1);
  });

  it('makes a one-time dynamic registration URL to copy, with its expiry', async () => {
    const url = 'https://kadai.example.ac.jp/api/Lti/register/?token=one-time';
    server((request, path) =>
      path === '/api/Lti/Registration/' && request.method === 'POST'
        ? json(201, { url, expires_at: '2026-04-08T09:00:00.000Z' })
        : platformsAndTool(path, request.method),
    );
    renderApp('/admin/lti');
    fireEvent.click(await screen.findByRole('button', { name: 'Create a registration URL' }, SLOW));
    expect(await screen.findByDisplayValue(url)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy Registration URL' })).toBeTruthy();
    expect(screen.getByText(/^Works once, until .*2026/)).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
  });

  it('is for staff only, in Japanese too', async () => {
    useSession.setState({ is_staff: false });
    await i18n.changeLanguage('ja');
    server();
    renderApp('/admin/lti');
    expect(
      await screen.findByText('Kadai と連携する LMS を変更できるのはスタッフだけです。', {}, SLOW),
    ).toBeTruthy();
  });
});
