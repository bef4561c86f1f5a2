import { Text } from '@mantine/core';
import type { ReviewScore } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import classes from './Feedback.module.css';
import { usePointFormatters } from './points.ts';

/**
 * How the counted score is made: the automatic tests' score, the rubric's points, the adjustment with
 * its reason, and the total against the maximum (weights and caps are the server's; the total is its).
 */
export function ScoreBreakdown({
  score,
  adjustmentReason,
}: {
  score: ReviewScore;
  adjustmentReason: string;
}) {
  const { t } = useTranslation();
  const format = usePointFormatters();
  return (
    <dl className={classes.breakdown}>
      {score.autograde_score !== null ? (
        <>
          <dt>{t('feedback.score.autograde')}</dt>
          <dd>{format.score(score.autograde_score, score.autograde_max)}</dd>
        </>
      ) : null}
      <dt>{t('feedback.score.rubric')}</dt>
      <dd>{format.points(score.rubric_points)}</dd>
      {score.adjustment !== 0 || adjustmentReason !== '' ? (
        <>
          <dt>
            {t('feedback.score.adjustment')}
            {adjustmentReason ? (
              <Text
                component="span"
                size="sm"
                c="dimmed"
                display="block"
                style={{ overflowWrap: 'anywhere' }}
              >
                {adjustmentReason}
              </Text>
            ) : null}
          </dt>
          <dd>{format.points(score.adjustment)}</dd>
        </>
      ) : null}
      <dt className={classes.total}>{t('feedback.score.total')}</dt>
      <dd className={classes.total}>{format.score(score.total, score.max_score)}</dd>
    </dl>
  );
}
