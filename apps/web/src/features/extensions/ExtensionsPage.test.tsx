import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CourseRole } from '@kadai/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../i18n/format.ts';
import { json, stubFetch } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { PHONE_QUERY } from '../../ui/useIsPhone.ts';
import { fromLocalInput } from '../assignments/dates.ts';
import { useSession } from '../auth/session.ts';
import { AT, DUE, EXTENSION, extensionServer, type Route } from './extension-fixtures.ts';
import { stubScreenMatching } from '../../test/media.ts';

// Pages load their code on demand: the first render of each takes a while in jsdom.
vi.setConfig({ testTimeout: 20_000 });
const SLOW = { timeout: 8000 };

function signInAs(role: CourseRole) {
  signInAsStudent();
  if (role === 'editor') useSession.setState({ userId: 2, roles: ['instructor'], editorCourses: [1] });
}

const rail = () => screen.getByRole('navigation', { name: 'Course' });
const date = (iso: string) => formatDateTime(iso, 'en-US');

beforeEach(() => signInAsStudent());

// The reader sits in the course's zone (Asia/Tokyo), unless a test moves them.
const previousZone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterAll(() => {
  process.env.TZ = previousZone;
});

describe('the Extensions page', () => {
  it('is not there for a student: no rail entry, and NotFound at the URL', async () => {
    signInAs('student');
    const { requests } = stubFetch(extensionServer('student'));
    renderApp('/course/1/extensions');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' }, SLOW)).toBeTruthy();
    await waitFor(() => expect(within(rail()).getByRole('link', { name: 'Assignment' })).toBeTruthy());
    expect(within(rail()).queryByRole('link', { name: 'Extensions' })).toBeNull();
    expect(requests.some((request) => request.url.includes('extensions'))).toBe(false);
  });

  it('lists an editor the extensions, the student’s dates against the course’s, and revokes one', async () => {
    signInAs('editor');
    const { requests } = stubFetch(extensionServer('editor'));
    renderApp('/course/1/gradebook');
    fireEvent.click(await waitFor(() => within(rail()).getByRole('link', { name: 'Extensions' }), SLOW));
    expect(await screen.findByRole('heading', { level: 1, name: 'Extensions' }, SLOW)).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Extensions' });
    const [, row] = within(table).getAllByRole('row');
    expect(within(row!).getByText('Taro Yamada')).toBeTruthy();
    expect(within(row!).getByText('Loops')).toBeTruthy();
    expect(within(row!).getByText(`Due ${date(EXTENSION.due_at!)}`)).toBeTruthy();
    expect(within(row!).getByText(`Due ${date(DUE)}`)).toBeTruthy();
    expect(within(row!).getByText('Hospital stay')).toBeTruthy();
    expect(within(row!).getByText('by Emily Carter')).toBeTruthy();

    fireEvent.click(
      within(row!).getByRole('button', { name: 'Revoke the extension of Taro Yamada for Loops' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Revoke extension' });
    expect(within(dialog).getByText(/Taro Yamada goes back to the course's dates for Loops/)).toBeTruthy();
    // A revocation asks for a reason of its own, as a grant does: none given, nothing is sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await within(dialog).findByText('Give a reason.')).toBeTruthy();
    expect(requests.some((request) => request.method === 'DELETE')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText(/Reason/), { target: { value: 'Granted by mistake' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Extension revoked.')).toBeTruthy();
    const revoke = requests.find((request) => request.method === 'DELETE');
    expect(revoke?.url).toBe('/api/Course/1/extensions/assignment/1/4/');
    expect(revoke?.body).toEqual({ reason: 'Granted by mistake' });
  });

  it('names the reader’s zone beside every date when the course’s differs', async () => {
    process.env.TZ = 'Europe/Paris';
    try {
      signInAs('editor');
      stubFetch(extensionServer('editor'));
      renderApp('/course/1/extensions');
      const table = await screen.findByRole('table', { name: 'Extensions' }, SLOW);
      const [, row] = within(table).getAllByRole('row');
      const zoned = (iso: string) => formatDateTime(iso, 'en-US', { zone: true });
      expect(zoned(DUE)).toMatch(/GMT\+[12]$/);
      // Their dates and the course's, as the assignment page writes them.
      expect(within(row!).getByText(`Due ${zoned(EXTENSION.due_at!)}`)).toBeTruthy();
      expect(within(row!).getByText(`Due ${zoned(DUE)}`)).toBeTruthy();
    } finally {
      process.env.TZ = 'Asia/Tokyo';
    }
  });

  it('changes an extension: the dialog opens on its dates and posts the grant', async () => {
    signInAs('editor');
    const { requests } = stubFetch(extensionServer('editor'));
    renderApp('/course/1/extensions');
    fireEvent.click(
      await screen.findByRole('button', { name: 'Change the extension of Taro Yamada for Loops' }, SLOW),
    );
    // A change is saved, not granted: the dialog says so.
    const dialog = await screen.findByRole('dialog', { name: 'Change the extension' });
    expect(within(dialog).queryByRole('button', { name: 'Grant' })).toBeNull();
    const due = await within(dialog).findByLabelText<HTMLInputElement>(/New due date/);
    expect(fromLocalInput(due.value)).toBe(EXTENSION.due_at);
    // The reason is required, and a due date before the assignment opens is refused: nothing is sent.
    const original = due.value;
    fireEvent.change(due, { target: { value: '2026-03-01T10:00' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Give a reason.')).toBeTruthy();
    expect(within(dialog).getByText(`Must be after the assignment opens (${date(AT)}).`)).toBeTruthy();
    expect(requests.some((request) => request.method === 'POST')).toBe(false);
    fireEvent.change(due, { target: { value: original } });

    fireEvent.change(within(dialog).getByLabelText(/Late submissions until/), {
      target: { value: '2026-04-12T23:59' },
    });
    fireEvent.change(within(dialog).getByLabelText(/Reason/), { target: { value: 'Still in hospital' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Extension changed.')).toBeTruthy();
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      kind: 'assignment',
      item_id: 1,
      user_ids: [4],
      due_at: EXTENSION.due_at,
      late_until: fromLocalInput('2026-04-12T23:59'),
      reason: 'Still in hospital',
    });
  });

  it('shows the server’s refusals under the fields', async () => {
    signInAs('editor');
    const refuse: Route = (request, url) =>
      url.pathname === '/api/Course/1/extensions/' && request.method === 'POST'
        ? json(400, {
            detail: 'Invalid input.',
            code: 'not_students',
            user_ids: ['4 is not a student of this course.'],
            due_at: ['Must be after the course’s due date.'],
          })
        : undefined;
    stubFetch(extensionServer('editor', refuse));
    renderApp('/course/1/extensions');
    fireEvent.click(
      await screen.findByRole('button', { name: 'Change the extension of Taro Yamada for Loops' }, SLOW),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Change the extension' });
    fireEvent.change(await within(dialog).findByLabelText(/Reason/), { target: { value: 'Illness' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Must be after the course’s due date.')).toBeTruthy();
    const due = within(dialog).getByLabelText(/New due date/);
    expect(due.getAttribute('aria-invalid')).toBe('true');
    // `not_students` in the reader's language, under the students.
    const students = within(dialog).getByText('Some of them are not students of this course.');
    expect(students).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Change the extension' })).toBeTruthy();
  });

  it('grants a quiz from the button: extra minutes for a timed quiz', async () => {
    signInAs('editor');
    const { requests } = stubFetch(extensionServer('editor'));
    renderApp('/course/1/extensions');
    fireEvent.click(await screen.findByRole('button', { name: 'Grant extension' }, SLOW));
    const dialog = await screen.findByRole('dialog', { name: 'Grant an extension' });
    fireEvent.click(await within(dialog).findByRole('radio', { name: 'Quiz' }));
    // jsdom lays nothing out, so the dropdown's positioning hides it as if its input were scrolled away:
    // its options are there, only `hidden`.
    fireEvent.click(within(dialog).getByRole('combobox', { name: 'Quiz' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Week 1 check', hidden: true }));
    expect(await within(dialog).findByText(/time limit 30 minutes/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('combobox', { name: 'Students' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Ann Abe <ann@example.jp>', hidden: true }));
    // Neither a closing time nor minutes: refused before sending.
    fireEvent.change(within(dialog).getByLabelText(/Reason/), { target: { value: 'Accommodation' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Grant' }));
    expect(
      await within(dialog).findByText('Give a later closing time, extra minutes, or both.'),
    ).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/Extra minutes/), { target: { value: '15' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Grant' }));
    await waitFor(() => expect(requests.some((request) => request.method === 'POST')).toBe(true));
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      kind: 'quiz',
      item_id: 3,
      user_ids: [5],
      closes_at: null,
      extra_minutes: 15,
      reason: 'Accommodation',
    });
  });

  it('pages through the audit log', async () => {
    signInAs('editor');
    const { requests } = stubFetch(extensionServer('editor'));
    renderApp('/course/1/extensions?tab=audit');
    const table = await screen.findByRole('table', { name: 'Audit log' }, SLOW);
    expect(within(table).getAllByRole('row')).toHaveLength(21);
    expect(within(table).getByText('student25@example.jp')).toBeTruthy();
    expect(within(table).getAllByText('Granted').length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await within(table).findByText('student5@example.jp')).toBeTruthy();
    expect(requests.some((request) => request.url.includes('audit/?limit=20&offset=20'))).toBe(true);
  });

  it('shows cards on a phone', async () => {
    stubScreenMatching(PHONE_QUERY);
    signInAs('editor');
    stubFetch(extensionServer('editor'));
    renderApp('/course/1/extensions');
    const list = await screen.findByRole('list', { name: 'Extensions' }, SLOW);
    expect(screen.queryByRole('table')).toBeNull();
    const card = within(list).getByRole('listitem');
    expect(within(card).getByText('Taro Yamada')).toBeTruthy();
    expect(
      within(card).getByRole('button', { name: 'Revoke the extension of Taro Yamada for Loops' }),
    ).toBeTruthy();
  });
});
