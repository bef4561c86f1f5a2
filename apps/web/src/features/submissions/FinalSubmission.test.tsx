import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import {
  ASSIGNMENT_DETAIL,
  COURSE,
  evaluation,
  iso,
  precheckTest,
  submission,
} from './submission-fixtures.ts';

/*
 * A student whose earlier submission is marked final submits a better one: the final one still counts,
 * and nothing said so. Where they submit and on the newer result, the page names the final submission
 * and offers to make the newer one final.
 */

const FINAL = submission('Completed', { id: 42, score: 5, is_final: true, graded_at: iso(-60_000) });
const NEWER = submission('Completed', { id: 43, score: 15, graded_at: iso(0) });
const NEWER_DETAIL = {
  ...NEWER,
  can_manage: false,
  evaluations: [evaluation({ ...precheckTest(1, 'Small numbers', 'Correct'), points: 15, max_points: 15 })],
};

function server({ mine, final }: { mine: unknown[]; final: unknown[] }) {
  return (request: RecordedRequest) => {
    const url = new URL(request.url, 'http://test');
    const path = url.pathname;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (path === '/api/Course/1/') return json(200, COURSE);
    if (path === '/api/Assignment/5/CourseSpecificDetail/') return json(200, ASSIGNMENT_DETAIL);
    if (path === '/api/Assignment/5/1/TestCase/') return json(200, { count: 0, results: [] });
    if (path === '/api/Submission/by-course/course/1/user/4/') {
      const results = url.searchParams.get('is_final') === 'true' ? final : mine;
      return json(200, { count: results.length, limit: 10, offset: 0, results, next_cursor: null });
    }
    if (path === '/api/Submission/43/') return json(200, NEWER_DETAIL);
    if (path === '/api/Submission/SelectFinal/5/1/43/' && request.method === 'POST') {
      return json(200, { submission: { ...NEWER, is_final: true } });
    }
    return json(404, { detail: 'Not found.', code: 'not_found' });
  };
}

beforeEach(async () => {
  signInAsStudent();
  await i18n.changeLanguage('en-US');
});

describe('a better submission after a final one', { timeout: 40_000 }, () => {
  it('is told where they submit and on the latest result, which offers to make it final', async () => {
    const { requests } = stubFetch(server({ mine: [NEWER, FINAL], final: [FINAL] }));
    renderApp('/course/1/assignment/5');

    const submit = await screen.findByRole('region', { name: 'Submit' });
    expect(
      await within(submit).findByText(
        'Your final submission is #42 (5/15 points): it is the one that counts. A new submission counts only once you make it final.',
      ),
    ).toBeTruthy();

    const latest = await screen.findByRole('region', { name: 'Latest result' });
    expect(
      await within(latest).findByText(
        'Your final submission is #42 (5/15 points), and it is the one that counts, not this one. Make #43 final?',
      ),
    ).toBeTruthy();
    fireEvent.click(within(latest).getByRole('button', { name: 'Make #43 final' }));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }));
    await waitFor(() =>
      expect(
        requests.some((r) => r.url === '/api/Submission/SelectFinal/5/1/43/' && r.method === 'POST'),
      ).toBe(true),
    );
  });

  it('says it in Japanese', async () => {
    await i18n.changeLanguage('ja');
    stubFetch(server({ mine: [NEWER, FINAL], final: [FINAL] }));
    renderApp('/course/1/assignment/5');
    const latest = await screen.findByRole('region', { name: '最新の結果' });
    expect(
      await within(latest).findByText(
        '最終提出は #42（5/15 点）で、採点に使われるのはこの提出ではなくそちらです。#43 を最終提出にしますか？',
      ),
    ).toBeTruthy();
    expect(within(latest).getByRole('button', { name: '#43 を最終提出にする' })).toBeTruthy();
    const submit = screen.getByRole('region', { name: '提出' });
    expect(
      await within(submit).findByText(
        '最終提出は #42（5/15 点）で、採点に使われるのはその提出です。新しく提出しても、最終提出にするまでは採点に使われません。',
      ),
    ).toBeTruthy();
  });

  it('is told on the submission page, with one button to make it final', async () => {
    stubFetch(server({ mine: [NEWER, FINAL], final: [FINAL] }));
    renderApp('/course/1/submission/43');
    expect(
      await screen.findByText(
        'Your final submission is #42 (5/15 points), and it is the one that counts, not this one. Make #43 final?',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Make #43 final' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Make this my final submission' })).toBeNull();
  });

  it('is not said on the result when the latest submission is the final one', async () => {
    const latestFinal = { ...NEWER, is_final: true };
    stubFetch(server({ mine: [latestFinal], final: [latestFinal] }));
    renderApp('/course/1/assignment/5');
    const latest = await screen.findByRole('region', { name: 'Latest result' });
    await within(latest).findByText('1 of 1 test passed · 15/15 points');
    expect(within(latest).queryByText('This submission does not count')).toBeNull();
  });

  it('is not said anywhere while no submission is final', async () => {
    stubFetch(server({ mine: [NEWER], final: [] }));
    renderApp('/course/1/assignment/5');
    const latest = await screen.findByRole('region', { name: 'Latest result' });
    await within(latest).findByText('1 of 1 test passed · 15/15 points');
    expect(screen.queryByText(/final submission is/)).toBeNull();
  });
});
