import { Alert, Text } from '@mantine/core';
import { IconCircleCheck, IconCircleX, IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { OUTCOME_COLOR, outcomeOf, type Outcome } from './test-results.ts';

const ICONS: Record<Outcome, typeof IconCircleCheck> = {
  all: IconCircleCheck,
  some: IconAlertTriangle,
  none: IconCircleX,
};

/**
 * "3 of 5 tests passed · 7/10 points" under a title saying all passed, some failed or none passed: in the
 * success, warning or danger colour and with its own icon, so the colour is never the only sign.
 */
export function ResultOutcome({
  passed,
  count,
  score,
  max,
  scope,
}: {
  passed: number;
  count: number;
  score: number | null;
  max: number | null;
  /** `visible`: a precheck, which runs the visible tests only. */
  scope: 'visible' | 'all';
}) {
  const { t } = useTranslation();
  const outcome = outcomeOf(passed, count);
  const Icon = ICONS[outcome];
  const values = { passed, count, score: score ?? '–', max: max ?? '–' };
  return (
    <Alert
      variant="light"
      color={OUTCOME_COLOR[outcome]}
      icon={<Icon aria-hidden />}
      title={t(`submissions.outcome.${outcome}`)}
      p="xs"
      data-outcome={outcome}
    >
      <Text size="sm" fw={500}>
        {scope === 'visible'
          ? t('submissions.precheck.summary', values)
          : t('submissions.latest.summary', values)}
      </Text>
    </Alert>
  );
}
