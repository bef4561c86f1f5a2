import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DataExport, User } from '@kadai/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { useSession } from '../auth/session.ts';

vi.setConfig({ testTimeout: 20_000 });
const SLOW = { timeout: 8000 };

function user(id: number, email = `user${id}@example.ac.jp`): User {
  return {
    id,
    email,
    first_name: 'Hanako',
    last_name: 'Sato',
    first_name_ja: '',
    last_name_ja: '',
    is_staff: false,
    is_active: true,
    roles: ['student'],
    display_lang: 'en-US',
    has_password: true,
    date_joined: '2026-04-01T09:00:00.000Z',
    last_login: null,
  };
}

function exportOf(status: DataExport['status'], extra: Partial<DataExport> = {}): DataExport {
  return {
    id: 12,
    status,
    created_at: '2026-11-20T09:00:00.000Z',
    finished_at: null,
    expires_at: null,
    size: null,
    download_url: null,
    ...extra,
  };
}

type Handler = (request: RecordedRequest, path: string) => Response | undefined;

function server(handler: Handler = () => undefined) {
  return stubFetch((request) => {
    const path = new URL(request.url, 'http://test').pathname;
    const answer = handler(request, path);
    if (answer) return answer;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    const userMatch = /^\/api\/Auth\/User\/(\d+)\/$/.exec(path);
    if (userMatch) return json(200, user(Number(userMatch[1])));
    if (path === '/api/Auth/RolesList/') return json(200, { roles: ['student', 'teacher'] });
    return json(404, { detail: 'Not found.', code: 'not_found' });
  });
}

beforeEach(async () => {
  signInAsStudent();
  await i18n.changeLanguage('en-US');
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('Download my data, on one’s own profile', () => {
  it('asks for a copy, shows it being prepared, and offers no second request while it is', async () => {
    let exports: DataExport[] = [];
    const { requests } = server((request, path) => {
      if (path === '/api/Privacy/exports/' && request.method === 'GET')
        return json(200, { results: exports });
      if (path === '/api/Privacy/exports/' && request.method === 'POST') {
        exports = [exportOf('pending')];
        return json(202, exports[0]);
      }
      return undefined;
    });
    renderApp('/profile');
    const panel = await screen.findByRole('region', { name: 'Download my data' }, SLOW);
    fireEvent.click(await within(panel).findByRole('button', { name: 'Request a copy of my data' }));
    expect(await within(panel).findByText('Waiting')).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Request a new copy' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual(['/api/Privacy/exports/']);
  });

  it('downloads a ready copy through a link made for this download', async () => {
    const ready = exportOf('ready', { expires_at: '2026-11-27T09:00:00.000Z', size: 2048 });
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.getAttribute('href') ?? '');
    });
    server((request, path) => {
      if (path === '/api/Privacy/exports/') return json(200, { results: [ready] });
      if (path === '/api/Privacy/exports/12/')
        return json(200, { ...ready, download_url: '/api/Download/signed.token' });
      return undefined;
    });
    renderApp('/profile#my-data');
    const panel = await screen.findByRole('region', { name: 'Download my data' }, SLOW);
    expect(await within(panel).findByText(/Ready to download until/)).toBeTruthy();
    expect(within(panel).getByText(/2 kB/)).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Download (zip)' }));
    await waitFor(() => expect(clicked).toEqual(['/api/Download/signed.token']));
  });

  it('stays on the page when the e-mail’s #my-data is opened on a profile already open', async () => {
    server((_request, path) => (path === '/api/Privacy/exports/' ? json(200, { results: [] }) : undefined));
    const { router } = renderApp('/profile');
    await screen.findByRole('region', { name: 'Download my data' }, SLOW);
    // This re-render once sent the profile form's language effect round in an endless loop.
    await router.navigate('/profile#my-data');
    expect(router.state.location.hash).toBe('#my-data');
    expect(await screen.findByRole('region', { name: 'Download my data' })).toBeTruthy();
    expect(screen.queryByText(/Something went wrong/)).toBeNull();
  });

  it('says when the last copy expired, in Japanese too', async () => {
    await i18n.changeLanguage('ja');
    server((_request, path) =>
      path === '/api/Privacy/exports/' ? json(200, { results: [exportOf('expired')] }) : undefined,
    );
    renderApp('/profile');
    const panel = await screen.findByRole('region', { name: '個人データのダウンロード' }, SLOW);
    expect(await within(panel).findByText('期限切れ')).toBeTruthy();
    expect(within(panel).getByRole('button', { name: '新しく依頼する' })).toHaveProperty('disabled', false);
  });

  it('is not on someone else’s profile, and staff get no erase action on their own', async () => {
    useSession.setState({ userId: 1, is_staff: true });
    server((_request, path) => (path === '/api/Privacy/exports/' ? json(200, { results: [] }) : undefined));
    renderApp('/profile');
    expect(await screen.findByRole('region', { name: 'Download my data' }, SLOW)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Erase this person' })).toBeNull();
  });
});

describe('Erase this person, for staff', () => {
  it('erases only after the e-mail address is typed, and shows the server’s refusal', async () => {
    useSession.setState({ userId: 1, is_staff: true });
    let erased = false;
    let attempts = 0;
    const { requests } = server((_request, path) => {
      if (path === '/api/Auth/User/7/')
        return json(200, erased ? user(7, 'erased-7-abcdef012345@erased.invalid') : user(7));
      if (path === '/api/Privacy/users/7/erase/') {
        // The first attempt is refused (the address changed meanwhile, say); the second goes through.
        if (++attempts === 1) {
          return json(400, {
            detail: 'Type the e-mail.',
            code: 'confirmation_mismatch',
            confirm_email: ['No.'],
          });
        }
        erased = true;
        return json(200, {
          id: 1,
          user_id: 7,
          pseudonym: 'Erased user 7',
          actor_id: 1,
          actor_email: 'staff@example.ac.jp',
          erased_at: '2026-11-20T09:00:00.000Z',
          kept_grades: true,
          forum_text: 'replace',
          rows: { users: 1 },
          files: 0,
          files_failed: 0,
        });
      }
      return undefined;
    });
    renderApp('/profile/7');
    const panel = await screen.findByRole('region', { name: 'Erase this person' }, SLOW);
    expect(screen.queryByRole('region', { name: 'Download my data' })).toBeNull();
    fireEvent.click(within(panel).getByRole('button', { name: 'Erase this person…' }));
    const dialog = await screen.findByRole('dialog', { name: "Erase this person's personal data" });
    const field = within(dialog).getByRole('textbox', {
      name: /type their e-mail address: user7@example\.ac\.jp/,
    });
    const confirm = within(dialog).getByRole('button', { name: 'Erase' });
    expect(confirm).toHaveProperty('disabled', true);
    fireEvent.change(field, { target: { value: 'USER7@example.ac.jp ' } });
    expect(confirm).toHaveProperty('disabled', false);
    fireEvent.click(confirm);
    await waitFor(() => expect(requests.some((r) => r.url === '/api/Privacy/users/7/erase/')).toBe(true));
    expect(await within(dialog).findByText(/Type the e-mail address of the person to erase/)).toBeTruthy();
    fireEvent.click(confirm);
    expect(await screen.findByText("This person's personal data has been erased.", {}, SLOW)).toBeTruthy();
    expect(requests.filter((r) => r.url === '/api/Privacy/users/7/erase/').map((r) => r.body)).toEqual([
      { confirm_email: 'USER7@example.ac.jp' },
      { confirm_email: 'USER7@example.ac.jp' },
    ]);
  });
});
