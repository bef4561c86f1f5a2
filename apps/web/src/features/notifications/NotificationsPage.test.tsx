import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { stubFetch } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { axeViolations } from '../lti/lti-fixtures.ts';
import { GRADED, REPLY, notification, notificationServer } from './notification-fixtures.ts';

// Pages load their code on demand: the first render of each takes a while in jsdom.
vi.setConfig({ testTimeout: 45_000 });
const SLOW = { timeout: 10_000 };

beforeEach(async () => {
  signInAsStudent();
  await i18n.changeLanguage('en-US');
});

const list = () => screen.getByRole('list', { name: 'Notifications' });
const rows = () => within(list()).getAllByRole('listitem');

describe('the notifications page', () => {
  it('lists them newest first, 20 at a time, and loads more by the cursor', async () => {
    const many = Array.from({ length: 25 }, (_, i) =>
      notification(100 - i, { read_at: i % 2 ? null : GRADED.read_at }),
    );
    const { handler } = notificationServer(many);
    const { requests } = stubFetch(handler);
    renderApp('/notifications');
    expect(await screen.findByRole('heading', { level: 1, name: 'Notifications' }, SLOW)).toBeTruthy();
    await waitFor(() => expect(rows()).toHaveLength(20));
    expect(within(rows()[0]!).getByRole('link', { name: 'New announcement: Notice 100' })).toBeTruthy();
    expect(await axeViolations(document.body)).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(25));
    expect(requests.map((r) => r.url).filter((url) => url.startsWith('/api/Notification/?'))).toEqual([
      '/api/Notification/?page_size=20',
      '/api/Notification/?page_size=20&cursor=20',
    ]);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('shows only the unread ones when asked, in the address too', async () => {
    const { handler } = notificationServer([REPLY, GRADED]);
    const { requests } = stubFetch(handler);
    const { router } = renderApp('/notifications');
    await screen.findByRole('list', { name: 'Notifications' }, SLOW);
    expect(rows()).toHaveLength(2);
    fireEvent.click(screen.getByRole('radio', { name: 'Unread' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(router.state.location.search).toBe('?unread=1');
    expect(requests.some((r) => r.url === '/api/Notification/?page_size=20&unread=true')).toBe(true);
  });

  it('marks one read with its button, then all, and says so', async () => {
    const { handler } = notificationServer([REPLY, notification(1), GRADED]);
    const { requests } = stubFetch(handler);
    renderApp('/notifications');
    await screen.findByRole('list', { name: 'Notifications' }, SLOW);
    // Only the unread ones have the button, named by what they say.
    expect(screen.getAllByRole('button', { name: /^Mark as read: / })).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Mark as read: Emily Carter replied to “Week 3”' }));
    await waitFor(() => expect(screen.getAllByRole('button', { name: /^Mark as read: / })).toHaveLength(1));
    expect(requests.some((r) => r.method === 'POST' && r.url === '/api/Notification/3/read/')).toBe(true);
    expect(await screen.findByRole('button', { name: 'Notifications, 1 unread' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    expect(await screen.findByText('All notifications are marked as read.')).toBeTruthy();
    await waitFor(() => expect(screen.queryAllByRole('button', { name: /^Mark as read: / })).toHaveLength(0));
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toHaveProperty('disabled', true);
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeTruthy();
  });

  it('says when there is nothing to show', async () => {
    stubFetch(notificationServer([GRADED]).handler);
    renderApp('/notifications?unread=1');
    expect(await screen.findByText('No unread notifications.', undefined, SLOW)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Notification settings' })).toBeTruthy();
  });

  it('reads the list again when the bell counts more than it shows', async () => {
    const { handler, state } = notificationServer([GRADED]);
    stubFetch(handler);
    const { queryClient } = renderApp('/notifications');
    await screen.findByRole('list', { name: 'Notifications' }, SLOW);
    state.items.unshift(notification(9, { facts: { title: 'Exam room' } }));
    await queryClient.refetchQueries({ queryKey: ['notifications', 'unread'] });
    expect(await screen.findByRole('link', { name: 'New announcement: Exam room (unread)' })).toBeTruthy();
  });
});
