import { personName, type CourseRole, type ForumAuthor, type ForumRecord } from '@kadai/contracts';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import { canManageCourse, getCourseRole } from '../courses/courses.service.ts';
import { toForumFile } from './files.repo.ts';
import type { RecordDetail } from './record-details.repo.ts';
import { findRecord, type AuthorRow, type RecordRow } from './records.repo.ts';

/*
 * Who sees and changes what (docs/forum.md, "Access"): members of the course (students, editors) and
 * staff read and post; editors of the course and staff ("managers") also post announcements, pin,
 * schedule, and edit or delete every post; authors edit and delete their own. Students never see a
 * topic before it is published, nor its comments. Everyone else gets 404.
 */

export interface VisibleRecord {
  record: RecordRow;
  /** The topic itself, or the topic a comment belongs to. */
  topic: RecordRow;
  role: CourseRole;
}

/** Whether the role may see the topic: published, or the caller manages the course. */
export const canSeeTopic = (topic: RecordRow, role: CourseRole) =>
  topic.publishedAt !== null || canManageCourse(role);

/** The record and the caller's role in its course; 404 when it is missing or hidden from the caller. */
export async function getVisibleRecord(db: Executor, actor: Actor, id: number): Promise<VisibleRecord> {
  const record = await findRecord(db, id);
  if (!record) throw notFound();
  const role = await getCourseRole(db, actor, record.courseId);
  const topic = record.parentId === null ? record : await findRecord(db, record.parentId);
  if (!topic || !canSeeTopic(topic, role)) throw notFound();
  return { record, topic, role };
}

export const canEdit = (record: RecordRow, actor: Actor, role: CourseRole) =>
  record.authorId === actor.userId || canManageCourse(role);

/** A name classmates may see: never the whole e-mail address. */
export function toForumAuthor(row: AuthorRow): ForumAuthor {
  // The API's own string is the English rule of personName (docs/accounts.md, "Names").
  const name = personName({ first_name: row.firstName, last_name: row.lastName }, 'en');
  return {
    id: row.id,
    display_name: name || (row.email.split('@')[0] ?? ''),
    first_name: row.firstName,
    last_name: row.lastName,
    role: row.isEditor ? 'editor' : row.isStaff ? 'staff' : 'student',
  };
}

export function toForumRecord(row: RecordDetail, viewer: { actor: Actor; role: CourseRole }): ForumRecord {
  return {
    id: row.id,
    course_id: row.courseId,
    parent_record: row.parentId,
    title: row.title,
    content: row.content,
    author: toForumAuthor({
      id: row.authorId,
      firstName: row.authorFirstName,
      lastName: row.authorLastName,
      email: row.authorEmail,
      isStaff: row.authorIsStaff,
      isEditor: row.authorIsEditor,
    }),
    is_announcement: row.isAnnouncement,
    pinned: row.pinned,
    scheduled_at: row.scheduledAt?.toISOString() ?? null,
    published_at: row.publishedAt?.toISOString() ?? null,
    upvotes: row.upvotes,
    upvoted: row.upvoted,
    // Comments are read with their topic.
    is_read: row.parentId !== null || row.isRead,
    comment_count: row.parentId === null ? row.commentCount : 0,
    attachments: row.attachments.map(toForumFile),
    can_edit: canEdit(row, viewer.actor, viewer.role),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    updated_by: row.updatedBy,
    last_activity_at: row.lastActivityAt.toISOString(),
  };
}
