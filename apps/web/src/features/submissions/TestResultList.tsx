import { Accordion } from '@mantine/core';
import type { ReactNode } from 'react';
import { EvaluationSummary } from './EvaluationSummary.tsx';
import { firstFailingResult, type TestResult } from './test-results.ts';

/**
 * Every test's line, in the order they ran; open one for its details (`renderBody`). The first Wrong
 * test the reader may see is open to begin with, wherever results are shown (a submission, a reference
 * run, the latest result, a precheck): the one rule of every list, so a failing pytest file shows its
 * tests without a click. A list opens it when it is first drawn; give a new result its own `key`.
 */
export function TestResultList<T extends TestResult>({
  results,
  renderBody,
}: {
  results: readonly T[];
  renderBody: (result: T) => ReactNode;
}) {
  const sorted = [...results].sort((a, b) => a.position - b.position);
  const failing = firstFailingResult(sorted);
  return (
    <Accordion
      multiple
      variant="separated"
      chevronPosition="left"
      defaultValue={failing ? [String(failing.test_case_id)] : []}
    >
      {sorted.map((result) => (
        <Accordion.Item key={result.test_case_id} value={String(result.test_case_id)}>
          <Accordion.Control>
            <EvaluationSummary evaluation={result} />
          </Accordion.Control>
          <Accordion.Panel>{renderBody(result)}</Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}
