import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Course, CourseRole, Member, MemberAddResult, PendingMember } from '@kadai/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { useSession } from '../auth/session.ts';
import { courseAs } from '../../test/course.ts';

// Pages load their code on demand: the first render of each takes a while in jsdom.
vi.setConfig({ testTimeout: 20_000 });
const SLOW = { timeout: 8000 };

const AT = '2026-04-01T09:00:00.000Z';

const course = (role: CourseRole): Course => courseAs(role, { student_count: 1 });

const member = (id: number, first: string, last: string): Member => ({
  id,
  email: `${first.toLowerCase()}@example.jp`,
  first_name: first,
  last_name: last,
  added_at: AT,
});
const EDITORS = [member(2, 'Emily', 'Carter')];
const STUDENTS = [member(4, 'Taro', 'Yamada')];

function server(role: CourseRole, pending: PendingMember[] = []) {
  return stubFetch((request) => {
    const path = new URL(request.url, 'http://test').pathname;
    if (path === '/api/StudentList/1/' && request.method === 'POST') return json(200, ADD_RESULT);
    if (path === '/api/StudentList/1/' && request.method === 'DELETE')
      return json(200, { removed: 0, removed_pending: 1 });
    if (path === '/api/StudentList/1/')
      return json(200, {
        count: STUDENTS.length,
        results: STUDENTS,
        pending_count: pending.length,
        pending,
      });
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (path === '/api/Course/1/') return json(200, course(role));
    if (path === '/api/EditorList/1/') return json(200, { count: EDITORS.length, results: EDITORS });
    if (path === '/api/StudentList/1/') return json(200, { count: STUDENTS.length, results: STUDENTS });
    return json(404, { detail: 'Not found.', code: 'not_found' });
  });
}

function signInAs(role: CourseRole) {
  signInAsStudent();
  if (role === 'editor') useSession.setState({ userId: 2, roles: ['instructor'], editorCourses: [1] });
  if (role === 'staff') useSession.setState({ userId: 1, roles: ['no_role'], is_staff: true });
}

const ADD_RESULT: MemberAddResult = {
  added: [{ id: 5, email: 'hanako@example.jp', first_name: 'Hanako', last_name: 'Sato' }],
  already: [],
  created: [],
  invalid: [],
  unknown_ids: [],
  unknown_emails: [],
  pending: ['s2600002'],
  ambiguous: ['s2600003'],
};

const rail = () => screen.getByRole('navigation', { name: 'Course' });

beforeEach(() => signInAsStudent());

describe('the Members page', () => {
  it('is not there for a student: no rail entry, and NotFound at the URL', async () => {
    signInAs('student');
    const { requests } = server('student');
    renderApp('/course/1/members');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' }, SLOW)).toBeTruthy();
    await waitFor(() => expect(within(rail()).getByRole('link', { name: 'Assignment' })).toBeTruthy());
    expect(within(rail()).queryByRole('link', { name: 'Members' })).toBeNull();
    expect(within(rail()).queryByRole('link', { name: 'Settings' })).toBeNull();
    expect(requests.some((request) => request.url.includes('List/1/'))).toBe(false);
  });

  it('lets an editor add and remove students and read the editors, from the rail', async () => {
    signInAs('editor');
    server('editor');
    const { router } = renderApp('/course/1/assignment');
    const entry = await waitFor(() => within(rail()).getByRole('link', { name: 'Members' }), SLOW);
    expect(within(rail()).queryByRole('link', { name: 'Settings' })).toBeNull();
    fireEvent.click(entry);

    expect(await screen.findByRole('heading', { level: 1, name: 'Members' }, SLOW)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/course/1/members');
    expect(within(rail()).getByRole('link', { name: 'Members' }).getAttribute('aria-current')).toBe('page');
    const students = await screen.findByRole('table', { name: 'Students' });
    expect(within(students).getByText('taro@example.jp')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove Taro Yamada' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add students' })).toBeTruthy();

    fireEvent.click(screen.getByRole('tab', { name: 'Editors' }));
    const editors = await screen.findByRole('table', { name: 'Editors' });
    expect(router.state.location.search).toBe('?tab=editors');
    expect(within(editors).getByText('emily@example.jp')).toBeTruthy();
    expect(screen.getByText('Only staff add and remove the editors of a course.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remove Emily Carter' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add editors' })).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('lets staff change the editors too, and sends old Settings tabs here', async () => {
    signInAs('staff');
    server('staff');
    const { router } = renderApp('/course/1/settings?tab=editors');
    await waitFor(() => expect(router.state.location.pathname).toBe('/course/1/members'), SLOW);
    expect(router.state.location.search).toBe('?tab=editors');
    await screen.findByRole('table', { name: 'Editors' }, SLOW);
    expect(screen.getByRole('button', { name: 'Remove Emily Carter' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add editors' })).toBeTruthy();
    expect(within(rail()).getByRole('link', { name: 'Members' })).toBeTruthy();
    expect(within(rail()).getByRole('link', { name: 'Settings' })).toBeTruthy();
  });

  it('lets an editor add students by institutional id and remove one still waiting to sign in', async () => {
    signInAs('editor');
    const { requests } = server('editor', [{ id: 9, institutional_id: 's2600001', added_at: AT }]);
    renderApp('/course/1/members');
    const waiting = await screen.findByRole('table', { name: 'Waiting for first sign-in' }, SLOW);
    expect(within(waiting).getByText('s2600001')).toBeTruthy();
    expect(
      screen.getByText(
        '1 institutional id. These people join when they first sign in with the university account.',
      ),
    ).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Remove s2600001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove a waiting institutional id' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'DELETE')).toBe(true));
    expect(requests.find((r) => r.method === 'DELETE')!.body).toEqual({ pending_ids: [9] });

    const field = screen.getByRole('textbox', { name: 'Institutional ids' });
    expect(field.getAttribute('aria-describedby')).toBeTruthy();
    expect(
      screen.getByText(
        'Student numbers or eppn, one per line; people who have not signed in yet join when they first sign in with the university account.',
      ),
    ).toBeTruthy();
    fireEvent.change(field, { target: { value: 's2600002\n S2600003, hanako@uni.ac.jp\n\n' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add students' }));
    const status = await screen.findByRole('status');
    expect(requests.find((r) => r.method === 'POST')!.body).toEqual({
      institutional_ids: ['s2600002', 'S2600003', 'hanako@uni.ac.jp'],
    });
    expect(within(status).getByText('1 waiting for first sign-in')).toBeTruthy();
    expect(within(status).getByText(/s2600002/)).toBeTruthy();
    expect(
      within(status).getByText('Institutional ids used by several accounts (ask staff): s2600003'),
    ).toBeTruthy();
    expect(within(status).getByText('1 not added')).toBeTruthy();
    expect((field as HTMLTextAreaElement).value).toBe('');
  });
});
