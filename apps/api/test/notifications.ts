import { z } from 'zod';
import { NotificationFacts, NotificationKind } from '@kadai/contracts';
import type { TestApp } from './harness.ts';

/* The notifications rows a test made, read with SQL (the hooks are what these tests test). */

const Row = z.object({
  user_id: z.coerce.number(),
  course_id: z.coerce.number().nullable(),
  kind: NotificationKind,
  event_key: z.string(),
  link: z.string(),
  facts: NotificationFacts.strict(),
  mail_after: z.coerce.date(),
  created_at: z.coerce.date(),
});
export type NotificationRow = z.infer<typeof Row>;

/** The rows of one kind (of one course, when given), oldest first. */
export async function notificationsOf(
  t: TestApp,
  kind: NotificationKind,
  courseId?: number,
): Promise<NotificationRow[]> {
  const { rows } = await t.database.query(
    `SELECT user_id, course_id, kind, event_key, link, facts, mail_after, created_at FROM notifications
      WHERE kind = $1 AND ($2::int IS NULL OR course_id = $2::int) ORDER BY id`,
    [kind, courseId ?? null],
  );
  return rows.map((row) => Row.parse(row));
}
