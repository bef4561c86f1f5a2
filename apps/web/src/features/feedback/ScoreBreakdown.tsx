import { Text } from '@mantine/core';
import type { ReviewScore, ReviewSettings } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import classes from './Feedback.module.css';
import { usePointFormatters } from './points.ts';

/** "× 2" after a part whose weight is not 1: why the total is not the plain sum. */
function Weight({ weight }: { weight: number | undefined }) {
  const { t } = useTranslation();
  const format = useFormatters();
  if (weight === undefined || weight === 1) return null;
  return (
    <Text component="span" size="sm" c="dimmed">
      {' '}
      {t('feedback.score.weight', { weight: format.number(weight) })}
    </Text>
  );
}

/**
 * How the counted score is made: the automatic tests' score, the rubric's points, the adjustment with
 * its reason (each with its weight when not 1), and the total against the maximum (weights and caps
 * are the server's; the total is its).
 */
export function ScoreBreakdown({
  score,
  settings,
  adjustmentReason,
}: {
  score: ReviewScore;
  settings: ReviewSettings | null;
  adjustmentReason: string;
}) {
  const { t } = useTranslation();
  const format = usePointFormatters();
  return (
    <dl className={classes.breakdown}>
      {score.autograde_score !== null ? (
        <>
          <dt>{t('feedback.score.autograde')}</dt>
          <dd>
            {format.score(score.autograde_score, score.autograde_max)}
            <Weight weight={settings?.autograde_weight} />
          </dd>
        </>
      ) : null}
      <dt>{t('feedback.score.rubric')}</dt>
      <dd>
        {format.points(score.rubric_points)}
        <Weight weight={settings?.rubric_weight} />
      </dd>
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
          <dd>
            {format.points(score.adjustment)}
            <Weight weight={settings?.rubric_weight} />
          </dd>
        </>
      ) : null}
      <dt className={classes.total}>{t('feedback.score.total')}</dt>
      <dd className={classes.total}>{format.score(score.total, score.max_score)}</dd>
    </dl>
  );
}
