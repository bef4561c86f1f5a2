import { render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../../app/App.tsx';
import { createQueryClient } from '../../app/query-client.ts';
import { i18n } from '../../i18n/index.ts';
import { json, stubFetch } from '../../test/fetch.ts';
import { stubScreenMatching } from '../../test/media.ts';
import { signInAsStudent } from '../../test/session.ts';
import { editorTestCase, pytestCheck } from '../../test/test-cases.ts';
import { PHONE_QUERY } from '../../ui/useIsPhone.ts';
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
afterEach(() => {
  vi.unstubAllGlobals();
});

const DRAFT_NOTE =
  'Its test file does not run: until a saved version does, it is not run, counts in no total and students do not see it.';

describe('the list of test cases an editor sees', () => {
  it('marks a draft and says why in words on the row, and leaves it out of the totals', async () => {
    renderList();
    const draft = await rowOf('Broken tests');
    expect(within(draft).getByText('Draft')).toBeTruthy();
    // Visible text, not a tooltip: a finger cannot hover.
    expect(within(draft).getByText(DRAFT_NOTE)).toBeTruthy();
    expect(within(await rowOf('Unit tests')).queryByText('Draft')).toBeNull();
    expect(within(await rowOf('Unit tests')).queryByText(DRAFT_NOTE)).toBeNull();
    expect(screen.getByText('2 test cases, 8 points in all')).toBeTruthy();
    expect(screen.getByText('1 draft is not run or counted.')).toBeTruthy();
  });

  it('writes every test case’s points the same way, and a draft’s as not counted', async () => {
    renderList();
    expect(within(await rowOf('Small numbers')).getByText('1 point')).toBeTruthy();
    expect(within(await rowOf('Unit tests')).getByText('7 points (follow tests)')).toBeTruthy();
    const draft = await rowOf('Broken tests');
    expect(within(draft).getByText('Not counted')).toBeTruthy();
    expect(within(draft).queryByText(/point/)).toBeNull();
  });

  it('says the same in Japanese', async () => {
    await i18n.changeLanguage('ja');
    renderList();
    const draft = await rowOf('Broken tests');
    expect(within(draft).getByText('下書き')).toBeTruthy();
    expect(within(draft).getByText('配点に含まれません')).toBeTruthy();
    expect(within(await rowOf('Small numbers')).getByText('1 点')).toBeTruthy();
    expect(within(await rowOf('Unit tests')).getByText('7 点（テストに合わせる）')).toBeTruthy();
    expect(screen.getByText('テストケース 2 件、合計 8 点')).toBeTruthy();
    expect(screen.getByText('下書き 1 件は実行されず、合計にも含まれません。')).toBeTruthy();
  });

  it('shows a card per test case on a phone, with its badges, points and buttons, and no table', async () => {
    stubScreenMatching(PHONE_QUERY);
    renderList();
    const list = await screen.findByRole('list', { name: 'Test cases, in the order they run' });
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(list).getAllByRole('article');
    expect(cards).toHaveLength(3);
    const draft = cards[2]!;
    expect(within(draft).getByText('Broken tests')).toBeTruthy();
    expect(within(draft).getByText('Draft')).toBeTruthy();
    expect(within(draft).getByText('pytest test file')).toBeTruthy();
    expect(within(draft).getByText('Visible')).toBeTruthy();
    expect(within(draft).getByText(DRAFT_NOTE)).toBeTruthy();
    expect(within(draft).getByText('Not counted')).toBeTruthy();
    expect(within(cards[1]!).getByText('7 points (follow tests)')).toBeTruthy();
    for (const name of [
      'Move Broken tests up',
      'Move Broken tests down',
      'Edit Broken tests',
      'Delete Broken tests',
    ]) {
      expect(within(draft).getByRole('button', { name })).toBeTruthy();
    }
  });
});
