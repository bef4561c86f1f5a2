import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { json, stubFetch } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { useSession } from '../auth/session.ts';
import { axeViolations } from '../lti/lti-fixtures.ts';
import { SETTINGS, notificationServer } from './notification-fixtures.ts';

// Pages load their code on demand: the first render of each takes a while in jsdom.
vi.setConfig({ testTimeout: 45_000 });
const SLOW = { timeout: 10_000 };

beforeEach(async () => {
  signInAsStudent();
  await i18n.changeLanguage('en-US');
});

const puts = (requests: { method: string; url: string; body: unknown }[]) =>
  requests.filter((r) => r.method === 'PUT' && r.url === '/api/NotificationSettings/').map((r) => r.body);

describe('the notification settings', () => {
  it('chooses per kind, the digest’s hour and muted courses, and saves them', async () => {
    const { handler } = notificationServer([]);
    const { requests } = stubFetch(handler);
    renderApp('/notifications/settings');
    const replies = await screen.findByRole('radiogroup', { name: 'Replies to my posts' }, SLOW);
    expect(within(replies).getByRole('radio', { name: 'Daily digest' })).toHaveProperty('checked', true);
    expect(screen.getAllByRole('radiogroup')).toHaveLength(8);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(await axeViolations(document.body)).toEqual([]);

    fireEvent.click(within(replies).getByRole('radio', { name: 'Immediately' }));
    fireEvent.click(
      within(screen.getByRole('radiogroup', { name: 'Announcements' })).getByRole('radio', { name: 'Off' }),
    );
    fireEvent.click(screen.getByRole('combobox', { name: 'Send the digest at' }));
    fireEvent.click(await screen.findByRole('option', { name: '18:00', hidden: true }));
    const muted = screen.getByRole('combobox', { name: 'Muted courses' });
    fireEvent.click(muted);
    fireEvent.click(await screen.findByRole('option', { name: 'Algorithms', hidden: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts(requests)).toHaveLength(1));
    // The zone was not changed: it is not sent, so one who follows the server's default keeps it.
    expect(puts(requests)[0]).toEqual({
      email: { ...SETTINGS.email, forum_reply: 'immediately', announcement: 'off' },
      digest_hour: 18,
      muted_course_ids: [2],
    });
    expect(await screen.findByText('Notification settings saved.')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true),
    );
  });

  it('sends the time zone once it is changed', async () => {
    const { requests } = stubFetch(notificationServer([]).handler);
    renderApp('/notifications/settings');
    const zone = await screen.findByRole('combobox', { name: 'Your time zone' }, SLOW);
    expect(zone).toHaveProperty('value', 'Asia/Tokyo');
    fireEvent.click(zone);
    fireEvent.change(zone, { target: { value: 'berlin' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Europe/Berlin', hidden: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts(requests)).toHaveLength(1));
    expect(puts(requests)[0]).toMatchObject({ time_zone: 'Europe/Berlin' });
  });

  it('says when the address refused mail, and when the server sends none', async () => {
    const settings = { ...SETTINGS, email_refused_at: '2026-04-01T09:00:00.000Z', email_delivered: false };
    stubFetch(notificationServer([], { settings }).handler);
    renderApp('/notifications/settings');
    expect(await screen.findByText('Your address refused our e-mail', undefined, SLOW)).toBeTruthy();
    expect(screen.getByText(/^Since Wed, Apr 1, 2026, .* no e-mail has been sent to you/)).toBeTruthy();
    expect(screen.getByText('This server sends no e-mail')).toBeTruthy();
  });

  it('says when a save fails, and keeps the choice', async () => {
    const failing = notificationServer([], {
      extra: [
        (request, url) =>
          request.method === 'PUT' && url.pathname === '/api/NotificationSettings/'
            ? json(500, { detail: 'Server error.', code: 'error' })
            : undefined,
      ],
    });
    stubFetch(failing.handler);
    renderApp('/notifications/settings');
    const kind = await screen.findByRole('radiogroup', { name: 'Extensions' }, SLOW);
    fireEvent.click(within(kind).getByRole('radio', { name: 'Off' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Could not save the notification settings.')).toBeTruthy();
    expect(within(kind).getByRole('radio', { name: 'Off' })).toHaveProperty('checked', true);
  });

  it('reads in Japanese', async () => {
    useSession.setState({ displayLang: 'ja' });
    await i18n.changeLanguage('ja');
    stubFetch(notificationServer([]).handler);
    renderApp('/notifications/settings');
    expect(await screen.findByRole('heading', { level: 1, name: '通知の設定' }, SLOW)).toBeTruthy();
    expect(await screen.findByRole('radiogroup', { name: 'お知らせ' }, SLOW)).toBeTruthy();
    expect(screen.getAllByRole('radio', { name: '1日1回まとめて' })).toHaveLength(8);
  });
});
