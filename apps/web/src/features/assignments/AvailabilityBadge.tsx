import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { availabilityOf, type AssignmentDates, type Availability } from './dates.ts';

const COLORS: Record<Availability, string> = {
  upcoming: 'blue',
  open: 'green',
  late: 'orange',
  closed: 'gray',
};

/** Open, upcoming, late period or closed, from the dates in this course. */
export function AvailabilityBadge({ dates }: { dates: AssignmentDates }) {
  const { t } = useTranslation();
  const availability = availabilityOf(dates);
  return (
    <Badge variant="light" color={COLORS[availability]} style={{ flexShrink: 0 }}>
      {t(`assignments.availability.${availability}`)}
    </Badge>
  );
}
