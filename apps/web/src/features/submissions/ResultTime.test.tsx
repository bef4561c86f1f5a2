import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { EvaluationSummary } from './EvaluationSummary.tsx';
import { evaluation, item, precheckTest } from './submission-fixtures.ts';

/*
 * A result's time is the wall time of its whole run (sandbox start-up included; for a pytest file, every
 * test), while the limit is CPU time, per test: a Correct result above its limit looked wrong. The
 * figure says it is elapsed time and, beside it, that the limit counts CPU time.
 */

const PYTEST = evaluation(
  precheckTest(1, 'Unit tests', 'Correct', {
    time_ms: 2340,
    items: [item('test_add', 'passed'), item('test_zero', 'passed')],
  }),
);

afterEach(async () => {
  await i18n.changeLanguage('ja');
});

describe.each([
  { language: 'en-US', text: '2,340 ms elapsed (the limit counts CPU time)' },
  { language: 'ja', text: '経過 2,340 ミリ秒（制限は CPU 時間）' },
])('the time of a result, in $language', ({ language, text }) => {
  it('is the elapsed time, with the limit said to be CPU time beside it', async () => {
    await i18n.changeLanguage(language);
    render(
      <MantineProvider>
        <EvaluationSummary evaluation={PYTEST} />
      </MantineProvider>,
    );
    expect(screen.getByText(text)).toBeTruthy();
  });
});

it('says nothing of a limit where no time is shown (a hidden test)', async () => {
  await i18n.changeLanguage('en-US');
  render(
    <MantineProvider>
      <EvaluationSummary evaluation={evaluation(precheckTest(1, 'Large', 'Correct'), 'hidden')} />
    </MantineProvider>,
  );
  expect(screen.queryByText(/CPU time/)).toBeNull();
});
