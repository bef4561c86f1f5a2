import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { Providers } from '../../app/App.tsx';
import { createQueryClient } from '../../app/query-client.ts';
import { i18n } from '../../i18n/index.ts';
import { json, stubFetch } from '../../test/fetch.ts';
import { signInAsStudent } from '../../test/session.ts';
import { editorTestCase, pytestCheck } from '../../test/test-cases.ts';
import { TestCaseManager } from './TestCaseManager.tsx';

const TESTS = [
  editorTestCase({ id: 1, name: 'Small numbers', points: 1 }),
  editorTestCase({
    id: 2,
    position: 1,
    name: 'Unit tests',
    kind: 'pytest',
    points: 7,
    points_auto: true,
    check: pytestCheck({ tests: Array.from({ length: 7 }, (_, i) => ({ name: `test_${i}`, points: 1 })) }),
  }),
  editorTestCase({
    id: 3,
    position: 2,
    name: 'Broken tests',
    kind: 'pytest',
    points: 4,
    draft: true,
    check: pytestCheck({ status: 'draft', message: 'No tests were collected from test_main.py.', tests: [] }),
  }),
];

function renderList() {
  stubFetch(() => json(200, { count: TESTS.length, results: TESTS }));
  render(
    <Providers queryClient={createQueryClient()}>
      <TestCaseManager assignmentId={5} courseId={1} />
    </Providers>,
  );
}

const rowOf = async (name: string) => {
  const table = await screen.findByRole('table', { name: /./ });
  const cell = await within(table).findByText(name);
  return cell.closest('tr')!;
};

beforeEach(async () => {
  signInAsStudent();
  await i18n.changeLanguage('en-US');
});

describe('the list of test cases an editor sees', () => {
  it('marks a draft, says why, and leaves it out of the totals', async () => {
    renderList();
    const draft = await rowOf('Broken tests');
    expect(within(draft).getByText('Draft')).toBeTruthy();
    // The reason is in the badge for a screen reader, not only in the tooltip.
    expect(within(draft).getByText(/^Not run: this test file does not collect its tests\./)).toBeTruthy();
    expect(within(await rowOf('Unit tests')).queryByText('Draft')).toBeNull();
    expect(screen.getByText('2 test cases, 8 points in all')).toBeTruthy();
    expect(screen.getByText('1 draft is not run or counted.')).toBeTruthy();
  });

  it('shows points that follow the tests as such, and other points as numbers', async () => {
    renderList();
    expect(within(await rowOf('Unit tests')).getByText('7 pts (follow tests)')).toBeTruthy();
    const draft = await rowOf('Broken tests');
    expect(within(draft).getByText('4')).toBeTruthy();
    expect(within(draft).queryByText(/follow tests/)).toBeNull();
  });

  it('says the same in Japanese', async () => {
    await i18n.changeLanguage('ja');
    renderList();
    expect(within(await rowOf('Broken tests')).getByText('下書き')).toBeTruthy();
    expect(within(await rowOf('Unit tests')).getByText('7 点（テストに合わせる）')).toBeTruthy();
    expect(screen.getByText('下書き 1 件は実行されず、合計にも含まれません。')).toBeTruthy();
  });
});
