import { z } from 'zod';
import { str } from './text.ts';
import { timeZone } from './time-zone.ts';

/*
 * Notifications (issue 40, docs/notifications.md): what happened that concerns a person — in the app
 * (the bell and its list) and by e-mail (at once, in a daily digest, or not), per kind of event and per
 * course. The server stores what happened and the facts to say it with; the screens and the e-mails say
 * it in the reader's language.
 */

export const NOTIFICATION_KINDS = [
  'announcement',
  'submission_graded',
  'feedback_released',
  'forum_reply',
  'extension',
  'deadline_soon',
  'quiz_opened',
  'member_added',
] as const;
export const NotificationKind = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof NotificationKind>;

/** How a kind of event reaches a person by e-mail. In the app every notification shows, whatever this says. */
export const EmailChoice = z.enum(['immediately', 'digest', 'off']);
export type EmailChoice = z.infer<typeof EmailChoice>;

/** What a kind sends by e-mail until the person chooses otherwise. */
export const DEFAULT_EMAIL_CHOICE: Record<NotificationKind, EmailChoice> = {
  announcement: 'immediately',
  deadline_soon: 'immediately',
  submission_graded: 'digest',
  feedback_released: 'digest',
  forum_reply: 'digest',
  extension: 'digest',
  quiz_opened: 'digest',
  member_added: 'digest',
};

/**
 * The facts a notification is said with, by kind. Every field is optional text or a number: what the
 * event had at the time (a title renamed later keeps its old name here, as an e-mail would).
 */
const PersonFacts = z.object({ first_name: z.string().max(150), last_name: z.string().max(150) });

export const NotificationFacts = z.object({
  /** The announcement's, thread's, assignment's or quiz's title. */
  title: z.string().max(500).optional(),
  /** Who did it (the replier, the editor who released feedback or granted an extension). */
  actor: PersonFacts.optional(),
  /** A score and its maximum (a graded submission). */
  score: z.number().optional(),
  max_score: z.number().optional(),
  /** The date it is about (a deadline, an extended due date, a quiz's closing), ISO 8601. */
  due_at: z.string().max(40).optional(),
  /** The new member and their role (member_added). */
  member: PersonFacts.optional(),
  role: z.enum(['student', 'editor']).optional(),
});
export type NotificationFacts = z.infer<typeof NotificationFacts>;

export const Notification = z.object({
  id: z.number().int(),
  kind: NotificationKind,
  course_id: z.number().int().nullable(),
  course_title: z.string().nullable(),
  /** The app's path of the thing it is about (`/course/3/forum/12`), to open it. */
  link: z.string(),
  facts: NotificationFacts,
  created_at: z.string(),
  read_at: z.string().nullable(),
});
export type Notification = z.infer<typeof Notification>;

export const NotificationListQuery = z.object({
  /** The previous page's `next_cursor` (newest first). */
  cursor: str().max(200).optional(),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  unread: z.enum(['true', 'false']).optional(),
});
export type NotificationListQuery = z.infer<typeof NotificationListQuery>;

export const NotificationList = z.object({
  results: z.array(Notification),
  next_cursor: z.string().nullable(),
  unread: z.number().int(),
});
export type NotificationList = z.infer<typeof NotificationList>;

export const UnreadCount = z.object({ unread: z.number().int() });
export type UnreadCount = z.infer<typeof UnreadCount>;

export const MarkAllRead = z
  .object({
    /** Only this course's (absent: all of them). */
    course_id: z.number().int().min(1).max(2_147_483_647).optional(),
    /** Only those about this page (`/course/3/submission/41`): a page marks what it shows as read. */
    link: str().max(500).optional(),
  })
  .strict();
export type MarkAllRead = z.infer<typeof MarkAllRead>;

export const MarkedRead = z.object({ marked: z.number().int(), unread: z.number().int() });
export type MarkedRead = z.infer<typeof MarkedRead>;

/** An hour of the day, 0–23, in the person's own time zone. */
const Hour = z.number().int().min(0).max(23);

export const NotificationSettings = z.object({
  /** Every kind, with the person's choice or the default. */
  email: z.object({
    announcement: EmailChoice,
    submission_graded: EmailChoice,
    feedback_released: EmailChoice,
    forum_reply: EmailChoice,
    extension: EmailChoice,
    deadline_soon: EmailChoice,
    quiz_opened: EmailChoice,
    member_added: EmailChoice,
  }),
  /** When the daily digest leaves, in `time_zone`. */
  digest_hour: Hour,
  /** The person's time zone for digests and reminders: their own choice, else the server's default. */
  time_zone: z.string(),
  /** Courses whose notifications send no e-mail (the bell still shows them). */
  muted_course_ids: z.array(z.number().int()),
  /** Set when the address refused mail for good: nothing is sent until the person saves the settings again. */
  email_refused_at: z.string().nullable(),
  /** Whether the server sends e-mail at all (SMTP set). */
  email_delivered: z.boolean(),
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;

export const NotificationSettingsUpdate = z
  .object({
    email: z.partialRecord(NotificationKind, EmailChoice).optional(),
    digest_hour: Hour.optional(),
    time_zone: timeZone().optional(),
    muted_course_ids: z.array(z.number().int().min(1).max(2_147_483_647)).max(500).optional(),
  })
  .strict();
export type NotificationSettingsUpdate = z.infer<typeof NotificationSettingsUpdate>;

/** Editors' choice for a course: whether its editors hear of new members (off by default). */
export const CourseNotificationSettings = z.object({ notify_editors_of_new_members: z.boolean() });
export type CourseNotificationSettings = z.infer<typeof CourseNotificationSettings>;

/** The body of an unsubscribe (RFC 8058 one-click posts `List-Unsubscribe=One-Click`). */
export const UnsubscribeResult = z.object({
  kind: NotificationKind.nullable(),
  /** What is now off: one kind, or a course's, or every e-mail (`all`). */
  scope: z.enum(['kind', 'course', 'all']),
});
export type UnsubscribeResult = z.infer<typeof UnsubscribeResult>;
