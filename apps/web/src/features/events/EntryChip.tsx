import { VisuallyHidden } from '@mantine/core';
import type { CalendarEntry } from '@kadai/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../routes/route-table.ts';
import classes from './Calendar.module.css';
import { ENTRY_STYLES } from './entry-style.ts';

/** The page an entry opens: an assignment or a quiz; null for events (their details open in a dialog). */
export function entryPage(entry: CalendarEntry): string | null {
  if (entry.source === 'assignment' && entry.assignment_id !== null) {
    return pathTo('AssignmentDetail', { course_id: entry.course_id, assignment_id: entry.assignment_id });
  }
  if (entry.source === 'quiz' && entry.quiz_id !== null && entry.quiz_course_id !== null) {
    return pathTo('QuizDetailV2', {
      course_id: entry.course_id,
      quiz_id: entry.quiz_id,
      quiz_course_id: entry.quiz_course_id,
    });
  }
  return null;
}

/**
 * One entry in a calendar view: its kind's icon and colour, a time when given, the title. Assignments
 * and quizzes link to their pages; events open their details (`onOpenEvent`). Screen readers hear the
 * kind first ("Exam: 10:40 Midterm").
 */
export function EntryChip({
  entry,
  time,
  onOpenEvent,
}: {
  entry: CalendarEntry;
  time?: string;
  onOpenEvent: (id: number) => void;
}) {
  const { t } = useTranslation();
  const { icon: Icon } = ENTRY_STYLES[entry.kind];
  const kind = t(`calendar.kinds.${entry.kind}`);
  const content = (
    <>
      <Icon size={14} className={classes.entryIcon} aria-hidden />
      <VisuallyHidden>{kind}:</VisuallyHidden>{' '}
      {time ? <span className={classes.entryTime}>{time}</span> : null}{' '}
      <span className={classes.entryText}>{entry.title}</span>
    </>
  );
  const tooltip = [kind, time, entry.title].filter(Boolean).join(' · ');
  const page = entryPage(entry);
  if (page !== null) {
    return (
      <Link to={page} className={classes.entry} data-color={ENTRY_STYLES[entry.kind].color} title={tooltip}>
        {content}
      </Link>
    );
  }
  return (
    <button
      type="button"
      className={classes.entry}
      data-color={ENTRY_STYLES[entry.kind].color}
      title={tooltip}
      onClick={() => entry.event_id !== null && onOpenEvent(entry.event_id)}
    >
      {content}
    </button>
  );
}
