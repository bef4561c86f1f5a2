import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { EditorView } from '@codemirror/view';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { useSession } from '../auth/session.ts';
import { axeViolations } from '../lti/lti-fixtures.ts';
import { reviewServer } from './review-fixtures.ts';

// Pages load their code on demand, and axe walks the whole page: slow in jsdom under load.
vi.setConfig({ testTimeout: 45_000 });
const SLOW = { timeout: 8000 };
const PAGE = '/course/1/assignment/7/grading/21';

// CodeMirror measures text ranges, which jsdom does not lay out: empty measures stand in.
const measures = {
  rects: Range.prototype.getClientRects,
  box: Range.prototype.getBoundingClientRect,
};
beforeAll(() => {
  Range.prototype.getClientRects = () => document.createElement('div').getClientRects();
  Range.prototype.getBoundingClientRect = () => new DOMRect();
});
afterAll(() => {
  Range.prototype.getClientRects = measures.rects;
  Range.prototype.getBoundingClientRect = measures.box;
});

beforeEach(() => {
  signInAsStudent();
  useSession.setState({ userId: 2, roles: ['instructor'], editorCourses: [1] });
});

const checkbox = (name: RegExp) => screen.getByRole<HTMLInputElement>('checkbox', { name });

describe('grading a submission', () => {
  it('toggles the first items with 1–9, shows the total live, and saves the ticks', async () => {
    const { requests } = stubFetch(reviewServer());
    renderApp(PAGE);
    expect(await screen.findByRole('heading', { level: 1, name: 'Grading: Taro Yamada' }, SLOW)).toBeTruthy();
    expect(screen.getByText('Total 8 / 15')).toBeTruthy();
    fireEvent.keyDown(document.body, { key: '1' });
    expect(checkbox(/Clear names/).checked).toBe(true);
    fireEvent.keyDown(document.body, { key: '3' });
    expect(checkbox(/Off-by-one/).checked).toBe(true);
    expect(screen.getByText('Total 7 / 15')).toBeTruthy();
    fireEvent.keyDown(document.body, { key: '1' });
    expect(checkbox(/Clear names/).checked).toBe(false);
    // Typing a digit into a field is typing, not a shortcut.
    fireEvent.keyDown(screen.getByLabelText('Reason for the adjustment'), { key: '2' });
    expect(checkbox(/Comments/).checked).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Save as graded' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({
      version: 0,
      status: 'graded',
      selected_item_ids: [3],
      adjustment: 0,
      adjustment_reason: '',
      comment: '',
    });
    expect(await axeViolations()).toEqual([]);
  });

  it('goes to the next and previous student with j and k, in the queue’s order', async () => {
    const { requests } = stubFetch(reviewServer());
    const { router } = renderApp(PAGE);
    await waitFor(() =>
      expect(screen.getByRole<HTMLButtonElement>('button', { name: /^Next/ }).disabled).toBe(false),
    );
    fireEvent.keyDown(document.body, { key: 'j' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/course/1/assignment/7/grading/22'));
    await waitFor(() => expect(requests.some((r) => r.url === '/api/Submission/22/review/')).toBe(true));
    fireEvent.keyDown(document.body, { key: 'k' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/course/1/assignment/7/grading/21'));
    fireEvent.keyDown(document.body, { key: 'k' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/course/1/assignment/7/grading/20'));
  });

  it('says so on 409 review_conflict, overwrites nothing, and reloads', async () => {
    let conflict = true;
    const { requests } = stubFetch(
      reviewServer((request, url) =>
        url.pathname === '/api/Submission/21/review/' && request.method === 'PUT' && conflict
          ? json(409, { detail: 'Conflict.', code: 'review_conflict' })
          : undefined,
      ),
    );
    renderApp(PAGE);
    fireEvent.click(await screen.findByRole('button', { name: 'Save draft' }, SLOW));
    const alert = await screen.findByRole('alert');
    expect(
      within(alert).getByText('Another editor saved this grading meanwhile — reload to see their changes.'),
    ).toBeTruthy();
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
    conflict = false;
    const reads = requests.filter((r) => r.url === '/api/Submission/21/review/' && r.method === 'GET').length;
    fireEvent.click(within(alert).getByRole('button', { name: 'Reload' }));
    await waitFor(() =>
      expect(
        requests.filter((r) => r.url === '/api/Submission/21/review/' && r.method === 'GET').length,
      ).toBe(reads + 1),
    );
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
  });

  it('comments on the selected lines, inserting a saved comment with \\', async () => {
    const { requests } = stubFetch(reviewServer());
    renderApp(PAGE);
    const code = await screen.findByRole('textbox', { name: 'main.py' }, SLOW);
    const view = EditorView.findFromDOM(code);
    expect(view).not.toBeNull();
    // Select from line 2 into line 4.
    act(() => {
      view!.dispatch({
        selection: { anchor: view!.state.doc.line(2).from, head: view!.state.doc.line(4).from + 3 },
      });
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Comment on lines 2–4' }));
    const body = await screen.findByLabelText(/^Comment/);
    fireEvent.keyDown(body, { key: '\\' });
    const filter = await screen.findByRole('combobox', { name: 'Saved comment' });
    expect(await screen.findByRole('option', { name: /Name things used 12 times/ })).toBeTruthy();
    fireEvent.change(filter, { target: { value: 'bound' } });
    expect(screen.queryByRole('option', { name: /Name things/ })).toBeNull();
    fireEvent.keyDown(filter, { key: 'Enter' });
    await waitFor(() => expect((body as HTMLTextAreaElement).value).toBe('Check the loop bound.'));
    fireEvent.click(screen.getByRole('button', { name: 'Post comment' }));
    await waitFor(() => expect(requests.some((r) => r.url === '/api/Submission/21/comments/')).toBe(true));
    expect(requests.find((r) => r.url === '/api/Submission/21/comments/')?.body).toEqual({
      filename: 'main.py',
      line_start: 2,
      line_end: 4,
      body: 'Check the loop bound.',
      rubric_item_id: null,
      saved_comment_id: 32,
    });
    const threads = await screen.findByRole('list', { name: 'Comments on this file' });
    expect(within(threads).getByText('lines 2–4')).toBeTruthy();
    // A dot in the gutter beside the thread (jsdom has no layout to click it by line);
    // the thread itself takes the focus it moves there.
    await waitFor(() => expect(document.querySelector('.cm-review-thread-marker')).not.toBeNull());
    expect(within(threads).getByRole('listitem', { name: 'lines 2–4' }).getAttribute('tabindex')).toBe('-1');
  });
});
