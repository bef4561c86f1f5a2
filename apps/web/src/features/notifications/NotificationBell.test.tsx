import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { stubFetch } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { useSession } from '../auth/session.ts';
import { axeViolations } from '../lti/lti-fixtures.ts';
import { GRADED, REPLY, notification, notificationServer } from './notification-fixtures.ts';
import { unreadBadge } from './NotificationBellButton.tsx';

// The header's controls and the bell's list load on demand: slow in jsdom under load.
vi.setConfig({ testTimeout: 45_000 });
const SLOW = { timeout: 10_000 };

beforeEach(async () => {
  signInAsStudent();
  await i18n.changeLanguage('en-US');
});

const bell = () => screen.getByRole('button', { name: /^Notifications/ });

/** Focuses the bell's stand-in, which loads the header's real controls, and waits for the real bell. */
async function realBell() {
  const standIn = await screen.findByRole('button', { name: /^Notifications/ }, SLOW);
  act(() => standIn.focus());
  await waitFor(() => expect(bell().hasAttribute('data-header-control')).toBe(false), SLOW);
  return bell();
}

describe('the header’s bell', () => {
  it('counts the unread notifications, and is only there for a signed-in reader', async () => {
    const { handler } = notificationServer([REPLY, notification(1)]);
    const { requests } = stubFetch(handler);
    renderApp('/course');
    expect(await screen.findByRole('button', { name: 'Notifications, 2 unread' }, SLOW)).toBeTruthy();
    expect(requests.some((request) => request.url === '/api/Notification/unread/')).toBe(true);
    // The badge is drawn for the eye only: the button's name says the count.
    expect(within(bell().parentElement!).getByText('2').closest('[aria-hidden]')).toBeTruthy();
  });

  it('says nothing of a count at zero, and "99+" beyond 99', async () => {
    stubFetch(notificationServer([GRADED]).handler);
    renderApp('/course');
    expect(await screen.findByRole('button', { name: 'Notifications' }, SLOW)).toBeTruthy();
    expect(unreadBadge(99)).toBe('99');
    expect(unreadBadge(100)).toBe('99+');
  });

  it('is named in Japanese', async () => {
    useSession.setState({ displayLang: 'ja' });
    await i18n.changeLanguage('ja');
    stubFetch(notificationServer([REPLY, notification(1), notification(4)]).handler);
    renderApp('/course');
    expect(await screen.findByRole('button', { name: '通知（未読 3 件）' }, SLOW)).toBeTruthy();
  });

  it('is not drawn for a visitor who has not signed in', async () => {
    useSession.setState({ authToken: null, refreshToken: null, userId: null });
    const { requests } = stubFetch(notificationServer([REPLY]).handler);
    renderApp('/about');
    expect(await screen.findByRole('button', { name: 'Dark mode' }, SLOW)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Notifications/ })).toBeNull();
    expect(requests.some((request) => request.url.startsWith('/api/Notification/'))).toBe(false);
  });

  it('opens the newest, marks one read as it is followed, and marks all', async () => {
    const { handler } = notificationServer([REPLY, GRADED, notification(1)]);
    const { requests } = stubFetch(handler);
    const { router } = renderApp('/course');
    fireEvent.click(await realBell());
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' }, SLOW);
    const list = await within(dialog).findByRole('list', { name: 'Notifications' }, SLOW);
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(
      within(items[0]!).getByRole('link', { name: 'Emily Carter replied to “Week 3” (unread)' }),
    ).toBeTruthy();
    expect(within(items[0]!).getByText('Python')).toBeTruthy();
    expect(
      within(items[1]!).getByRole('link', { name: 'Your submission to “Loops” was graded: 8 / 10 points' }),
    ).toBeTruthy();
    expect(requests.find((request) => request.url.startsWith('/api/Notification/?'))?.url).toBe(
      '/api/Notification/?page_size=8',
    );
    expect(await axeViolations(dialog)).toEqual([]);

    fireEvent.click(within(items[0]!).getByRole('link', { name: /^Emily Carter replied/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/course/1/forum/12'));
    await waitFor(() =>
      expect(requests.some((r) => r.method === 'POST' && r.url === '/api/Notification/3/read/')).toBe(true),
    );
    expect(await screen.findByRole('button', { name: 'Notifications, 1 unread' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Notifications' })).toBeNull());

    fireEvent.click(bell());
    const again = await screen.findByRole('dialog', { name: 'Notifications' });
    fireEvent.click(await within(again).findByRole('button', { name: 'Mark all as read' }));
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeTruthy();
    expect(requests.find((r) => r.url === '/api/Notification/read-all/')?.body).toEqual({});
    expect(within(again).queryByText(/\(unread\)/)).toBeNull();
    expect(within(again).getByRole('button', { name: 'Mark all as read' })).toHaveProperty('disabled', true);
  });

  it('links to the full list and the settings, and says when there is nothing yet', async () => {
    stubFetch(notificationServer([]).handler);
    const { router } = renderApp('/course');
    fireEvent.click(await realBell());
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' }, SLOW);
    expect(await within(dialog).findByText('No notifications yet.', undefined, SLOW)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('link', { name: 'All notifications' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/notifications'));
    fireEvent.click(bell());
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Notifications' })).getByRole('link', {
        name: 'Notification settings',
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/notifications/settings'));
  });

  it('has the settings in the account menu too', async () => {
    stubFetch(notificationServer([]).handler);
    const { router } = renderApp('/course');
    await realBell();
    fireEvent.click(screen.getByRole('button', { name: 'Account menu' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Notification settings' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/notifications/settings'));
  });
});
