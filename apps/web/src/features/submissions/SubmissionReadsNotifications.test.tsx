import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { COURSE, submission } from './submission-fixtures.ts';

/*
 * A student looking at a graded submission has read what its "graded" notification says: the page
 * marks the notifications about it read (POST read-all with its link), once, and the bell follows.
 */

function server(states: string[]) {
  let unread = 1;
  let asked = 0;
  return (request: RecordedRequest) => {
    const path = new URL(request.url, 'http://test').pathname;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (path === '/api/Course/1/') return json(200, COURSE);
    if (path === '/api/Submission/42/') {
      const status = states[Math.min(asked, states.length - 1)]!;
      asked += 1;
      const done = status === 'Completed';
      return json(200, {
        ...submission(status, done ? { score: 15, graded_at: new Date().toISOString() } : {}),
        evaluations: [],
        can_manage: false,
      });
    }
    if (path === '/api/Notification/unread/') return json(200, { unread });
    if (path === '/api/Notification/read-all/' && request.method === 'POST') {
      unread = 0;
      return json(200, { marked: 1, unread });
    }
    return json(404, { detail: 'Not found.', code: 'not_found' });
  };
}

const readAlls = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.url === '/api/Notification/read-all/').map((r) => r.body);

beforeEach(async () => {
  signInAsStudent();
  await i18n.changeLanguage('en-US');
});

describe('a graded submission', { timeout: 40_000 }, () => {
  it('marks its notifications read once its result shows, and the bell counts down', async () => {
    const { requests } = stubFetch(server(['Executing', 'Completed']));
    renderApp('/course/1/submission/42');
    expect(
      await screen.findByRole('button', { name: 'Notifications, 1 unread' }, { timeout: 10_000 }),
    ).toBeTruthy();
    // Still running: nothing is marked yet.
    expect(await screen.findByText('Executing', undefined, { timeout: 10_000 })).toBeTruthy();
    expect(readAlls(requests)).toEqual([]);
    expect(await screen.findByText('Completed', undefined, { timeout: 10_000 })).toBeTruthy();
    await waitFor(() => expect(readAlls(requests)).toEqual([{ link: '/course/1/submission/42' }]));
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeTruthy();
    // Later answers (a refresh of the page's data) do not mark it again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(readAlls(requests)).toHaveLength(1);
  });
});
