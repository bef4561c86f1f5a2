import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';

/**
 * Points given or taken, signed ("+2 points", "−0.5 points"), and a score with its maximum as every
 * screen writes one (`courseHome.score`, as the course home writes a result).
 */
export function usePointFormatters() {
  const { t } = useTranslation();
  const format = useFormatters();
  return {
    points: (value: number) =>
      t('feedback.points', {
        count: Math.abs(value),
        points: value > 0 ? `+${format.number(value)}` : value < 0 ? `−${format.number(-value)}` : '0',
      }),
    score: (score: number | null, max: number | null) =>
      t('courseHome.score', {
        score: score === null ? '–' : format.number(score),
        max: max === null ? '–' : format.number(max),
      }),
  };
}
