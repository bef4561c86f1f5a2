import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import type { PrecheckResult, SubmissionDetail } from '@kadai/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { countTests } from '../../ui/test-count.ts';
import { EvaluationResults } from './EvaluationResults.tsx';
import { PrecheckResults } from './PrecheckResults.tsx';
import { ResultOutcome } from './ResultOutcome.tsx';
import { evaluation, item, iso, precheckTest, submission } from './submission-fixtures.ts';

/*
 * Every summary of a result counts tests, not test cases: a pytest file of 3 tests (2 passed) and a
 * Correct io test are "3 of 4 tests passed", not "1 of 2", on the submission page (and a reference run,
 * which shows the same results), in the latest result and in a precheck.
 */

const IO = precheckTest(1, 'Small numbers', 'Correct', { points: 5, max_points: 5 });
const PYTEST = precheckTest(2, 'Unit tests', 'Wrong', {
  points: 2,
  max_points: 3,
  items: [item('test_add', 'passed'), item('test_lists', 'failed'), item('test_zero', 'passed')],
});

const DETAIL = {
  ...submission('Completed', { score: 7, max_score: 8, graded_at: iso(0) }),
  can_manage: false,
  evaluations: [evaluation(IO), evaluation(PYTEST, 'hidden')],
} as SubmissionDetail;

const PRECHECK: PrecheckResult = {
  status: 'Completed',
  message: '',
  score: 7,
  max_score: 8,
  not_run: 0,
  tests: [IO, PYTEST],
};

function renderIn(ui: React.ReactNode) {
  return render(<MantineProvider>{ui}</MantineProvider>);
}

afterEach(async () => {
  await i18n.changeLanguage('ja');
});

describe.each([
  {
    language: 'en-US',
    results: '3 of 4 tests passed',
    latest: '3 of 4 tests passed · 7/8 points',
    precheck: '3 of 4 visible tests passed · 7/8 points',
    file: '2 of 3 tests passed',
    title: 'Test results',
  },
  {
    language: 'ja',
    results: 'テスト 4 件中 3 件成功',
    latest: 'テスト 4 件中 3 件成功 · 7/8 点',
    precheck: '公開テスト 4 件中 3 件成功 · 7/8 点',
    file: 'テスト 3 件中 2 件成功',
    title: 'テスト結果',
  },
])('the counts of a pytest file of 3 tests and an io test, in $language', (expected) => {
  it('counts 3 passed tests of 4', () => {
    expect(countTests(DETAIL.evaluations)).toEqual({ passed: 3, count: 4 });
    expect(countTests(PRECHECK.tests)).toEqual({ passed: 3, count: 4 });
  });

  it('heads a submission’s (or a reference run’s) results with the tests that passed', async () => {
    await i18n.changeLanguage(expected.language);
    renderIn(<EvaluationResults submission={DETAIL} />);
    const section = screen.getByRole('region', { name: expected.title });
    expect(within(section).getByText(expected.results)).toBeTruthy();
    // The pytest file's own line counts its tests in the same words.
    expect(within(section).getByText(expected.file)).toBeTruthy();
  });

  it('says the same in the latest result', async () => {
    await i18n.changeLanguage(expected.language);
    renderIn(<ResultOutcome passed={3} count={4} score={7} max={8} scope="all" />);
    expect(screen.getByText(expected.latest)).toBeTruthy();
  });

  it('and in a precheck, announced as well as shown', async () => {
    await i18n.changeLanguage(expected.language);
    renderIn(<PrecheckResults pending={false} result={PRECHECK} error={null} />);
    expect(screen.getByRole('status').textContent).toBe(expected.precheck);
    const outcome = screen.getAllByText(expected.precheck).find((node) => node.closest('[data-outcome]'));
    expect(outcome?.closest('[data-outcome]')?.getAttribute('data-outcome')).toBe('some');
  });
});

describe('one test', () => {
  it('is one test, not tests, in English', async () => {
    await i18n.changeLanguage('en-US');
    const one = { ...DETAIL, evaluations: [evaluation(IO)] } as SubmissionDetail;
    renderIn(<EvaluationResults submission={one} />);
    expect(screen.getByText('1 of 1 test passed')).toBeTruthy();
  });

  it('reads as one test in the latest result too', async () => {
    await i18n.changeLanguage('en-US');
    renderIn(<ResultOutcome passed={0} count={1} score={0} max={5} scope="all" />);
    expect(screen.getByText('0 of 1 test passed · 0/5 points')).toBeTruthy();
  });
});

describe('the results of a submission page', () => {
  it('open the first failing test case the reader may see, as the latest result and a precheck do', async () => {
    await i18n.changeLanguage('en-US');
    const full = { ...DETAIL, evaluations: [evaluation(IO), evaluation(PYTEST)] } as SubmissionDetail;
    renderIn(<EvaluationResults submission={full} />);
    expect(screen.getByRole('button', { name: /Unit tests/ }).getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('button', { name: /Small numbers/ }).getAttribute('aria-expanded')).toBe('false');
    // Its pytest tests show without a click.
    expect(screen.getByText('test_lists')).toBeTruthy();
  });

  it('leave a hidden failing test case closed: there is nothing in it to read', async () => {
    await i18n.changeLanguage('en-US');
    renderIn(<EvaluationResults submission={DETAIL} />);
    expect(screen.getByRole('button', { name: /Unit tests/ }).getAttribute('aria-expanded')).toBe('false');
  });
});
