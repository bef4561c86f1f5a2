import type { Tx } from '../../db/client.ts';
import type { DemoWorld } from '../../demo/world.ts';
import { insertEvent, type EventFields } from './events.repo.ts';

const DAY = 86_400_000;
const WEEK = 7 * DAY;
const MINUTE = 60_000;
/** Tokyo has no daylight saving: 10:40 there is always 01:40 UTC. */
const JST_OFFSET = 9 * 60 * MINUTE;

export const DEMO_LECTURE_TOPICS = [
  'Values and types',
  'Control flow',
  'Functions',
  'Lists and tuples',
  'Dictionaries and sets',
  'Strings and text',
  'Files',
  'Errors and exceptions',
  'Testing your code',
  'Modules and packages',
  'Classes',
  'Review',
] as const;

/** 10:40 Tokyo time on the Tuesday of the week `now` falls in (Monday first). */
export function tuesdayMorning(now: number): number {
  const tokyo = new Date(now + JST_OFFSET);
  const daysSinceMonday = (tokyo.getUTCDay() + 6) % 7;
  const monday = Date.UTC(tokyo.getUTCFullYear(), tokyo.getUTCMonth(), tokyo.getUTCDate() - daysSinceMonday);
  return monday + DAY + (10 * 60 + 40) * MINUTE - JST_OFFSET;
}

/**
 * Demo content of the seed: the demo course's weekly lecture (Tuesdays 10:40–12:10 Tokyo time, from two
 * weeks ago, twelve in all), a midterm exam in the week of the sixth lecture, and an all-day holiday,
 * so the calendar has something in every view.
 */
export async function seedDemoEvents(tx: Tx, world: DemoWorld): Promise<void> {
  const first = tuesdayMorning(Date.now()) - 2 * WEEK;
  const add = (fields: EventFields) =>
    insertEvent(tx, { ...fields, courseId: world.course.id, createdBy: world.editor.id });

  for (const [index, topic] of DEMO_LECTURE_TOPICS.entries()) {
    const startsAt = first + index * WEEK;
    await add({
      title: `Lecture ${index + 1}: ${topic}`,
      description: '',
      kind: 'lecture',
      startsAt: new Date(startsAt),
      endsAt: new Date(startsAt + 90 * MINUTE),
      allDay: false,
      location: 'Room 201, Building 3 / 3 号館 201 教室',
    });
  }

  // The Thursday after the sixth lecture, 13:00–14:30 Tokyo time.
  const exam = first + 5 * WEEK + 2 * DAY + (2 * 60 + 20) * MINUTE;
  await add({
    title: 'Midterm exam / 中間試験',
    description:
      'Lectures 1–6. Closed book; bring your student ID.\n第 1〜6 回の範囲。持ち込み不可、学生証を持参してください。',
    kind: 'exam',
    startsAt: new Date(exam),
    endsAt: new Date(exam + 90 * MINUTE),
    allDay: false,
    location: 'Lecture Hall A / A 講義室',
  });

  // The Friday after the fourth lecture. An all-day event is a date: 00:00 UTC of the day (docs/calendar.md).
  const holidayDate = new Date(first + 3 * WEEK + 3 * DAY + JST_OFFSET);
  const holiday = Date.UTC(holidayDate.getUTCFullYear(), holidayDate.getUTCMonth(), holidayDate.getUTCDate());
  await add({
    title: 'University festival: no classes / 大学祭（全学休講）',
    description: '',
    kind: 'other',
    startsAt: new Date(holiday),
    endsAt: new Date(holiday),
    allDay: true,
    location: '',
  });
}
