import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PrecheckResult } from '@kadai/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { ASSIGNMENT_DETAIL, COURSE, precheckTest, submission } from './submission-fixtures.ts';

/*
 * A precheck's result is of the code it ran. Left on screen after the code changed, or after a
 * submission whose own result follows, it contradicted the latest result: it says it is outdated once
 * the code or the files differ, and it is cleared by a submission.
 */

const RESULT: PrecheckResult = {
  status: 'Completed',
  message: '',
  score: 0,
  max_score: 5,
  not_run: 0,
  tests: [precheckTest(1, 'Small numbers', 'Wrong')],
};

function server(request: RecordedRequest) {
  const path = new URL(request.url, 'http://test').pathname;
  if (path === '/api/Config/')
    return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
  if (path === '/api/Course/1/') return json(200, COURSE);
  if (path === '/api/Assignment/5/CourseSpecificDetail/') return json(200, ASSIGNMENT_DETAIL);
  if (path === '/api/Assignment/5/1/TestCase/') return json(200, { count: 0, results: [] });
  if (path === '/api/Submission/Precheck/' && request.method === 'POST') return json(200, RESULT);
  if (path === '/api/Submission/Submit/' && request.method === 'POST') {
    return json(201, submission('Scheduled'));
  }
  if (path === '/api/Submission/by-course/course/1/user/4/') {
    return json(200, { count: 0, limit: 10, offset: 0, results: [], next_cursor: null });
  }
  return json(404, { detail: 'Not found.', code: 'not_found' });
}

async function runPrecheck() {
  const editor = await screen.findByRole('textbox', { name: 'Code (main.py)' });
  fireEvent.change(editor, { target: { value: 'def add(a, b):\n    return a - b\n' } });
  fireEvent.click(screen.getByRole('button', { name: 'Run visible tests' }));
  const region = await screen.findByRole('region', { name: 'Result of the visible tests' });
  await within(region).findByText('0 of 1 visible test passed · 0/5 points');
  return editor;
}

beforeEach(async () => {
  signInAsStudent();
  await i18n.changeLanguage('en-US');
});

describe('a precheck result after the code changed', { timeout: 40_000 }, () => {
  it('says it is of the earlier code, and is current again when the code is put back', async () => {
    stubFetch(server);
    renderApp('/course/1/assignment/5');
    const editor = await runPrecheck();
    expect(screen.queryByText(/changed since these tests ran/)).toBeNull();

    fireEvent.change(editor, { target: { value: 'def add(a, b):\n    return a + b\n' } });
    const region = screen.getByRole('region', { name: 'Result of the visible tests (earlier code)' });
    expect(region.getAttribute('data-outdated')).toBe('true');
    expect(
      within(region).getByText(
        'Your code has changed since these tests ran: this result is of the earlier code. Run the visible tests again to check the code as it is now.',
      ),
    ).toBeTruthy();
    // Nothing is announced while the reader types.
    expect(screen.getByRole('status').textContent).toBe('');

    fireEvent.change(editor, { target: { value: 'def add(a, b):\n    return a - b\n' } });
    expect(
      screen.getByRole('region', { name: 'Result of the visible tests' }).getAttribute('data-outdated'),
    ).toBe('false');
  });

  it('says so in Japanese too', async () => {
    await i18n.changeLanguage('ja');
    stubFetch(server);
    renderApp('/course/1/assignment/5');
    const editor = await screen.findByRole('textbox', { name: 'コード（main.py）' });
    fireEvent.change(editor, { target: { value: 'x = 1\n' } });
    fireEvent.click(screen.getByRole('button', { name: '公開テストを実行' }));
    await screen.findByRole('region', { name: '公開テストの実行結果' });
    fireEvent.change(editor, { target: { value: 'x = 2\n' } });
    const region = screen.getByRole('region', { name: '公開テストの実行結果（以前のコード）' });
    expect(
      within(region).getByText(
        'テストの実行後にコードが変更されました。この結果は以前のコードのものです。今のコードを確かめるには、公開テストをもう一度実行してください。',
      ),
    ).toBeTruthy();
  });

  it('is cleared by a submission, whose own result follows', async () => {
    const { requests } = stubFetch(server);
    renderApp('/course/1/assignment/5');
    await runPrecheck();
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(requests.some((r) => r.url === '/api/Submission/Submit/')).toBe(true));
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: /Result of the visible tests/ })).toBeNull(),
    );
  });
});
