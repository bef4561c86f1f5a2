import type { TFunction } from 'i18next';
import { personName, type Notification } from '@kadai/contracts';
import { formatDateTime, formatNumber } from '../../i18n/format.ts';

/**
 * What a notification says, in the reader's language, from its kind and the facts the server kept
 * (docs/notifications.md): "Emily Carter replied to “Week 3”", 「Carter Emily さんが「Week 3」に返信しました」.
 * People are named with `personName` (family name first in Japanese). A fact the event did not have
 * (no actor, no date) picks the sentence that does without it, never a blank in the middle of one.
 */
export function notificationSentence(
  notification: Pick<Notification, 'kind' | 'facts'>,
  t: TFunction,
  language: string,
): string {
  const { facts } = notification;
  const title = facts.title?.trim() || t('notifications.text.untitled');
  const actorName = facts.actor ? personName(facts.actor, language) : '';
  const actor = actorName === '' ? null : actorName;
  const due = facts.due_at ? formatDateTime(facts.due_at, language) : null;
  switch (notification.kind) {
    case 'announcement':
      return t('notifications.text.announcement', { title });
    case 'submission_graded':
      return facts.score === undefined || facts.max_score === undefined
        ? t('notifications.text.submissionGraded', { title })
        : t('notifications.text.submissionGradedScore', {
            title,
            score: formatNumber(facts.score, language),
            max: formatNumber(facts.max_score, language),
          });
    case 'feedback_released':
      return actor === null
        ? t('notifications.text.feedbackReleasedNoActor', { title })
        : t('notifications.text.feedbackReleased', { title, actor });
    case 'forum_reply':
      return actor === null
        ? t('notifications.text.forumReplyNoActor', { title })
        : t('notifications.text.forumReply', { title, actor });
    case 'extension':
      if (due === null) return t('notifications.text.extensionNoDate', { title });
      return actor === null
        ? t('notifications.text.extensionNoActor', { title, due })
        : t('notifications.text.extension', { title, actor, due });
    case 'deadline_soon':
      return due === null
        ? t('notifications.text.deadlineSoonNoDate', { title })
        : t('notifications.text.deadlineSoon', { title, due });
    case 'quiz_opened':
      return due === null
        ? t('notifications.text.quizOpened', { title })
        : t('notifications.text.quizOpenedUntil', { title, due });
    case 'member_added': {
      const member = facts.member ? personName(facts.member, language) : '';
      if (member === '') return t('notifications.text.memberAddedUnnamed');
      return facts.role === 'editor'
        ? t('notifications.text.memberAddedEditor', { member })
        : t('notifications.text.memberAddedStudent', { member });
    }
  }
}
