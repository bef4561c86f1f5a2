import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../../app/App.tsx';
import { createQueryClient } from '../../app/query-client.ts';
import { i18n } from '../../i18n/index.ts';
import { json, stubFetch } from '../../test/fetch.ts';
import { stubScreenMatching } from '../../test/media.ts';
import { signInAsStudent } from '../../test/session.ts';
import { savedTestCase } from '../../test/test-cases.ts';
import { PHONE_QUERY } from '../../ui/useIsPhone.ts';
import { TestCaseDialog } from './TestCaseDialog.tsx';

const TEST_MODULE = 'from main import add\n\ndef test_add():\n    assert add(1, 2) == 3\n';

function renderDialog() {
  const onClose = vi.fn();
  render(
    <Providers queryClient={createQueryClient()}>
      <TestCaseDialog assignmentId={5} courseId={1} test={null} nextPosition={0} onClose={onClose} />
    </Providers>,
  );
  return { onClose };
}

function choosePytest() {
  fireEvent.click(screen.getByRole('radio', { name: 'pytest test file' }));
}

beforeEach(async () => {
  signInAsStudent();
  await i18n.changeLanguage('en-US');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The kind switch around one of its options. */
const kindSwitch = (option: string) =>
  screen.getByRole('radio', { name: option }).closest<HTMLElement>('.mantine-SegmentedControl-root')!;

describe('the kind switch', () => {
  it('takes a whole row, a third for each kind, so none is cut short', async () => {
    stubFetch(() => json(404, {}));
    renderDialog();
    await screen.findByRole('textbox', { name: 'Name' });
    const kinds = kindSwitch('pytest test file');
    expect(kinds.hasAttribute('data-full-width')).toBe(true);
    expect(kinds.getAttribute('data-orientation')).toBe('horizontal');
  });

  it('stands its kinds one above the other on a phone, in either language', async () => {
    stubScreenMatching(PHONE_QUERY);
    await i18n.changeLanguage('ja');
    stubFetch(() => json(404, {}));
    renderDialog();
    await screen.findByRole('textbox', { name: '名前' });
    const kinds = kindSwitch('pytest テストファイル');
    expect(kinds.getAttribute('data-orientation')).toBe('vertical');
    expect(kinds.hasAttribute('data-full-width')).toBe(true);
    expect(
      within(kinds)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['io', 'script', 'pytest']);
  });
});

describe('the time limit', () => {
  it('says it is CPU time, per test of a pytest file, and that results show elapsed time', async () => {
    stubFetch(() => json(404, {}));
    renderDialog();
    const limit = await screen.findByRole('textbox', { name: 'CPU time limit' });
    const description = () => document.getElementById(limit.getAttribute('aria-describedby') ?? '');
    expect(description()?.textContent).toBe(
      'CPU time of the program. A result shows the elapsed time, sandbox start-up included, which can be more.',
    );
    choosePytest();
    await screen.findByRole('textbox', { name: 'Test module' });
    expect(description()?.textContent).toBe(
      'CPU time of each test. A result shows the elapsed time of the whole file, which can be more.',
    );
  });

  it('says so in Japanese', async () => {
    await i18n.changeLanguage('ja');
    stubFetch(() => json(404, {}));
    renderDialog();
    const limit = await screen.findByRole('textbox', { name: 'CPU 時間の制限' });
    fireEvent.click(screen.getByRole('radio', { name: 'pytest テストファイル' }));
    await screen.findByRole('textbox', { name: 'テストモジュール' });
    expect(document.getElementById(limit.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'テスト 1 件ごとの CPU 時間です。結果にはファイル全体の経過時間が表示され、これより長くなることがあります。',
    );
  });
});

describe('the test-case editor with a pytest test', () => {
  it('shows the test file fields instead of the io and script ones', async () => {
    stubFetch(() => json(404, {}));
    renderDialog();
    expect(await screen.findByRole('textbox', { name: 'Input (stdin)' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Expected output' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Test module' })).toBeNull();

    choosePytest();
    expect(await screen.findByRole('textbox', { name: 'Test module' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: /Test file name/ })).toHaveProperty('value', 'test_main.py');
    expect(screen.queryByRole('textbox', { name: 'Input (stdin)' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Expected output' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Check script' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Driver (optional)' })).toBeNull();
    expect(screen.queryByText('Comparison')).toBeNull();
    // A new pytest test's points follow its tests: nothing to count before it is saved.
    expect(screen.getByText('Points follow the tests (one per test, or its @points).')).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'Follow the tests' })).toHaveProperty('checked', true);
    expect(screen.getByRole('textbox', { name: 'Points' })).toHaveProperty('value', '');
  }, 20_000);

  it('refuses an empty module and a bad file name before sending anything', async () => {
    const { requests } = stubFetch(() => json(404, {}));
    renderDialog();
    fireEvent.change(await screen.findByRole('textbox', { name: 'Name' }), { target: { value: 'Unit' } });
    choosePytest();
    fireEvent.change(await screen.findByRole('textbox', { name: /Test file name/ }), {
      target: { value: 'checks.py' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('A pytest test needs a test module.')).toBeTruthy();
    expect(
      screen.getByText('A Python test file name such as test_main.py (test_*.py or *_test.py).'),
    ).toBeTruthy();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('sends the kind, file name and module, with no points, and stays open on the check', async () => {
    const { requests } = stubFetch((request) =>
      request.method === 'POST'
        ? json(201, savedTestCase(request.body))
        : json(200, { count: 0, results: [] }),
    );
    const { onClose } = renderDialog();
    fireEvent.change(await screen.findByRole('textbox', { name: 'Name' }), { target: { value: 'Unit' } });
    choosePytest();
    fireEvent.change(await screen.findByRole('textbox', { name: /Test file name/ }), {
      target: { value: 'add_test.py' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Test module' }), {
      target: { value: TEST_MODULE },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('Collected 1 test (1 point)')).toBeTruthy();
    const sent = requests.find((r) => r.method === 'POST');
    expect(sent?.url).toBe('/api/Assignment/5/1/TestCase/');
    expect(sent?.body).toMatchObject({
      name: 'Unit',
      kind: 'pytest',
      test_file_name: 'add_test.py',
      test_code: TEST_MODULE,
      position: 0,
    });
    // Left out, the points follow the tests.
    expect(sent?.body).not.toHaveProperty('points');
    expect(sent?.body).not.toHaveProperty('points_auto');
    // The saved test is now the one edited: a second save changes it rather than adding another.
    expect(screen.getByRole('dialog', { name: 'Edit Unit' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('says a save in the open dialog, beside its buttons, never in a toast over them', async () => {
    stubFetch((request) =>
      request.method === 'POST'
        ? json(201, savedTestCase(request.body))
        : json(200, { count: 0, results: [] }),
    );
    renderDialog();
    fireEvent.change(await screen.findByRole('textbox', { name: 'Name' }), { target: { value: 'Unit' } });
    choosePytest();
    fireEvent.change(await screen.findByRole('textbox', { name: 'Test module' }), {
      target: { value: TEST_MODULE },
    });
    const status = within(screen.getByRole('dialog')).getByRole('status', { name: '' });
    expect(status.textContent).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(status.textContent).toBe('Test case “Unit” created.'));
    expect(screen.getAllByText('Test case “Unit” created.')).toHaveLength(1);
    expect(document.querySelector('.mantine-Notification-root')).toBeNull();
    // Once the form changes, the line no longer speaks of it.
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'Unit 2' } });
    expect(status.textContent).toBe('');
  });

  it('says a failed save in the dialog', async () => {
    stubFetch((request) =>
      request.method === 'POST' ? json(500, { detail: 'boom' }) : json(200, { count: 0, results: [] }),
    );
    renderDialog();
    fireEvent.change(await screen.findByRole('textbox', { name: 'Name' }), { target: { value: 'Sum' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    const dialog = screen.getByRole('dialog');
    expect(await within(dialog).findByText('Could not save the test case.')).toBeTruthy();
    expect(document.querySelector('.mantine-Notification-root')).toBeNull();
  });

  it('sends an io test’s points as before: 1 unless typed', async () => {
    const { requests } = stubFetch((request) =>
      request.method === 'POST'
        ? json(201, savedTestCase(request.body))
        : json(200, { count: 0, results: [] }),
    );
    const { onClose } = renderDialog();
    fireEvent.change(await screen.findByRole('textbox', { name: 'Name' }), { target: { value: 'Sum' } });
    expect(screen.queryByRole('switch', { name: 'Follow the tests' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    // The dialog closes: the toast covers nothing of it.
    expect(await screen.findByText('Test case “Sum” created.')).toBeTruthy();
    expect(document.querySelector('.mantine-Notification-root')).not.toBeNull();
    const sent = requests.find((r) => r.method === 'POST');
    expect(sent?.body).toMatchObject({ kind: 'io', points: 1 });
    expect(sent?.body).not.toHaveProperty('points_auto');
  });
});
