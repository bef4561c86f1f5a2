import type { Executor } from '../../db/client.ts';
import { signalNewNotifications } from './mail-signal.repo.ts';
import { insertNotifications, type NotificationEvent } from './notify.repo.ts';

export type { NotificationEvent, Recipients } from './notify.repo.ts';

/**
 * Tells the event's recipients, in the caller's transaction: the notification exists exactly when what
 * it tells of does. Other features call this; the e-mails follow from the rows (mail-delivery.service.ts). Returns how
 * many people it added.
 */
export function notify(tx: Executor, event: NotificationEvent): Promise<number> {
  return notifyEach(tx, [event]);
}

/**
 * Several events in one statement, each with its own key and recipients (a release of many reviews, a
 * list of new members): what `notify` does for one, without a round trip per event.
 */
export async function notifyEach(tx: Executor, events: readonly NotificationEvent[]): Promise<number> {
  const added = await insertNotifications(tx, events);
  // Wakes the mailer at commit (mail-jobs.ts); without it the minute's cron still comes.
  if (added > 0 && events.some((event) => !event.mailAfterSeconds)) await signalNewNotifications(tx);
  return added;
}

/** The app's paths notifications link to (apps/web routes). */
export const links = {
  course: (courseId: number) => `/course/${courseId}`,
  forumRecord: (courseId: number, recordId: number) => `/course/${courseId}/forum/${recordId}`,
  submission: (courseId: number, submissionId: number) => `/course/${courseId}/submission/${submissionId}`,
  assignment: (courseId: number, assignmentId: number) => `/course/${courseId}/assignment/${assignmentId}`,
  quiz: (courseId: number, quizId: number, quizCourseId: number) =>
    `/course/${courseId}/quizzes/${quizId}/quiz-courses/${quizCourseId}`,
  members: (courseId: number) => `/course/${courseId}/members`,
};
