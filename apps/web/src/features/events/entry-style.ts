import {
  IconCalendarEvent,
  IconClipboardCheck,
  IconClockExclamation,
  IconFlag,
  IconListCheck,
  IconSchool,
  IconUsers,
  IconWriting,
  type Icon,
} from '@tabler/icons-react';
import type { CalendarEntryKind } from '@kadai/contracts';

/**
 * How each kind of entry looks: a Mantine colour (a tint behind the text, a stripe and the icon) and an
 * icon, so the kind never rests on colour alone; the legend and a hidden label name it in words.
 */
export interface EntryStyle {
  color: string;
  icon: Icon;
}

export const ENTRY_STYLES: Record<CalendarEntryKind, EntryStyle> = {
  lecture: { color: 'blue', icon: IconSchool },
  exam: { color: 'red', icon: IconWriting },
  office_hours: { color: 'teal', icon: IconUsers },
  deadline: { color: 'orange', icon: IconFlag },
  other: { color: 'gray', icon: IconCalendarEvent },
  assignment_due: { color: 'grape', icon: IconClipboardCheck },
  assignment_late: { color: 'pink', icon: IconClockExclamation },
  quiz_window: { color: 'green', icon: IconListCheck },
};

/** The kinds in the order of the legend: the course's own events first, then the other features'. */
export const LEGEND_ORDER: readonly CalendarEntryKind[] = [
  'lecture',
  'exam',
  'office_hours',
  'deadline',
  'other',
  'assignment_due',
  'assignment_late',
  'quiz_window',
];
