import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { Course } from '@kadai/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { json, stubFetch } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { useSession } from '../auth/session.ts';

// Pages load their code on demand: the first render of each takes a while in jsdom.
vi.setConfig({ testTimeout: 20_000 });
const SLOW = { timeout: 8000 };

const COURSE: Course = {
  id: 1,
  title: 'Python',
  description: '',
  has_videos: false,
  has_assessment: false,
  time_zone: 'Asia/Tokyo',
  created_at: '2026-04-01T09:00:00.000Z',
  updated_at: '2026-04-01T09:00:00.000Z',
  my_role: 'staff',
  editor_count: 1,
  student_count: 1,
};

function server({ notificationsFail = false } = {}) {
  let course = COURSE;
  let notifyEditors = false;
  return stubFetch((request) => {
    const path = new URL(request.url, 'http://test').pathname;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (path === '/api/Course/1/notification-settings/') {
      if (request.method === 'PUT') {
        if (notificationsFail) return json(500, { detail: 'Server error.', code: 'error' });
        notifyEditors = (request.body as { notify_editors_of_new_members: boolean })
          .notify_editors_of_new_members;
      }
      return json(200, { notify_editors_of_new_members: notifyEditors });
    }
    if (path === '/api/Course/1/' && request.method === 'PATCH') {
      const changes = typeof request.body === 'object' ? request.body : {};
      course = { ...course, ...changes, updated_at: '2026-04-02T09:00:00.000Z' };
      return json(200, course);
    }
    if (path === '/api/Course/1/') return json(200, course);
    return json(404, { detail: 'Not found.', code: 'not_found' });
  });
}

const patches = (requests: { method: string; body: unknown }[]) =>
  requests.filter((request) => request.method === 'PATCH').map((request) => request.body);

beforeEach(async () => {
  signInAsStudent();
  useSession.setState({ userId: 1, roles: ['no_role'], is_staff: true });
  await i18n.changeLanguage('en-US');
});

describe('the course’s time zone in Settings', () => {
  it('shows the zone and saves another one picked from the searchable list', async () => {
    const { requests } = server();
    renderApp('/course/1/settings');
    const select = await screen.findByRole('combobox', { name: 'Time zone' }, SLOW);
    expect(select).toHaveProperty('value', 'Asia/Tokyo');
    fireEvent.click(select);
    fireEvent.change(select, { target: { value: 'new_york' } });
    // jsdom lays nothing out, so the dropdown's options are there but `hidden`.
    fireEvent.click(await screen.findByRole('option', { name: 'America/New_York', hidden: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patches(requests)).toHaveLength(1));
    expect(patches(requests)[0]).toMatchObject({ title: 'Python', time_zone: 'America/New_York' });
    expect(await screen.findByText('Course settings saved.')).toBeTruthy();
  });

  it('leaves the zone out of a save that did not change it', async () => {
    const { requests } = server();
    renderApp('/course/1/settings');
    const title = await screen.findByRole('textbox', { name: 'Title' }, SLOW);
    fireEvent.change(title, { target: { value: 'Python I' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patches(requests)).toHaveLength(1));
    expect(patches(requests)[0]).toEqual({
      title: 'Python I',
      description: '',
      has_videos: false,
      has_assessment: false,
    });
  });

  it('is labelled in Japanese too', async () => {
    await i18n.changeLanguage('ja');
    server();
    renderApp('/course/1/settings');
    expect(await screen.findByRole('combobox', { name: 'タイムゾーン' }, SLOW)).toBeTruthy();
  });
});

describe('whether the course’s editors hear of new members', () => {
  it('is off by default, and saves as it is flipped', async () => {
    const { requests } = server();
    renderApp('/course/1/settings');
    const toggle = await screen.findByRole('switch', { name: 'Notify editors when a member joins' }, SLOW);
    expect(toggle).toHaveProperty('checked', false);
    fireEvent.click(toggle);
    expect(await screen.findByText("The course's notification setting is saved.")).toBeTruthy();
    expect(requests.filter((r) => r.method === 'PUT').map((r) => ({ url: r.url, body: r.body }))).toEqual([
      { url: '/api/Course/1/notification-settings/', body: { notify_editors_of_new_members: true } },
    ]);
    expect(toggle).toHaveProperty('checked', true);
  });

  it('goes back when the save fails, and says so', async () => {
    server({ notificationsFail: true });
    renderApp('/course/1/settings');
    const toggle = await screen.findByRole('switch', { name: 'Notify editors when a member joins' }, SLOW);
    fireEvent.click(toggle);
    expect(await screen.findByText("Could not save the course's notification setting.")).toBeTruthy();
    await waitFor(() => expect(toggle).toHaveProperty('checked', false));
  });
});
