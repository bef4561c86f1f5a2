import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../../app/App.tsx';
import { createQueryClient } from '../../app/query-client.ts';
import { i18n } from '../../i18n/index.ts';
import { json, stubFetch } from '../../test/fetch.ts';
import { signInAsStudent } from '../../test/session.ts';
import type { CodeEditorProps } from '../../ui/CodeEditor.tsx';
import { TestCaseDialog } from './TestCaseDialog.tsx';

// CodeMirror needs layout APIs jsdom lacks; a textarea stands in with the same props.
vi.mock('../../ui/CodeEditor.tsx', () => ({
  CodeEditor: (props: CodeEditorProps) => (
    <textarea
      aria-label={props.label}
      value={props.value}
      onChange={(event) => props.onChange?.(event.currentTarget.value)}
    />
  ),
}));

const TEST_MODULE = 'from main import add\n\ndef test_add():\n    assert add(1, 2) == 3\n';

function savedTestCase(body: unknown) {
  return {
    view: 'editor',
    id: 9,
    assignment_id: 5,
    position: 0,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    ...(typeof body === 'object' && body !== null ? body : {}),
  };
}

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
    expect(screen.getByText(/Each test is worth 1 share unless marked @points\(n\)/)).toBeTruthy();
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

  it('sends the kind, file name and module', async () => {
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

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const sent = requests.find((r) => r.method === 'POST');
    expect(sent?.url).toBe('/api/Assignment/5/1/TestCase/');
    expect(sent?.body).toMatchObject({
      name: 'Unit',
      kind: 'pytest',
      test_file_name: 'add_test.py',
      test_code: TEST_MODULE,
      position: 0,
    });
  });
});
