import { useFormatters } from '../i18n/format.ts';

/**
 * A deadline or an item's opening, the one way every page shows one (docs/web.md, "Dates and times"):
 * the date-time in the reader's zone, naming that zone when the course's clock differs.
 */
export function Deadline({ at }: { at: string }) {
  const format = useFormatters();
  return <time dateTime={at}>{format.deadline(at)}</time>;
}
