import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { renderApp } from '../../test/render.tsx';
import { signInAsStudent } from '../../test/session.ts';
import { settleLazyLoads } from '../../ui/lazyComponent.ts';
import { ASSIGNMENT_DETAIL, COURSE, iso, submission } from './submission-fixtures.ts';

/*
 * Comparing submissions (issue 39): the author's submissions, each with its files, side by side; editors
 * may also pick the assignment's reference solution, which students are never offered.
 */

const HOUR = 3_600_000;

function file(submissionId: number, filename: string, content: string) {
  return {
    id: submissionId * 10 + filename.length,
    submission_id: submissionId,
    filename,
    url: `/files/${submissionId}/${filename}`,
    size: content.length,
    created_at: iso(0),
    content,
  };
}

const FIRST = submission('Completed', {
  id: 40,
  score: 5,
  created_at: iso(-2 * HOUR),
  files: [
    file(40, 'main.py', 'def add(a, b):\n    return a - b\n\nprint(add(1, 2))\n'),
    file(40, 'util.py', 'X = 1\n'),
  ],
});
const SECOND = submission('Completed', {
  id: 42,
  score: 15,
  created_at: iso(-HOUR),
  files: [
    file(42, 'main.py', 'def add(a, b):\n    return a + b\n\nprint(add(1, 2))\n'),
    file(42, 'notes.txt', 'first line\nsecond line\n'),
  ],
});
const REFERENCE = 'def add(a, b):\n    """The sum."""\n    return a + b\n\nprint(add(1, 2))\n';

const detail = (shape: ReturnType<typeof submission>, canManage: boolean) => ({
  ...shape,
  can_manage: canManage,
  evaluations: [],
});

function server(role: 'student' | 'editor') {
  const isEditor = role === 'editor';
  const assignment = isEditor
    ? {
        ...ASSIGNMENT_DETAIL,
        assignment: { ...ASSIGNMENT_DETAIL.assignment, view: 'editor', reference_solution: REFERENCE },
        can_edit: true,
      }
    : ASSIGNMENT_DETAIL;
  return (request: RecordedRequest) => {
    const path = new URL(request.url, 'http://test').pathname;
    if (path === '/api/Config/')
      return json(200, { product_name: 'Kadai', google_client_id: null, provider_url: '' });
    if (path === '/api/Course/1/') return json(200, { ...COURSE, my_role: role });
    if (path === '/api/Assignment/5/CourseSpecificDetail/') return json(200, assignment);
    if (path === '/api/Submission/by-course/course/1/user/4/') {
      const results = [SECOND, FIRST];
      return json(200, { count: 2, limit: 100, offset: 0, results, next_cursor: null });
    }
    if (path === '/api/Submission/40/') return json(200, detail(FIRST, isEditor));
    if (path === '/api/Submission/42/') return json(200, detail(SECOND, isEditor));
    return json(404, { detail: 'Not found.', code: 'not_found' });
  };
}

const SLOW = { timeout: 10_000 };

function optionsOf(name: string): string[] {
  const select = screen.getByRole('combobox', { name });
  return within(select)
    .getAllByRole('option')
    .map((option) => option.textContent ?? '');
}

async function changesText(): Promise<string> {
  await settleLazyLoads();
  return waitFor(() => {
    const text = screen.getByTestId('compare-changes').textContent ?? '';
    expect(text).not.toBe('');
    return text;
  }, SLOW);
}

beforeEach(async () => {
  signInAsStudent();
  await i18n.changeLanguage('en-US');
});

describe('comparing submissions', { timeout: 40_000 }, () => {
  it('compares a student’s submission with the one before it, on the left, without the reference', async () => {
    stubFetch(server('student'));
    renderApp('/course/1/submission/42/compare');
    expect(await screen.findByRole('heading', { level: 1, name: 'Compare submissions' }, SLOW)).toBeTruthy();

    const left = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Left side' }, SLOW);
    await waitFor(() => expect(left.value).toBe('40'), SLOW);
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Right side' }).value).toBe('42');
    expect(optionsOf('Right side')).toEqual([
      expect.stringMatching(/^Submission #42 · .+ · 15 \/ 15$/),
      expect.stringMatching(/^Submission #40 · .+ · 5 \/ 15$/),
    ]);
    expect(optionsOf('Left side')).toEqual([expect.stringMatching(/^Submission #40 · /)]);
    expect(screen.queryByRole('option', { name: 'Reference solution' })).toBeNull();

    expect(await changesText()).toBe('1 line differs (1 added, 1 removed)');
    expect(optionsOf('File')).toEqual(['main.py', 'util.py (left side only)', 'notes.txt (right side only)']);
    expect(screen.getByRole('textbox', { name: 'Submission #42: main.py' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Submission #40: main.py' })).toBeTruthy();

    // A file on one side only is compared with nothing: every line of it is added.
    fireEvent.change(screen.getByRole('combobox', { name: 'File' }), { target: { value: 'notes.txt' } });
    await waitFor(
      () =>
        expect(screen.getByTestId('compare-changes').textContent).toBe('2 lines differ (2 added, 0 removed)'),
      SLOW,
    );
  });

  it('does not compare a student’s submission with the reference, even when the address asks', async () => {
    stubFetch(server('student'));
    renderApp('/course/1/submission/42/compare?with=reference');
    expect(
      await screen.findByText('This assignment has no reference solution to compare with.', {}, SLOW),
    ).toBeTruthy();
    expect(optionsOf('Left side')).not.toContain('Reference solution');
  });

  it('offers editors the reference solution and counts the lines that differ from it', async () => {
    stubFetch(server('editor'));
    renderApp('/course/1/submission/42/compare');
    const left = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Left side' }, SLOW);
    await waitFor(() => expect(optionsOf('Left side')).toContain('Reference solution'), SLOW);
    fireEvent.change(left, { target: { value: 'reference' } });

    await waitFor(
      () =>
        expect(screen.getByTestId('compare-changes').textContent).toBe('1 line differs (0 added, 1 removed)'),
      SLOW,
    );
    expect(screen.getByRole('textbox', { name: 'Reference solution: main.py' })).toBeTruthy();
    expect(screen.getByText('Adding numbers · Taro Yamada')).toBeTruthy();
  });

  it('is opened from the submission page', async () => {
    stubFetch(server('student'));
    renderApp('/course/1/submission/42');
    const compare = await screen.findByRole('link', { name: 'Compare' }, SLOW);
    expect(compare.getAttribute('href')).toBe('/course/1/submission/42/compare');
  });

  it('speaks Japanese', async () => {
    await i18n.changeLanguage('ja');
    stubFetch(server('student'));
    renderApp('/course/1/submission/42/compare');
    expect(await screen.findByRole('heading', { level: 1, name: '提出の比較' }, SLOW)).toBeTruthy();
    expect(await screen.findByRole('combobox', { name: '左側' }, SLOW)).toBeTruthy();
    expect(await changesText()).toBe('1 行が異なります（追加 1 行、削除 1 行）');
  });
});
