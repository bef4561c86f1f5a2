import type { PytestCheck } from '@kadai/contracts';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../../app/App.tsx';
import { createQueryClient } from '../../app/query-client.ts';
import { i18n } from '../../i18n/index.ts';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch.ts';
import { signInAsStudent } from '../../test/session.ts';
import { pytestCheck, savedTestCase, type EditorTestCase } from '../../test/test-cases.ts';
import { TestCaseDialog } from './TestCaseDialog.tsx';

const TEST_MODULE = 'from main import add\n\ndef test_add():\n    assert add(1, 2) == 3\n';
const SYNTAX_ERROR = 'test_main.py, line 3: invalid syntax\n    def test_add(:\n                 ^';

/** A pytest test saved before: `points` of its own unless they follow the tests. */
function pytestTest(fields: Partial<EditorTestCase>, check: PytestCheck = pytestCheck()) {
  return savedTestCase({ name: 'Unit', kind: 'pytest', test_code: TEST_MODULE, ...fields }, { check: check });
}

/** The dialog on `test` (null: a new one), against a server whose saves come back with `check`. */
function renderDialog(test: EditorTestCase | null, check?: PytestCheck) {
  const onClose = vi.fn();
  const { requests } = stubFetch((request: RecordedRequest) => {
    if (request.method === 'POST') return json(201, savedTestCase(request.body, { check }));
    if (request.method === 'PATCH' && test)
      return json(200, savedTestCase(request.body, { base: test, check }));
    return json(200, { count: 0, results: [] });
  });
  render(
    <Providers queryClient={createQueryClient()}>
      <TestCaseDialog assignmentId={5} courseId={1} test={test} nextPosition={0} onClose={onClose} />
    </Providers>,
  );
  return { onClose, requests, sent: (method: string) => requests.find((r) => r.method === method)?.body };
}

async function createPytest() {
  fireEvent.change(await screen.findByRole('textbox', { name: 'Name' }), { target: { value: 'Unit' } });
  fireEvent.click(screen.getByRole('radio', { name: 'pytest test file' }));
  fireEvent.change(await screen.findByRole('textbox', { name: 'Test module' }), {
    target: { value: TEST_MODULE },
  });
}

beforeEach(async () => {
  signInAsStudent();
  await i18n.changeLanguage('en-US');
});

describe('the check of a saved pytest test', () => {
  it('lists the collected tests, as text, and the points that follow them', async () => {
    const check = pytestCheck({
      tests: [
        { name: 'test_add', points: 1 },
        { name: 'test_sub[<b>x</b>]', points: 2 },
      ],
    });
    renderDialog(null, check);
    await createPytest();
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));

    const panel = await screen.findByRole('region', { name: 'Check of the test file' });
    expect(within(panel).getByText('Collected 2 tests (3 points)')).toBeTruthy();
    const list = within(panel).getByRole('list', { name: 'Collected tests' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['test_add', 'test_sub[<b>x</b>](2 points)']);
    expect(list.querySelector('b')).toBeNull();
    expect(within(panel).getByText('Checked against the reference solution.')).toBeTruthy();
    // The points now show the count, and say where it comes from.
    expect(screen.getByRole('textbox', { name: 'Points' })).toHaveProperty('value', '3');
    expect(screen.getByText('Points follow the tests (one per test, or its @points).')).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'Follow the tests' })).toHaveProperty('checked', true);
  });

  it('shows the first tests of a long list and the rest on demand', async () => {
    const tests = Array.from({ length: 12 }, (_, index) => ({ name: `test_${index}`, points: 1 }));
    renderDialog(pytestTest({ points_auto: true }, pytestCheck({ tests })));
    const list = await screen.findByRole('list', { name: 'Collected tests' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(8);
    const more = screen.getByRole('button', { name: 'Show all 12 tests' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(more);
    expect(within(list).getAllByRole('listitem')).toHaveLength(12);
    expect(screen.getByRole('button', { name: 'Show fewer' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('warns that a module that does not collect is a draft, with pytest’s message as written', async () => {
    const draft = pytestCheck({ status: 'draft', message: SYNTAX_ERROR, tests: [], against: 'stand-ins' });
    renderDialog(null, draft);
    await createPytest();
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));

    const title = await screen.findByText('This test file does not run');
    const alert = title.closest<HTMLElement>('[role="alert"]')!;
    const message = within(alert).getByText(/invalid syntax/);
    expect(message.textContent).toBe(SYNTAX_ERROR);
    expect(message.tagName).toBe('PRE');
    expect(
      within(alert).getByText('It is saved as a draft; students cannot run it until it does.'),
    ).toBeTruthy();
    expect(
      within(alert).getByText(
        "Checked against stand-ins for the submission's files (no solution to check against).",
      ),
    ).toBeTruthy();
    expect(
      await screen.findByText('Test case “Unit” saved as a draft: its test file does not run.'),
    ).toBeTruthy();
  });

  it('warns of a draft in Japanese', async () => {
    await i18n.changeLanguage('ja');
    const draft = pytestCheck({ status: 'draft', message: SYNTAX_ERROR, tests: [], against: 'reference' });
    renderDialog(pytestTest({}, draft));
    const title = await screen.findByText('このテストファイルは実行できません');
    const alert = title.closest<HTMLElement>('[role="alert"]')!;
    expect(within(alert).getByText(/invalid syntax/).textContent).toBe(SYNTAX_ERROR);
    expect(
      within(alert).getByText(
        '下書きとして保存されました。実行できるようになるまで、学生はこのテストを実行できません。',
      ),
    ).toBeTruthy();
    expect(within(alert).getByText('模範解答に対して確認しました。')).toBeTruthy();
  });

  it('says why a draft does not run in the reader’s language, pytest’s own words wrapped under it', async () => {
    await i18n.changeLanguage('ja');
    const draft = pytestCheck({
      status: 'draft',
      reason: { code: 'syntax_error', file: 'test_main.py', line: 3 },
      message: 'invalid syntax\n    def test_add(:\n                 ^',
      tests: [],
    });
    renderDialog(pytestTest({}, draft));
    const title = await screen.findByText('このテストファイルは実行できません');
    const alert = title.closest<HTMLElement>('[role="alert"]')!;
    expect(within(alert).getByText('test_main.py の 3 行目に構文エラーがあります:')).toBeTruthy();
    const raw = within(alert).getByText(/invalid syntax/);
    expect(raw.textContent).toBe(draft.message);
    // Wrapped, not one line to scroll sideways; its line breaks kept.
    expect(raw.style.whiteSpace).toBe('pre-wrap');
    expect(raw.style.overflowWrap).toBe('anywhere');
  });

  it('names a module the submission does not have, and its files, with no raw block when nothing is left', async () => {
    await i18n.changeLanguage('ja');
    const draft = pytestCheck({
      status: 'draft',
      reason: {
        code: 'unknown_module',
        module: 'solution',
        file: 'test_main.py',
        line: 1,
        files: ['main.py'],
      },
      message: '',
      tests: [],
    });
    renderDialog(pytestTest({}, draft));
    const title = await screen.findByText('このテストファイルは実行できません');
    const alert = title.closest<HTMLElement>('[role="alert"]')!;
    expect(
      within(alert).getByText(
        'test_main.py の 1 行目でモジュール「solution」を import していますが、このモジュールは提出ファイル（main.py）にも課題のファイルにもありません。モジュール名は正しいですか？',
      ),
    ).toBeTruthy();
    expect(alert.querySelector('pre')).toBeNull();

    await i18n.changeLanguage('en-US');
    expect(
      await within(alert).findByText(
        "test_main.py, line 1 imports the module “solution”, which is neither a file of the submission (main.py) nor one of the assignment's files. Is the module's name right?",
      ),
    ).toBeTruthy();
  });

  it('says a missing name in English', async () => {
    renderDialog(
      pytestTest(
        {},
        pytestCheck({
          status: 'draft',
          reason: { code: 'missing_name', name: 'sub', module: 'main', file: 'test_main.py', line: 1 },
          message: '',
          tests: [],
        }),
      ),
    );
    expect(
      await screen.findByText(
        'test_main.py, line 1 imports sub from main.py, but main.py does not define it.',
      ),
    ).toBeTruthy();
  });

  it('says why a module was not checked, with the host’s words under it', async () => {
    renderDialog(
      pytestTest(
        {},
        pytestCheck({
          status: 'unchecked',
          reason: { code: 'not_checked' },
          message: 'no sandbox on this host',
          tests: [],
          against: null,
        }),
      ),
    );
    expect(
      await screen.findByText('Not checked: it could not be checked here, so it runs as saved.'),
    ).toBeTruthy();
    expect(screen.getByText('no sandbox on this host')).toBeTruthy();
  });

  it('says when nothing could check the module, and when the form’s module differs from it', async () => {
    renderDialog(
      pytestTest(
        {},
        pytestCheck({ status: 'unchecked', message: 'no sandbox on this host', tests: [], against: null }),
      ),
    );
    expect(await screen.findByText('Not checked: no sandbox on this host')).toBeTruthy();
    expect(screen.queryByText(/save to check it again/)).toBeNull();
    fireEvent.change(screen.getByRole('textbox', { name: 'Test module' }), {
      target: { value: `${TEST_MODULE}\ndef test_more():\n    pass\n` },
    });
    expect(
      screen.getByText('You changed the test file since this check: save to check it again.'),
    ).toBeTruthy();
  });
});

describe('the points of a pytest test', () => {
  it('follow the tests again when switched back: points_auto true, no points', async () => {
    const check = pytestCheck({
      tests: ['test_a', 'test_b', 'test_c'].map((name) => ({ name, points: 1 })),
    });
    const { sent } = renderDialog(pytestTest({ points: 10 }, check), check);
    const points = await screen.findByRole('textbox', { name: 'Points' });
    expect(points).toHaveProperty('value', '10');
    expect(screen.getByText("The file's score is scaled to its own 10 points.")).toBeTruthy();

    fireEvent.click(screen.getByRole('switch', { name: 'Follow the tests' }));
    expect(points).toHaveProperty('value', '3');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await screen.findByText('Test case “Unit” saved.');
    expect(sent('PATCH')).toMatchObject({ kind: 'pytest', points_auto: true });
    expect(sent('PATCH')).not.toHaveProperty('points');
    await waitFor(() => expect(screen.queryByText(/scaled to its own/)).toBeNull());
  });

  it('say their own points in Japanese without a stray space', async () => {
    await i18n.changeLanguage('ja');
    const check = pytestCheck({
      tests: ['test_a', 'test_b', 'test_c'].map((name) => ({ name, points: 1 })),
    });
    renderDialog(pytestTest({ points: 10 }, check), check);
    expect(
      await screen.findByText('ファイルの得点は、このテストケースの配点 10 点に換算されます。'),
    ).toBeTruthy();
  });

  it('are the editor’s own once typed: points, no points_auto', async () => {
    const { sent } = renderDialog(pytestTest({}));
    const points = await screen.findByRole('textbox', { name: 'Points' });
    expect(points).toHaveProperty('value', '1');
    fireEvent.change(points, { target: { value: '5' } });
    expect(screen.getByRole('switch', { name: 'Follow the tests' })).toHaveProperty('checked', false);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await screen.findByText('Test case “Unit” saved.');
    expect(sent('PATCH')).toMatchObject({ kind: 'pytest', points: 5 });
    expect(sent('PATCH')).not.toHaveProperty('points_auto');
  });

  it('of a new test are sent when typed', async () => {
    const { sent } = renderDialog(null);
    await createPytest();
    fireEvent.change(screen.getByRole('textbox', { name: 'Points' }), { target: { value: '4' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));

    await screen.findByText('Test case “Unit” created.');
    expect(sent('POST')).toMatchObject({ kind: 'pytest', points: 4 });
    expect(sent('POST')).not.toHaveProperty('points_auto');
  });
});
