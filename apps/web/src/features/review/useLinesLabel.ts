import { useTranslation } from 'react-i18next';
import type { LineRange } from './line-range.ts';

/** "Lines 3–5", or "Line 3". */
export function useLinesLabel() {
  const { t } = useTranslation();
  return (range: LineRange) =>
    range.start === range.end
      ? t('grading.lines.one', { line: range.start })
      : t('grading.lines.many', { start: range.start, end: range.end });
}
