import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { browserTimeZone, fromLocalInput } from '../assignments/dates.ts';
import { endOfDayHere } from './course-time.ts';

/**
 * Under a form's date fields, when the browser is in another zone than the course: when 23:59 of the
 * due day in the course's zone is on this clock. Nothing when both are one zone.
 */
export function CourseZoneHint({
  zone,
  due,
}: {
  zone: string;
  /** The due (or closing) field's `datetime-local` value; empty: today. */
  due: string;
}) {
  const { t } = useTranslation();
  const at = fromLocalInput(due);
  const here = endOfDayHere(zone, at === null ? new Date() : new Date(at), browserTimeZone());
  if (!here) return null;
  const key =
    here.dayShift > 0
      ? 'courses.timeZone.hintNextDay'
      : here.dayShift < 0
        ? 'courses.timeZone.hintPreviousDay'
        : 'courses.timeZone.hint';
  return (
    <Text size="xs" c="dimmed">
      {t(key, { zone, time: here.time })}
    </Text>
  );
}
