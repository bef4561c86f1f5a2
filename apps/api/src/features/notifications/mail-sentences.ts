import { personName, type Language, type NotificationFacts, type NotificationKind } from '@kadai/contracts';

/*
 * What a notification says in an e-mail, in the reader's language: its headline and the lines below it
 * (mail-templates.ts lays them out as text and HTML). Titles and names are what people typed: each is
 * written on one line here, and escaped by the HTML part.
 */

export interface MailNotification {
  id: number;
  kind: NotificationKind;
  courseId: number | null;
  courseTitle: string | null;
  /** The app's path of what it is about (`/course/3/forum/12`). */
  link: string;
  facts: NotificationFacts;
  createdAt: Date;
}

export interface MailReader {
  /** As `personName` writes it in the reader's language; empty when the account has no name. */
  name: string;
  language: Language;
  /** Dates are written in this zone, with its name. */
  timeZone: string;
}

export type Lang = 'ja' | 'en';
export const langOf = (language: Language): Lang => (language === 'en-US' ? 'en' : 'ja');

/** What people typed, on one line: a line break in a title must not start a line of the e-mail. */
export function oneLine(value: string): string {
  return value
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
}

export function shorten(value: string, max: number): string {
  const chars = [...value];
  return chars.length <= max ? value : `${chars.slice(0, max - 1).join('')}…`;
}

/** A date with its zone's name, as the reader reads dates: `2026年11月30日(月) 23:59 JST`. */
export function formatWhen(iso: string | Date | undefined, language: Language, zone: string): string | null {
  if (iso === undefined) return null;
  const at = iso instanceof Date ? iso : new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  return new Intl.DateTimeFormat(language === 'en-US' ? 'en-US' : 'ja-JP', {
    timeZone: zone,
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(at);
}

const score = (value: number) =>
  Number.isInteger(value) ? String(value) : value.toFixed(2).replace(/0+$/, '');

/** The kinds as a reader's sentence names them ("stop e-mails about …"). */
export const KIND_NAMES: Record<Lang, Record<NotificationKind, string>> = {
  ja: {
    announcement: 'お知らせ',
    submission_graded: '採点結果',
    feedback_released: 'フィードバックの公開',
    forum_reply: '投稿への返信',
    extension: '期限の延長',
    deadline_soon: '締め切りの通知',
    quiz_opened: '小テストの開始',
    member_added: 'コースの新しいメンバー',
  },
  en: {
    announcement: 'announcements',
    submission_graded: 'grading results',
    feedback_released: 'released feedback',
    forum_reply: 'replies to your posts',
    extension: 'extensions',
    deadline_soon: 'deadline reminders',
    quiz_opened: 'quizzes opening',
    member_added: 'new course members',
  },
};

/** What a notification says: a headline (the subject, a digest's line) and the lines below it. */
export interface Said {
  headline: string;
  details: string[];
}

export function say(n: MailNotification, reader: MailReader): Said {
  const lang = langOf(reader.language);
  const f = n.facts;
  const title = oneLine(f.title ?? '') || (lang === 'ja' ? '（無題）' : '(untitled)');
  const person = (p: NotificationFacts['actor']) => (p ? oneLine(personName(p, reader.language)) : '');
  const actor = person(f.actor);
  const when = formatWhen(f.due_at, reader.language, reader.timeZone);
  const scored =
    f.score !== undefined
      ? f.max_score !== undefined
        ? `${score(f.score)} / ${score(f.max_score)}`
        : score(f.score)
      : null;
  const by = (label: string) => (actor ? [`${label}${actor}`] : []);
  if (lang === 'ja') {
    switch (n.kind) {
      case 'announcement':
        return { headline: `お知らせ：${title}`, details: by('投稿者：') };
      case 'submission_graded':
        return { headline: `採点が終わりました：${title}`, details: scored ? [`得点：${scored}`] : [] };
      case 'feedback_released':
        return { headline: `フィードバックが公開されました：${title}`, details: by('担当：') };
      case 'forum_reply':
        return {
          headline: actor ? `${actor} さんが「${title}」に返信しました` : `「${title}」に返信がありました`,
          details: [],
        };
      case 'extension':
        return { headline: `期限が延長されました：${title}`, details: when ? [`新しい期限：${when}`] : [] };
      case 'deadline_soon':
        return { headline: `締め切りまで 24 時間です：${title}`, details: when ? [`締め切り：${when}`] : [] };
      case 'quiz_opened':
        return { headline: `小テストが始まりました：${title}`, details: when ? [`終了：${when}`] : [] };
      case 'member_added': {
        const role = f.role === 'editor' ? '編集者' : '学生';
        return {
          headline: `コースに${role}が加わりました：${person(f.member) || '（名前なし）'}`,
          details: [],
        };
      }
    }
  }
  switch (n.kind) {
    case 'announcement':
      return { headline: `Announcement: ${title}`, details: by('Posted by ') };
    case 'submission_graded':
      return { headline: `Graded: ${title}`, details: scored ? [`Score: ${scored}`] : [] };
    case 'feedback_released':
      return { headline: `Feedback released: ${title}`, details: by('From ') };
    case 'forum_reply':
      return { headline: actor ? `${actor} replied to "${title}"` : `New reply to "${title}"`, details: [] };
    case 'extension':
      return { headline: `Extension: ${title}`, details: when ? [`New due date: ${when}`] : [] };
    case 'deadline_soon':
      return { headline: `Due within 24 hours: ${title}`, details: when ? [`Due: ${when}`] : [] };
    case 'quiz_opened':
      return { headline: `Quiz open: ${title}`, details: when ? [`Closes: ${when}`] : [] };
    case 'member_added': {
      const role = f.role === 'editor' ? 'editor' : 'student';
      return { headline: `New ${role} in your course: ${person(f.member) || '(no name)'}`, details: [] };
    }
  }
}
