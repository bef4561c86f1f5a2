import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CalendarFeed, CalendarEntryKind } from '@kadai/contracts';
import type { Config } from '../../config.ts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import { collectEntries, type Entry } from './entries.ts';
import * as feeds from './feed.repo.ts';
import { findRenderedFeed, keepRenderedFeed } from './feed-cache.ts';
import { renderCalendar, type IcalEvent } from './ical.ts';

/**
 * The private calendar feed (docs/calendar.md, "Subscription"). Its URL holds
 * `{userId}.{version}.{mac}`, the mac an HMAC-SHA256 of "calendar-feed:{userId}:{version}" under a key
 * derived from JWT_SECRET for this purpose alone. Nothing is stored but the version: resetting bumps it,
 * and every URL made with an older version stops working at once.
 */
const KEY_LABEL = 'kadai/calendar-feed/v1';
const DAY_MS = 86_400_000;
/** What a feed holds: the last 90 days and the coming year. */
export const FEED_DAYS_BEFORE = 90;
export const FEED_DAYS_AFTER = 365;
/** Calendar apps are asked to fetch again after this many minutes (Google decides for itself). */
export const FEED_REFRESH_MINUTES = 60;

const keys = new Map<string, Buffer>();
function feedKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = createHmac('sha256', secret).update(KEY_LABEL).digest();
    keys.set(secret, key);
  }
  return key;
}

const macOf = (secret: string, userId: number, version: number) =>
  createHmac('sha256', feedKey(secret)).update(`calendar-feed:${userId}:${version}`).digest();

export function feedToken(secret: string, userId: number, version: number): string {
  return `${userId}.${version}.${macOf(secret, userId, version).toString('base64url')}`;
}

const FILE = /^([1-9]\d{0,9})\.([1-9]\d{0,9})\.([A-Za-z0-9_-]{43})\.ics$/;

/** The user and version a feed file name (`<token>.ics`) was made for, when its mac is right. */
export function parseFeedFile(secret: string, file: string): { userId: number; version: number } | null {
  const match = FILE.exec(file);
  if (!match) return null;
  const userId = Number(match[1]);
  const version = Number(match[2]);
  if (userId > 2_147_483_647 || version > 2_147_483_647) return null;
  const given = Buffer.from(match[3]!, 'base64url');
  const expected = macOf(secret, userId, version);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { userId, version };
}

function toFeed(config: Config, userId: number, feed: feeds.FeedVersion): CalendarFeed {
  const url = `${config.publicUrl}/api/calendar/${feedToken(config.JWT_SECRET, userId, feed.version)}.ics`;
  return {
    url,
    webcal_url: url.replace(/^https?:/, 'webcal:'),
    reset_at: feed.resetAt.toISOString(),
  };
}

export async function getFeed(ctx: AppContext, actor: Actor): Promise<CalendarFeed> {
  return toFeed(ctx.config, actor.userId, await feeds.ensureFeed(ctx.db, actor.userId));
}

export async function resetFeed(ctx: AppContext, actor: Actor): Promise<CalendarFeed> {
  return toFeed(ctx.config, actor.userId, await feeds.bumpFeed(ctx.db, actor.userId));
}

/* ─── The .ics file ──────────────────────────────────────────────────────────────────────────── */

type Words = {
  calendarName: (product: string) => string;
  calendarDescription: (product: string) => string;
  summary: Partial<Record<CalendarEntryKind, (title: string) => string>>;
  category: Record<CalendarEntryKind, string>;
  timeLimit: (minutes: number) => string;
  open: (product: string) => string;
};

const EN: Words = {
  calendarName: (product) => `${product}: my courses`,
  calendarDescription: (product) => `Events, deadlines and quiz windows of your courses in ${product}.`,
  summary: {
    assignment_due: (title) => `Due: ${title}`,
    assignment_late: (title) => `Late submissions close: ${title}`,
    quiz_window: (title) => `Quiz: ${title}`,
  },
  category: {
    lecture: 'Lecture',
    exam: 'Exam',
    office_hours: 'Office hours',
    deadline: 'Deadline',
    other: 'Event',
    assignment_due: 'Assignment',
    assignment_late: 'Assignment',
    quiz_window: 'Quiz',
  },
  timeLimit: (minutes) => `Time limit: ${minutes} min`,
  open: (product) => `Open in ${product}:`,
};

const JA: Words = {
  calendarName: (product) => `${product}：受講・担当コース`,
  calendarDescription: (product) => `${product} のコースの予定、締切、小テストの受験期間です。`,
  summary: {
    assignment_due: (title) => `締切：${title}`,
    assignment_late: (title) => `遅延提出の受付終了：${title}`,
    quiz_window: (title) => `小テスト：${title}`,
  },
  category: {
    lecture: '講義',
    exam: '試験',
    office_hours: 'オフィスアワー',
    deadline: '締切',
    other: '予定',
    assignment_due: '課題',
    assignment_late: '課題',
    quiz_window: '小テスト',
  },
  timeLimit: (minutes) => `制限時間：${minutes} 分`,
  open: (product) => `${product} で開く：`,
};

/** The page of an entry in the web app. */
export function entryPath(entry: Entry): string {
  const course = `/course/${entry.courseId}`;
  if (entry.source === 'assignment') return `${course}/assignment/${entry.assignmentId}`;
  if (entry.source === 'quiz') return `${course}/quizzes/${entry.quizId}/quiz-courses/${entry.quizCourseId}`;
  return `${course}/calendar?event=${entry.eventId}`;
}

const BUSY_KINDS: ReadonlySet<CalendarEntryKind> = new Set(['lecture', 'exam', 'office_hours']);

function toIcalEvent(entry: Entry, config: Config, words: Words, host: string): IcalEvent {
  const url = `${config.publicUrl}${entryPath(entry)}`;
  const summary = words.summary[entry.kind]?.(entry.title) ?? entry.title;
  const description = [
    entry.description.trim(),
    entry.timeLimitMinutes === null ? '' : words.timeLimit(entry.timeLimitMinutes),
    `${words.open(config.PRODUCT_NAME)} ${url}`,
  ]
    .filter(Boolean)
    .join('\n\n');
  return {
    uid: `${entry.key}@${host}`,
    start: entry.startsAt,
    end: entry.endsAt,
    allDay: entry.allDay,
    summary: `[${entry.courseTitle}] ${summary}`,
    description,
    location: entry.location,
    url,
    categories: [words.category[entry.kind]],
    busy: BUSY_KINDS.has(entry.kind),
  };
}

/**
 * The feed of the file name's owner: every course they edit or study (staff: only those too, not every
 * course), as each course's calendar shows it to them. An unknown, reset or forged name is 404.
 */
export async function renderFeed(ctx: AppContext, file: string, now: Date = new Date()): Promise<string> {
  const parsed = parseFeedFile(ctx.config.JWT_SECRET, file);
  if (!parsed) throw notFound();
  const owner = await feeds.findFeedOwner(ctx.db, parsed.userId);
  if (!owner || owner.version !== parsed.version) throw notFound();

  const cacheKey = `${owner.userId}:${owner.version}`;
  const cached = findRenderedFeed(ctx.db, cacheKey, now.getTime());
  if (cached !== null) return cached;

  const courses = await feeds.listMemberCourses(ctx.db, owner.userId);
  const managed = courses.filter((c) => c.isEditor || owner.isStaff).map((c) => c.courseId);
  const studied = courses.filter((c) => !c.isEditor && !owner.isStaff).map((c) => c.courseId);
  const range = {
    from: new Date(now.getTime() - FEED_DAYS_BEFORE * DAY_MS),
    to: new Date(now.getTime() + FEED_DAYS_AFTER * DAY_MS),
  };
  const { entries } = await collectEntries(ctx.db, { managed, studied, readerId: owner.userId }, range);
  const words = owner.displayLang === 'ja' ? JA : EN;
  const host = new URL(ctx.config.publicUrl).hostname;
  const body = renderCalendar({
    prodId: `-//${ctx.config.PRODUCT_NAME}//Calendar feed//EN`,
    name: words.calendarName(ctx.config.PRODUCT_NAME),
    description: words.calendarDescription(ctx.config.PRODUCT_NAME),
    refreshMinutes: FEED_REFRESH_MINUTES,
    stamp: now,
    events: entries.map((entry) => toIcalEvent(entry, ctx.config, words, host)),
  });
  keepRenderedFeed(ctx.db, cacheKey, body, now.getTime());
  return body;
}
