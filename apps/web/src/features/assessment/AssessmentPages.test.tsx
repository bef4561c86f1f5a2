import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../auth/session.ts';
import { json, stubFetch } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { assessmentServer } from './assessment-fixtures.ts';

// Pages load their code on demand: the first render of each takes a while in jsdom.
vi.setConfig({ testTimeout: 20_000 });
const SLOW = { timeout: 8000 };

beforeEach(() => {
  signInAsStudent();
});

function asEditor() {
  useSession.setState({ userId: 2, roles: ['instructor'], editorCourses: [1] });
}

describe('the Assessment guard', () => {
  it('sends a student from Assessment to their own AssessmentDetail', async () => {
    const { requests } = stubFetch(assessmentServer('student'));
    const { router } = renderApp('/course/1/assessment');
    await waitFor(() => expect(router.state.location.pathname).toBe('/course/1/assessment/4'), SLOW);
    expect(await screen.findByRole('heading', { level: 1, name: 'Assessment details' }, SLOW)).toBeTruthy();
    // On the page, and in the breadcrumbs once the crumb's title has resolved.
    expect((await screen.findAllByText('Taro Yamada')).length).toBeGreaterThan(0);
    // The table is never asked for.
    expect(
      requests.some((request) => new URL(request.url, 'http://test').pathname === '/api/assessment/1'),
    ).toBe(false);
  });

  it('shows an editor the table', async () => {
    asEditor();
    stubFetch(assessmentServer('editor'));
    const { router } = renderApp('/course/1/assessment');
    expect(await screen.findByRole('table', { name: '3 of 3 students' }, SLOW)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/course/1/assessment');
    expect(screen.getByRole('link', { name: 'Taro Yamada' }).getAttribute('href')).toBe(
      '/course/1/assessment/4',
    );
  });

  it('blocks both pages when the course has no analysis', async () => {
    const { requests } = stubFetch(assessmentServer('student', { exists: false }));
    const { router } = renderApp('/course/1/assessment');
    expect(await screen.findByText('No assessment analysis yet', {}, SLOW)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/course/1/assessment');
    router.navigate('/course/1/assessment/4').catch(() => undefined);
    expect(await screen.findByRole('heading', { level: 1, name: 'Assessment details' })).toBeTruthy();
    expect(screen.getByText('No assessment analysis yet')).toBeTruthy();
    expect(screen.queryByText(/^Total:/)).toBeNull();
    // Neither the page nor its breadcrumb asks for the student's analysis.
    expect(requests.some((request) => request.url.startsWith('/api/assessment/1/4'))).toBe(false);
  });

  it('gives an editor the skills panel while the analysis waits for its first tagged skill', async () => {
    asEditor();
    stubFetch(assessmentServer('editor', { exists: false }));
    renderApp('/course/1/assessment');
    expect(await screen.findByText('No assessment analysis yet', {}, SLOW)).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'New skill' })).toBeTruthy();
    expect(screen.queryByRole('table', { name: /students/ })).toBeNull();
  });

  it('lets nothing through when the existence check fails', async () => {
    asEditor();
    stubFetch(
      assessmentServer('editor', {}, (_request, url) =>
        url.pathname === '/api/assessment/Existence/Course/1'
          ? json(500, { detail: 'Boom', code: 'server_error' })
          : undefined,
      ),
    );
    renderApp('/course/1/assessment');
    expect(await screen.findByRole('alert', {}, SLOW)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});

describe('the Assessment table', () => {
  it('sorts by a column header and searches students', async () => {
    asEditor();
    stubFetch(assessmentServer('editor'));
    renderApp('/course/1/assessment');
    const table = await screen.findByRole('table', { name: '3 of 3 students' }, SLOW);
    const rowNames = () =>
      within(table)
        .getAllByRole('rowheader')
        .map((cell) => within(cell).getByRole('link').textContent);
    expect(rowNames()).toEqual(['Alice Brown', 'Hanako Sato', 'Taro Yamada']);
    const nameHeader = within(table).getByRole('columnheader', { name: /Student/ });
    expect(nameHeader.getAttribute('aria-sort')).toBe('ascending');

    fireEvent.click(within(table).getByRole('button', { name: /^Total/ }));
    expect(rowNames()).toEqual(['Hanako Sato', 'Taro Yamada', 'Alice Brown']);
    expect(
      within(table)
        .getByRole('columnheader', { name: /^Total/ })
        .getAttribute('aria-sort'),
    ).toBe('descending');
    expect(nameHeader.getAttribute('aria-sort')).toBeNull();
    fireEvent.click(within(table).getByRole('button', { name: /^Total/ }));
    expect(rowNames()).toEqual(['Alice Brown', 'Taro Yamada', 'Hanako Sato']);

    fireEvent.change(screen.getByRole('textbox', { name: 'Search students' }), {
      target: { value: 'yamada' },
    });
    expect(await screen.findByRole('table', { name: '1 of 3 students' })).toBeTruthy();
  });
});

describe('AssessmentDetail', () => {
  it('shows the student their charts, histogram and empty feedback and workshops, read only', async () => {
    stubFetch(assessmentServer('student'));
    renderApp('/course/1/assessment/4');
    expect(await screen.findByRole('img', { name: 'Practice: Skills: Loops 80%' }, SLOW)).toBeTruthy();
    expect(
      await screen.findByRole('img', { name: /Class distribution of Loops.*Your result: 70–80 %/ }),
    ).toBeTruthy();
    expect(screen.getByText('Total: 72% (18 of 25 points)')).toBeTruthy();
    expect(await screen.findByText('No feedback yet.')).toBeTruthy();
    expect(await screen.findByText('You have no workshop invitations.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send feedback' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New workshop' })).toBeNull();
  });
});

describe('AssessmentDetail for an editor', () => {
  it('writes feedback and marks attendance', async () => {
    asEditor();
    const workshop = {
      id: 7,
      course: 1,
      skill: 'Loops',
      skill_id: 1,
      title: 'Loop clinic',
      description: '',
      location: 'Room 101',
      starts_at: '2026-05-08T01:00:00.000Z',
      ends_at: '2026-05-08T02:30:00.000Z',
      participants: [
        {
          user: { id: 4, email: 'taro@example.com', first_name: 'Taro', last_name: 'Yamada' },
          status: 'invited',
        },
        {
          user: { id: 5, email: 'hanako@example.com', first_name: 'Hanako', last_name: 'Sato' },
          status: 'attended',
        },
      ],
    };
    const { requests } = stubFetch(
      assessmentServer('editor', {}, (request, url) => {
        if (url.pathname === '/api/assessment/Feedback/' && request.method === 'POST')
          return json(201, {
            id: 1,
            course: 1,
            user: 4,
            skill: null,
            author: null,
            body: 'Nice loops!',
            created_at: '2026-05-01T00:00:00.000Z',
            updated_at: '2026-05-01T00:00:00.000Z',
          });
        if (url.pathname === '/api/assessment/Workshop/' && request.method === 'GET')
          return json(200, { count: 1, limit: 100, offset: 0, results: [workshop] });
        if (url.pathname === '/api/assessment/Workshop/7/') return json(200, workshop);
        return undefined;
      }),
    );
    renderApp('/course/1/assessment/4');
    const box = await screen.findByRole('textbox', { name: 'Write feedback to this student' }, SLOW);
    fireEvent.change(box, { target: { value: 'Nice loops!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send feedback' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
        course: 1,
        user: 4,
        skill: null,
        body: 'Nice loops!',
      }),
    );

    const card = await screen.findByRole('article', { name: 'Loop clinic' });
    // Only this student's row; the PATCH still sends everyone, with their statuses kept.
    expect(within(card).queryByText('Hanako Sato')).toBeNull();
    fireEvent.click(within(card).getByText('Attended'));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({
        participants: [
          { user: 4, status: 'attended' },
          { user: 5, status: 'attended' },
        ],
      }),
    );
  });
});
