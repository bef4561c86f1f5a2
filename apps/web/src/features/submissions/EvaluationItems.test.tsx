import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { Evaluation } from '@kadai/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { EvaluationBody } from './EvaluationBody.tsx';
import { EvaluationSummary } from './EvaluationSummary.tsx';
import { ASSERTION_MESSAGE, PYTEST_TEST, evaluation, precheckTest } from './submission-fixtures.ts';

function renderBody(shown: Evaluation) {
  return render(
    <MantineProvider>
      <EvaluationBody evaluation={shown} canManage={false} submissionId={42} />
    </MantineProvider>,
  );
}

function rows() {
  return within(screen.getByRole('list', { name: 'Tests in Unit tests' })).getAllByRole('listitem');
}

beforeEach(async () => {
  await i18n.changeLanguage('en-US');
});
afterEach(async () => {
  await i18n.changeLanguage('ja');
});

describe('the tests of a pytest file', () => {
  it('leaves "wrong answer" to the items of a pytest file, not to an io test', () => {
    const io = precheckTest(1, 'Small', 'Wrong', { reason: 'wrong_answer' });
    const { unmount } = render(
      <MantineProvider>
        <EvaluationSummary evaluation={io} />
      </MantineProvider>,
    );
    expect(screen.getByText('Wrong answer')).toBeTruthy();
    unmount();
    render(
      <MantineProvider>
        <EvaluationSummary evaluation={PYTEST_TEST} />
      </MantineProvider>,
    );
    expect(screen.queryByText('Wrong answer')).toBeNull();
    expect(screen.getByText('2 of 5 tests passed')).toBeTruthy();
  });

  it('says when the shares of the tests are scaled to other points', () => {
    const { unmount } = renderBody(evaluation(PYTEST_TEST));
    expect(screen.queryByText(/scaled/)).toBeNull();
    unmount();
    renderBody(evaluation({ ...PYTEST_TEST, max_points: 10 }, 'hidden'));
    expect(
      screen.getByText(
        "These tests are worth 5 shares in all; the score is scaled to the test case's 10 points.",
      ),
    ).toBeTruthy();
  });

  it('lists each test with its outcome and points, the first failure opened with pytest’s diff', () => {
    renderBody(evaluation(PYTEST_TEST));
    const lines = rows();
    expect(lines.map((line) => line.getAttribute('data-outcome'))).toEqual([
      'passed',
      'failed',
      'passed',
      'skipped',
      'time_limit',
    ]);
    expect(lines[0]!.textContent).toContain('test_add');
    expect(lines[0]!.textContent).toContain('Passed');
    expect(lines[0]!.textContent).toContain('1 / 1');
    expect(lines[1]!.textContent).toContain('Failed');
    expect(lines[1]!.textContent).toContain('0 / 1');
    expect(lines[4]!.textContent).toContain('Time limit');

    const failing = within(lines[1]!).getByRole('button', { name: 'Details of test_lists' });
    expect(failing.getAttribute('aria-expanded')).toBe('true');
    const message = within(lines[1]!).getByLabelText('Message');
    // The diff keeps its lines and spacing, in a monospace block.
    expect(message.textContent).toBe(ASSERTION_MESSAGE);
    expect(within(lines[1]!).getByLabelText('Captured output').textContent).toBe('debug: [1, 2, 3]\n');

    // The skip has a reason to read, closed; a passed test without a message has no button.
    const skipped = within(lines[3]!).getByRole('button', { name: 'Details of test_later' });
    expect(skipped.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(skipped);
    expect(skipped.getAttribute('aria-expanded')).toBe('true');
    expect(within(lines[0]!).queryByRole('button')).toBeNull();
  });

  it('shows a hidden file’s tests by name, outcome and points only', () => {
    renderBody(evaluation(PYTEST_TEST, 'hidden'));
    expect(screen.getByText('A hidden test: only its result is shown.')).toBeTruthy();
    const lines = rows();
    expect(lines).toHaveLength(5);
    expect(lines[1]!.textContent).toContain('test_lists');
    expect(lines[1]!.textContent).toContain('Failed');
    expect(screen.queryByRole('button')).toBeNull();
    expect(document.body.textContent).not.toContain('assert [1, 2, 3]');
    expect(document.body.textContent).not.toContain('debug:');
  });

  it('shows pytest’s message when the file could not run its tests', () => {
    const broken = precheckTest(3, 'Unit tests', 'Wrong', {
      reason: 'collection_error',
      checker_message: "ImportError: cannot import name 'add' from 'main'",
    });
    renderBody(evaluation(broken));
    expect(screen.getByLabelText('Message from pytest').textContent).toContain("cannot import name 'add'");
    // No io diff for a pytest file.
    expect(screen.queryByText('Expected and actual output')).toBeNull();
  });
});
