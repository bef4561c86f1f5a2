import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { countTests } from '../../ui/test-count.ts';
import { StatusBadge } from './StatusBadge.tsx';
import type { TestResult } from './test-results.ts';

/** One test's line: verdict, name, reason, time and memory (when the reader may see them), points. */
export function EvaluationSummary({ evaluation }: { evaluation: TestResult }) {
  const { t } = useTranslation();
  const format = useFormatters();
  // A hidden evaluation has no time or memory at all (they could spell out its input). The time is the
  // whole run's wall time (sandbox start-up, every test of a pytest file) and the limit is CPU time per
  // run or test: a Correct result may show more than its limit, so the figure says which is which.
  const timeMs = 'time_ms' in evaluation ? evaluation.time_ms : null;
  const memoryKb = 'memory_kb' in evaluation ? evaluation.memory_kb : null;
  // A pytest file's items say which tests failed or raised: "wrong answer" (in Japanese "the output
  // differs") would only mislead. Its limits still say why the run stopped.
  const itemsTell =
    evaluation.items.length > 0 &&
    (evaluation.reason === 'wrong_answer' || evaluation.reason === 'runtime_error');
  return (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
        <StatusBadge status={evaluation.status} size="sm" />
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {evaluation.test_case_name}
        </Text>
      </Group>
      <Group gap="md" wrap="wrap">
        {evaluation.reason && !itemsTell ? (
          <Text size="xs" c="dimmed">
            {t(`submissions.reasons.${evaluation.reason}`)}
          </Text>
        ) : null}
        {evaluation.items.length > 0 ? (
          <Text size="xs" c="dimmed">
            {t('submissions.testsPassed', countTests([evaluation]))}
          </Text>
        ) : null}
        <Text size="xs" c="dimmed">
          {timeMs === null ? '–' : t('submissions.results.timeElapsed', { ms: format.number(timeMs) })}
        </Text>
        <Text size="xs" c="dimmed">
          {memoryKb === null ? '–' : t('submissions.results.memory', { size: format.bytes(memoryKb * 1024) })}
        </Text>
        <Text size="sm" ff="monospace" fw={600}>
          {t('submissions.results.points', { points: evaluation.points, max: evaluation.max_points })}
        </Text>
      </Group>
    </Group>
  );
}
