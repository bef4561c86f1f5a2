import type { Executor } from '../../db/client.ts';
import { links, notify } from '../notifications/notify.service.ts';

/* What the forum tells people (docs/notifications.md): announcements and replies. */

interface Topic {
  id: number;
  courseId: number;
  title: string;
  authorId: number | null;
}

/** A published announcement, to the course's students; once per announcement however it went out. */
export function announce(tx: Executor, topic: Topic): Promise<number> {
  return notify(tx, {
    kind: 'announcement',
    key: `announcement:${topic.id}`,
    courseId: topic.courseId,
    link: links.forumRecord(topic.courseId, topic.id),
    facts: { title: topic.title },
    to: { students: topic.courseId },
    actorId: topic.authorId,
  });
}

/** A comment, to the topic's author (not when they wrote it themselves). */
export function tellOfReply(tx: Executor, topic: Topic, commentId: number, actorId: number): Promise<number> {
  if (topic.authorId === null || topic.authorId === actorId) return Promise.resolve(0);
  return notify(tx, {
    kind: 'forum_reply',
    key: `forum_reply:${commentId}`,
    courseId: topic.courseId,
    link: links.forumRecord(topic.courseId, topic.id),
    facts: { title: topic.title },
    to: { users: [topic.authorId] },
    actorId,
  });
}
