import { Accordion } from '@mantine/core';
import type { ReactNode } from 'react';
import { EvaluationSummary } from './EvaluationSummary.tsx';
import { firstFailingResult, type TestResult } from './test-results.ts';

/**
 * Every test's line, in the order they ran; open one for its details (`renderBody`). With
 * `openFirstFailing` the first Wrong test the reader may see is open to begin with.
 */
export function TestResultList<T extends TestResult>({
  results,
  renderBody,
  openFirstFailing = false,
}: {
  results: readonly T[];
  renderBody: (result: T) => ReactNode;
  openFirstFailing?: boolean;
}) {
  const sorted = [...results].sort((a, b) => a.position - b.position);
  const failing = openFirstFailing ? firstFailingResult(sorted) : undefined;
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
