import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { relativeTime } from './relative-time.ts';

/** A time as "3 hours ago", with the exact date and time on hover and for screen readers. */
export function RelativeTime({ iso }: { iso: string }) {
  const { i18n } = useTranslation();
  const format = useFormatters();
  const exact = format.dateTime(iso);
  return (
    <time dateTime={iso} title={exact}>
      {relativeTime(iso, i18n.language)}
    </time>
  );
}
