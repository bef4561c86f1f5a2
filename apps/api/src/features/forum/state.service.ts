import {
  MAX_UPVOTERS_LISTED,
  type ForumUpvoteState,
  type ForumUpvoteUsers,
  type ForumUserStatus,
} from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { badRequest } from '../../lib/errors.ts';
import { getVisibleRecord, toForumAuthor } from './forum-access.ts';
import { findForumContext, unreadOf } from './counts.repo.ts';
import * as repo from './records.repo.ts';

/* What one reader does to a post: upvote it, mark it read or unread (docs/forum.md, "Read state"). */

/** PUT (true) and DELETE (false) of `…/upvote/`: idempotent, the answer is the state after. */
export async function setUpvote(
  ctx: AppContext,
  actor: Actor,
  id: number,
  upvoted: boolean,
): Promise<ForumUpvoteState> {
  await getVisibleRecord(ctx.db, actor, id);
  const upvotes = upvoted
    ? await repo.addUpvote(ctx.db, id, actor.userId)
    : await repo.removeUpvote(ctx.db, id, actor.userId);
  return { id, upvotes, upvoted };
}

export async function listUpvoters(ctx: AppContext, actor: Actor, id: number): Promise<ForumUpvoteUsers> {
  const { record } = await getVisibleRecord(ctx.db, actor, id);
  const [rows, count] = await Promise.all([
    repo.listUpvoters(ctx.db, record, MAX_UPVOTERS_LISTED),
    repo.countUpvoters(ctx.db, id),
  ]);
  return { count, results: rows.map(toForumAuthor) };
}

/** Unread topics of the course for the user: published topics less the ones they have read. */
async function countUnread(ctx: AppContext, userId: number, courseId: number): Promise<number> {
  const context = await findForumContext(ctx.db, courseId, userId);
  return context ? unreadOf(context.counts) : 0;
}

/** `PUT ForumUserStatus/{id}/`: read state is kept per topic (a comment answers 400). */
export async function setUserStatus(
  ctx: AppContext,
  actor: Actor,
  id: number,
  isRead: boolean,
): Promise<ForumUserStatus> {
  const { record } = await getVisibleRecord(ctx.db, actor, id);
  if (record.parentId !== null) {
    throw badRequest('Read state is kept per topic; mark its topic.', {
      forum_id: ['This is a comment.'],
    });
  }
  const key = { userId: actor.userId, recordId: id, courseId: record.courseId };
  if (isRead) await repo.markRead(ctx.db, key);
  else await repo.markUnread(ctx.db, key);
  return { id, is_read: isRead, unread_count: await countUnread(ctx, actor.userId, record.courseId) };
}
