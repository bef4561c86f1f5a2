import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ErrorBody, type StudentFeedback } from '@kadai/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { i18n } from '../../i18n/index.ts';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { errorMessage } from '../../ui/errors.ts';
import { axeViolations } from '../lti/lti-fixtures.ts';
import {
  RELEASED,
  SUBMISSION_DETAIL,
  UNRELEASED,
  comment,
  feedbackServer,
  regradeRequest,
  type Route,
} from './feedback-fixtures.ts';

// Pages load their code on demand: the first render of each takes a while in jsdom.
vi.setConfig({ testTimeout: 20_000 });
const SLOW = { timeout: 8000 };

beforeEach(async () => {
  signInAsStudent();
  await i18n.changeLanguage('en-US');
});

const panel = () => screen.findByRole('region', { name: "Teacher's feedback" }, SLOW);

/** What the panel sent (the page also marks its notifications read: not the panel's). */
const posts = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.method === 'POST' && !r.url.startsWith('/api/Notification/'));

/** The definition beside a term of the score breakdown. */
function scoreRow(region: HTMLElement, term: string) {
  return within(region).getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
}

describe('the feedback on a submission', () => {
  it('shows a student nothing before the review is released', async () => {
    const { requests } = stubFetch(feedbackServer(() => UNRELEASED));
    renderApp('/course/1/submission/42');
    expect(await screen.findByRole('region', { name: 'Code and files' }, SLOW)).toBeTruthy();
    await waitFor(() => expect(requests.some((r) => r.url === '/api/Submission/42/feedback/')).toBe(true));
    expect(screen.queryByRole('region', { name: "Teacher's feedback" })).toBeNull();
    expect(screen.queryByText('Not released to the student yet')).toBeNull();
  });

  it('tells an editor it is not released yet, and previews it', async () => {
    const unreleased = { ...RELEASED, released: false, released_at: null };
    stubFetch(feedbackServer(() => unreleased, { ...SUBMISSION_DETAIL, can_manage: true }));
    renderApp('/course/1/submission/42');
    const region = await panel();
    expect(within(region).getByText('Not released to the student yet')).toBeTruthy();
    expect(scoreRow(region, 'Total')).toBe('8.5 / 12');
    // Editors answer regrade requests; they do not ask for them.
    expect(within(region).queryByRole('button', { name: /^Request regrade/ })).toBeNull();
  });

  it('writes the weight of a part that does not count once', async () => {
    const weighted = { ...RELEASED, settings: { autograde_weight: 2, rubric_weight: 1, rubric_max: 2 } };
    stubFetch(feedbackServer(() => weighted));
    renderApp('/course/1/submission/42');
    const region = await panel();
    expect(scoreRow(region, 'Automatic tests')).toBe('8 / 10 × 2');
    expect(scoreRow(region, 'Rubric')).toBe('+1 point');
  });

  it('shows the released score, the rubric with the ticked items and the overall comment', async () => {
    stubFetch(feedbackServer(() => RELEASED));
    renderApp('/course/1/submission/42');
    const region = await panel();
    expect(within(region).getByText(/^Graded by Emily Carter · Released /)).toBeTruthy();
    expect(scoreRow(region, 'Automatic tests')).toBe('8 / 10');
    expect(scoreRow(region, 'Rubric')).toBe('+1 point');
    expect(scoreRow(region, 'Total')).toBe('8.5 / 12');
    const adjustment = within(region).getByText('Adjustment', { selector: 'dt' });
    expect(adjustment.textContent).toContain('Late by a day');
    expect(adjustment.nextElementSibling?.textContent).toBe('−0.5 points');
    // The comment's Markdown is rendered as posts are.
    expect(within(region).getByText('comment', { selector: 'strong' })).toBeTruthy();

    const correctness = within(region).getByRole('list', { name: 'Correctness' });
    const [adds, wrong] = within(correctness).getAllByRole('listitem');
    expect(adds!.textContent).toContain('Adds correctly (does not apply)');
    expect(adds!.textContent).toContain('+2 points');
    expect(wrong!.textContent).toContain('Wrong operator (applies)');
    expect(wrong!.textContent).toContain('−1 point');
    const style = within(region).getByRole('list', { name: 'Style' });
    expect(within(style).getByText('Names say what they hold.')).toBeTruthy();
    expect(await axeViolations(region)).toEqual([]);
  });

  it('shows each thread right below the last line it is about, with its replies', async () => {
    stubFetch(feedbackServer(() => RELEASED));
    renderApp('/course/1/submission/42');
    const region = await panel();
    const first = within(region).getByRole('group', { name: 'main.py, lines 1–2' });
    const second = within(region).getByRole('group', { name: 'main.py, lines 3–4' });
    const onTwo = within(region).getByRole('article', { name: 'Comment on main.py, line 2' });
    const onFour = within(region).getByRole('article', { name: 'Comment on main.py, line 4' });
    const follows = (a: Element, b: Element) =>
      (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
    expect(follows(first, onTwo) && follows(onTwo, second) && follows(second, onFour)).toBe(true);
    expect(first.lastElementChild?.getAttribute('data-line')).toBe('2');
    expect(first.lastElementChild?.textContent).toBe('2    return a - b');
    expect(within(onTwo).getByText('subtracts', { selector: 'strong' })).toBeTruthy();
    expect(within(onTwo).getByText('Oh, I see.')).toBeTruthy();
    // The thread names the rubric item it is tied to.
    expect(within(onTwo).getByText('Wrong operator')).toBeTruthy();
    expect(within(onFour).getByText('Print the result with a label.')).toBeTruthy();
  });

  it('posts a reply to the thread and reads the feedback again', async () => {
    const { requests } = stubFetch(
      feedbackServer(
        () => RELEASED,
        SUBMISSION_DETAIL,
        (request, url) =>
          url.pathname === '/api/ReviewComment/21/replies/' && request.method === 'POST'
            ? json(201, comment(30, { parent_id: 21, author: null, by_student: true, body: 'Thanks!' }))
            : undefined,
      ),
    );
    renderApp('/course/1/submission/42');
    const thread = within(await panel()).getByRole('article', { name: 'Comment on main.py, line 2' });
    // The reply box waits behind its button.
    expect(within(thread).queryByLabelText('Reply about main.py, line 2')).toBeNull();
    fireEvent.click(within(thread).getByRole('button', { name: 'Reply' }));
    fireEvent.click(within(thread).getByRole('button', { name: 'Send reply' }));
    expect(await within(thread).findByText('Write a reply first.')).toBeTruthy();
    expect(posts(requests)).toEqual([]);
    fireEvent.change(within(thread).getByLabelText('Reply about main.py, line 2'), {
      target: { value: '  Thanks!  ' },
    });
    fireEvent.click(within(thread).getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('Reply posted.')).toBeTruthy();
    // Sent, the box closes behind its button again.
    await waitFor(() => expect(within(thread).queryByLabelText('Reply about main.py, line 2')).toBeNull());
    expect(posts(requests)[0]?.body).toEqual({ body: 'Thanks!' });
    await waitFor(() =>
      expect(requests.filter((r) => r.url === '/api/Submission/42/feedback/').length).toBe(2),
    );
  });

  it('asks for a regrade of a rubric item with a reason, then shows it asked instead', async () => {
    let feedback: StudentFeedback = RELEASED;
    const asked = regradeRequest(50, { rubric_item_id: 11, reason: 'It adds when fixed.' });
    const { requests } = stubFetch(
      feedbackServer(
        () => feedback,
        SUBMISSION_DETAIL,
        (request, url) => {
          if (url.pathname !== '/api/Submission/42/regrade-requests/' || request.method !== 'POST') return;
          feedback = { ...RELEASED, regrade_requests: [asked] };
          return json(201, asked);
        },
      ),
    );
    renderApp('/course/1/submission/42');
    const region = await panel();
    fireEvent.click(within(region).getByRole('button', { name: 'Request regrade: Adds correctly' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request a regrade' });
    expect(within(dialog).getByText('About: Adds correctly')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(await within(dialog).findByText('Give a reason.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/Why should it be graded again/), {
      target: { value: 'It adds when fixed.' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('Regrade requested.')).toBeTruthy();
    expect(posts(requests)[0]?.body).toEqual({
      rubric_item_id: 11,
      comment_id: null,
      reason: 'It adds when fixed.',
    });
    const item = () => within(region).getAllByRole('listitem')[0]!;
    await waitFor(() => expect(within(item()).getByText('Regrade requested')).toBeTruthy());
    expect(within(item()).queryByRole('button', { name: /^Request regrade/ })).toBeNull();
    expect(within(item()).getByText(/It adds when fixed\./)).toBeTruthy();
    // The other items and the threads may still be asked about.
    expect(within(region).getByRole('button', { name: 'Request regrade: Wrong operator' })).toBeTruthy();
  });

  it('asks about a comment thread by its first comment', async () => {
    const { requests } = stubFetch(
      feedbackServer(
        () => RELEASED,
        SUBMISSION_DETAIL,
        (request, url) =>
          url.pathname === '/api/Submission/42/regrade-requests/' && request.method === 'POST'
            ? json(201, regradeRequest(51, { rubric_item_id: null, comment_id: 21 }))
            : undefined,
      ),
    );
    renderApp('/course/1/submission/42');
    const region = await panel();
    fireEvent.click(
      within(region).getByRole('button', { name: 'Request regrade: the comment on main.py, line 2' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Request a regrade' });
    fireEvent.change(within(dialog).getByLabelText(/Why should it be graded again/), {
      target: { value: 'The operator is right for this task.' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(posts(requests).length).toBeGreaterThan(0));
    expect(posts(requests)[0]?.body).toEqual({
      rubric_item_id: null,
      comment_id: 21,
      reason: 'The operator is right for this task.',
    });
  });

  it('says so in the dialog when the item was asked about before', async () => {
    const refusal = { detail: 'You already asked about this.', code: 'regrade_already_asked' };
    const refuse: Route = (request, url) =>
      url.pathname === '/api/Submission/42/regrade-requests/' && request.method === 'POST'
        ? json(409, refusal)
        : undefined;
    stubFetch(feedbackServer(() => RELEASED, SUBMISSION_DETAIL, refuse));
    renderApp('/course/1/submission/42');
    const region = await panel();
    fireEvent.click(within(region).getByRole('button', { name: 'Request regrade: Wrong operator' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request a regrade' });
    fireEvent.change(within(dialog).getByLabelText(/Why should it be graded again/), {
      target: { value: 'Please look again.' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send request' }));
    const alert = await within(dialog).findByRole('alert');
    const expected = errorMessage(new ApiError('askRegrade', 409, ErrorBody.parse(refusal)), i18n.t);
    expect(within(alert).getByText(expected)).toBeTruthy();
    expect(within(alert).getByText('The request was not sent')).toBeTruthy();
    // Sending again cannot help: the dialog offers to close instead.
    expect(within(dialog).getByRole('button', { name: 'Send request' })).toHaveProperty('disabled', true);
    expect(within(dialog).getByText('Close')).toBeTruthy();
  });

  it('shows the editor’s answer to a request', async () => {
    const answered = regradeRequest(52, {
      rubric_item_id: 12,
      status: 'answered',
      answer: 'The operator is wrong: the task asks for a sum.',
      answered_by: { id: 2, email: 'emily@example.jp', first_name: 'Emily', last_name: 'Carter' },
      answered_at: RELEASED.released_at,
    });
    stubFetch(feedbackServer(() => ({ ...RELEASED, regrade_requests: [answered] })));
    renderApp('/course/1/submission/42');
    const region = await panel();
    const wrong = within(region).getAllByRole('listitem')[1]!;
    expect(within(wrong).getByText('Regrade answered')).toBeTruthy();
    expect(
      within(wrong).getByText(
        /^Emily Carter answered on .*: The operator is wrong: the task asks for a sum\.$/,
      ),
    ).toBeTruthy();
    expect(within(wrong).queryByRole('button', { name: /^Request regrade/ })).toBeNull();
    expect(await axeViolations(region)).toEqual([]);
  });
});
