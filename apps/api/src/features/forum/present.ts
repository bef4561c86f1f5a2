import type { CourseRole, ForumRecord } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import { toForumRecord } from './forum-access.ts';
import { listRecordDetails } from './record-details.repo.ts';

/**
 * The records of `ids` as the caller sees them, in that order: one query however many rows
 * (details with author, flags and attachments), never one per row.
 */
export async function presentRecords(
  db: Executor,
  ids: number[],
  viewer: { actor: Actor; role: CourseRole },
): Promise<ForumRecord[]> {
  if (ids.length === 0) return [];
  const details = await listRecordDetails(db, ids, viewer.actor.userId);
  return details.map((row) => toForumRecord(row, viewer));
}

export async function presentRecord(
  db: Executor,
  id: number,
  viewer: { actor: Actor; role: CourseRole },
): Promise<ForumRecord> {
  const [record] = await presentRecords(db, [id], viewer);
  if (!record) throw notFound();
  return record;
}
