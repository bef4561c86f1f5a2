import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { useSession } from '../auth/session.ts';
import { axeViolations } from '../lti/lti-fixtures.ts';
import { reviewServer } from './review-fixtures.ts';

// Pages load their code on demand, and axe walks the whole page: slow in jsdom under load.
vi.setConfig({ testTimeout: 45_000 });
const SLOW = { timeout: 8000 };

beforeEach(() => {
  signInAsStudent();
  useSession.setState({ userId: 2, roles: ['instructor'], editorCourses: [1] });
});

describe('the grading queue', () => {
  it('lists the students, filters by status through the API, and opens the next ungraded', async () => {
    const { requests } = stubFetch(reviewServer());
    const { router } = renderApp('/course/1/assignment/7/grading');
    const table = await screen.findByRole('table', { name: 'Students to grade' }, SLOW);
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(screen.getByText('1 of 3 submissions graded')).toBeTruthy();
    expect(await axeViolations()).toEqual([]);

    fireEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Draft', hidden: true }));
    const rows = () => within(screen.getByRole('table', { name: 'Students to grade' })).getAllByRole('row');
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(within(rows()[1]!).getByText('Ken Sato')).toBeTruthy();
    expect(requests.some((r) => r.url === '/api/Course/1/assignments/7/reviews/?status=draft')).toBe(true);
    expect(router.state.location.search).toBe('?status=draft');

    fireEvent.click(screen.getByRole('button', { name: 'Grade next ungraded' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/course/1/assignment/7/grading/21'));
  });
});

describe('the rubric editor', () => {
  it('asks before a save that recomputes grades, then says how many were', async () => {
    const { requests } = stubFetch(reviewServer());
    renderApp('/course/1/assignment/7/rubric');
    expect(await screen.findByRole('heading', { level: 1, name: 'Rubric' }, SLOW)).toBeTruthy();
    expect(screen.getByText('Maximum score: 15')).toBeTruthy();
    // Removing an item no grading ticks asks nothing more.
    fireEvent.change(screen.getAllByRole('textbox', { name: /^Points/ })[0]!, { target: { value: '4' } });
    fireEvent.click(screen.getByRole('button', { name: 'Remove Off-by-one' }));
    fireEvent.click(screen.getByRole('button', { name: 'Move Comments up' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'Recompute grades?' });
    expect(within(dialog).getByText('Changing points recomputes up to 4 grades.')).toBeTruthy();
    expect(requests.some((r) => r.method === 'PUT')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save and recompute' }));
    expect(await screen.findByText('3 grades were recomputed.')).toBeTruthy();
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({
      settings: { autograde_weight: 1, rubric_weight: 1, rubric_max: 5 },
      items: [
        { id: 2, group: 'Style', title: 'Comments', description: '', points: 1 },
        { id: 1, group: 'Style', title: 'Clear names', description: '', points: 4 },
      ],
    });
  });

  it('follows the weights with the maximum before the first save, from the autograder maximum', async () => {
    stubFetch(reviewServer());
    renderApp('/course/1/assignment/7/rubric');
    expect(await screen.findByText('Maximum score: 15', undefined, SLOW)).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Autograder weight' }), { target: { value: '2' } });
    expect(await screen.findByText('Maximum score: 25')).toBeTruthy();
  });
});
