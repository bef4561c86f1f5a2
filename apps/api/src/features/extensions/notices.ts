import type { ExtensionDates } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import { links, notifyEach } from '../notifications/notify.service.ts';
import type { ItemInCourse } from './extensions.repo.ts';

/* What extensions tell people (docs/notifications.md, "Events"). */

/** The dates as one text, `-` for what is not set: the same dates always give the same text. */
const datesText = (dates: ExtensionDates | undefined): string =>
  dates
    ? [dates.due_at, dates.late_until, dates.closes_at, dates.extra_minutes].map((v) => v ?? '-').join(',')
    : 'none';

/**
 * A grant or a change, to each student whose own dates it changed (the granting editor named). The key
 * holds the dates before and after, so the same grant sent again tells nobody, and every change does —
 * a move back to an earlier date included. One statement for the whole grant.
 */
export function tellOfExtensions(
  tx: Executor,
  grant: { courseId: number; item: ItemInCourse; dates: ExtensionDates; userIds: readonly number[] },
  before: ReadonlyMap<number, ExtensionDates>,
  actorId: number,
): Promise<number> {
  const { courseId, item, dates } = grant;
  const after = datesText(dates);
  // Students grouped by what they had: one event per group.
  const byPrevious = new Map<string, number[]>();
  for (const userId of grant.userIds) {
    const previous = datesText(before.get(userId));
    if (previous === after) continue;
    byPrevious.set(previous, [...(byPrevious.get(previous) ?? []), userId]);
  }
  const place =
    item.kind === 'assignment' ? `assignment:${item.itemId}:${courseId}` : `quiz:${item.quizCourseId}`;
  const link =
    item.kind === 'assignment'
      ? links.assignment(courseId, item.itemId)
      : links.quiz(courseId, item.itemId, item.quizCourseId ?? 0);
  const dueAt = dates.due_at ?? dates.closes_at;
  return notifyEach(
    tx,
    [...byPrevious].map(([previous, userIds]) => ({
      kind: 'extension' as const,
      key: `extension:${place}:${previous}>${after}`,
      courseId,
      link,
      facts: dueAt === null ? { title: item.title } : { title: item.title, due_at: dueAt },
      to: { users: userIds },
      actorId,
    })),
  );
}
