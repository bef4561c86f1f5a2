import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CourseRole } from '@kadai/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { courseAs } from '../../test/course.ts';
import { json } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { useSession } from '../auth/session.ts';
import { axeViolations, courseLink, server, type Handler } from './lti-fixtures.ts';

vi.setConfig({ testTimeout: 20_000 });
const SLOW = { timeout: 8000 };

function courseServer(role: CourseRole, handler: Handler = () => undefined) {
  return server((request, path) => {
    const answer = handler(request, path);
    if (answer) return answer;
    if (path === '/api/Course/1/') return json(200, courseAs(role));
    if (path === '/api/StudentList/1/')
      return json(200, { count: 0, results: [], pending_count: 0, pending: [] });
    if (path === '/api/EditorList/1/') return json(200, { count: 0, results: [] });
    if (path === '/api/Lti/Course/1/' && request.method === 'GET')
      return json(200, { results: [courseLink()] });
    return undefined;
  });
}

beforeEach(async () => {
  signInAsStudent();
  useSession.setState({ userId: 2, roles: ['instructor'], editorCourses: [1] });
  await i18n.changeLanguage('en-US');
});

describe('the LMS panel of a course’s members page', () => {
  it('syncs the roster and shows what changed', async () => {
    const { requests } = courseServer('editor', (request, path) =>
      path === '/api/Lti/Course/1/roster-sync/'
        ? json(200, { added: 3, removed: 1, unchanged: 20, waiting: 2 })
        : undefined,
    );
    renderApp('/course/1/members');
    const panel = await screen.findByRole('region', { name: 'LMS (LTI)' }, SLOW);
    // The cards load with the first course that has an LMS course.
    expect(await within(panel).findByRole('heading', { name: 'Python I (CS101)' })).toBeTruthy();
    expect(within(panel).getByText('Moodle of Example University')).toBeTruthy();
    expect(within(panel).getByText(/^Last synced /)).toBeTruthy();
    expect(await axeViolations(panel)).toEqual([]);
    fireEvent.click(within(panel).getByRole('button', { name: 'Sync roster from the LMS' }));
    const result = await within(panel).findByRole('status');
    expect(within(result).getByText('Roster synced')).toBeTruthy();
    const counts = { Added: '3', Removed: '1', Unchanged: '20', Waiting: '2' };
    for (const [label, value] of Object.entries(counts)) {
      expect(within(result).getByText(label).nextElementSibling?.textContent).toBe(value);
    }
    expect(requests.find((r) => r.url === '/api/Lti/Course/1/roster-sync/')?.body).toEqual({ context_id: 7 });
    expect(await axeViolations(panel)).toEqual([]);
    // The students above change with the roster: their list is loaded again.
    await waitFor(() =>
      expect(requests.filter((r) => r.url.startsWith('/api/StudentList/1/')).length).toBe(2),
    );
  });

  it('says so when the LMS cannot be reached', async () => {
    courseServer('editor', (request, path) =>
      path === '/api/Lti/Course/1/roster-sync/'
        ? json(502, { detail: 'Moodle answered 500.', code: 'platform_unreachable' })
        : undefined,
    );
    renderApp('/course/1/members');
    const panel = await screen.findByRole('region', { name: 'LMS (LTI)' }, SLOW);
    fireEvent.click(await within(panel).findByRole('button', { name: 'Sync roster from the LMS' }));
    const alert = await within(panel).findByRole('alert');
    expect(within(alert).getByText(/The LMS could not be reached or refused the request/)).toBeTruthy();
  });

  it('lists the grades sent to the LMS and sends a column again', async () => {
    const { requests } = courseServer('editor', (request, path) =>
      path === '/api/Lti/LineItem/31/resend/' ? json(200, { queued: true }) : undefined,
    );
    renderApp('/course/1/members');
    const table = await screen.findByRole('table', { name: 'Grades sent to Python I' }, SLOW);
    const row = within(table).getByRole('row', { name: /Lists/ });
    expect(within(row).getByText('Assignment')).toBeTruthy();
    expect(within(row).getByText('20')).toBeTruthy();
    expect(within(row).getByText('HTTP 503 from the LMS')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Send the scores of Lists again' }));
    expect(await screen.findByText('The scores of Lists will be sent again.')).toBeTruthy();
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual([
      '/api/Lti/LineItem/31/resend/',
    ]);
  });

  it('shows the last sync’s error and no sync button for an LMS without a roster service', async () => {
    courseServer('editor', (request, path) =>
      path === '/api/Lti/Course/1/'
        ? json(200, {
            results: [
              courseLink({ can_sync_roster: false, roster_synced_at: null, roster_error: 'Token refused.' }),
            ],
          })
        : undefined,
    );
    renderApp('/course/1/members');
    const panel = await screen.findByRole('region', { name: 'LMS (LTI)' }, SLOW);
    expect(await within(panel).findByText('This LMS does not share its roster with Kadai.')).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Sync roster from the LMS' })).toBeNull();
    expect(within(panel).getByText('Token refused.')).toBeTruthy();
  });

  it('is not there for a course without LMS courses', async () => {
    const { requests } = courseServer('editor', (request, path) =>
      path === '/api/Lti/Course/1/' ? json(200, { results: [] }) : undefined,
    );
    renderApp('/course/1/members');
    expect(await screen.findByRole('heading', { name: 'Members' }, SLOW)).toBeTruthy();
    await waitFor(() => expect(requests.some((r) => r.url === '/api/Lti/Course/1/')).toBe(true));
    // Past the answer's arrival: the students' tab has drawn, and still no LMS section.
    expect(await screen.findByRole('tab', { name: 'Students' })).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('heading', { name: 'LMS (LTI)' })).toBeNull();
  });

  it('is never shown to students, who do not see the members page', async () => {
    useSession.setState({ userId: 4, roles: ['student'], editorCourses: [] });
    const { requests } = courseServer('student');
    renderApp('/course/1/members');
    expect(await screen.findByText('Sorry, but the requested page does not exist.', {}, SLOW)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'LMS (LTI)' })).toBeNull();
    expect(requests.some((r) => r.url.startsWith('/api/Lti/'))).toBe(false);
  });
});
