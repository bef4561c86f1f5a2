import {
  IconAlarm,
  IconCalendarPlus,
  IconChecklist,
  IconClipboardCheck,
  IconListCheck,
  IconMessageReply,
  IconSpeakerphone,
  IconUserPlus,
  type Icon,
} from '@tabler/icons-react';
import type { NotificationKind } from '@kadai/contracts';
import type { TranslationKey } from '../../i18n/keys.ts';

/** Each kind's icon and colour (the light variant's), so a list reads at a glance; the text says it too. */
export const KIND_LOOK: Record<NotificationKind, { icon: Icon; color: string }> = {
  announcement: { icon: IconSpeakerphone, color: 'blue' },
  submission_graded: { icon: IconClipboardCheck, color: 'teal' },
  feedback_released: { icon: IconChecklist, color: 'grape' },
  forum_reply: { icon: IconMessageReply, color: 'cyan' },
  extension: { icon: IconCalendarPlus, color: 'indigo' },
  deadline_soon: { icon: IconAlarm, color: 'orange' },
  quiz_opened: { icon: IconListCheck, color: 'violet' },
  member_added: { icon: IconUserPlus, color: 'gray' },
};

/** The name of each kind where a person chooses what reaches them (the settings page). */
export const KIND_LABEL: Record<NotificationKind, TranslationKey> = {
  announcement: 'notifications.kinds.announcement',
  submission_graded: 'notifications.kinds.submission_graded',
  feedback_released: 'notifications.kinds.feedback_released',
  forum_reply: 'notifications.kinds.forum_reply',
  extension: 'notifications.kinds.extension',
  deadline_soon: 'notifications.kinds.deadline_soon',
  quiz_opened: 'notifications.kinds.quiz_opened',
  member_added: 'notifications.kinds.member_added',
};
