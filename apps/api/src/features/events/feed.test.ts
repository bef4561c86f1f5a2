import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { eq } from 'drizzle-orm';
import { CalendarFeed } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addEditor, addStudent, createCourse, createUser, tokenFor } from '../../../test/factories.ts';
import { users } from '../../db/schema.ts';
import { insertAssignment } from '../assignments/testing.ts';
import { feedToken } from './feed.service.ts';
import { insertEvent, insertQuizWindow } from './testing.ts';

const HOUR = 3600_000;
const DAY_MS = 24 * HOUR;
/** A moment `hours` from now at a whole second, as iCalendar writes times. */
const at = (hours: number) => new Date(Math.floor((Date.now() + hours * HOUR) / 1000) * 1000);
/** 00:00 UTC `days` from today: the date of an all-day event. */
const dayStart = (days: number) => new Date(Math.floor(Date.now() / DAY_MS + days) * DAY_MS);

const LONG_JAPANESE =
  '第十二回 期末試験：アルゴリズムとデータ構造（ソート、探索、グラフ、動的計画法）の総まとめと解説。持ち物は学生証と筆記用具';

function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
  return { calendar, events, bySummary: (part: string) => events.filter((e) => e.summary.includes(part)) };
}

describe('calendar feed', () => {
  let t: TestApp;
  let owner: { id: number };
  let tok: { owner: string; editor: string };
  let course: { studied: { id: number; title: string }; edited: { id: number; title: string } };
  let times: { lecture: Date; lectureEnd: Date; due: Date; late: Date; opens: Date; closes: Date };
  let ids: { event: number; opened: number; quiz: number; quizCourse: number };

  beforeAll(async () => {
    t = await createTestApp();
    const studied = await createCourse(t, { title: 'Python, Part I; basics' });
    const edited = await createCourse(t, { title: 'アルゴリズム入門' });
    const foreign = await createCourse(t, { title: 'Foreign' });
    course = { studied, edited };
    owner = await createUser(t);
    // New accounts read Japanese; the owner reads English until the test of languages says otherwise.
    await t.ctx.db.update(users).set({ displayLang: 'en-US' }).where(eq(users.id, owner.id));
    const editor = await createUser(t);
    await addStudent(t, studied.id, owner.id);
    await addEditor(t, edited.id, owner.id);
    await addEditor(t, studied.id, editor.id);
    tok = { owner: await tokenFor(t, owner), editor: await tokenFor(t, editor) };
    times = {
      lecture: at(24),
      lectureEnd: at(25.5),
      due: at(72),
      late: at(96),
      opens: at(48),
      closes: at(49),
    };

    const event = await insertEvent(t, {
      courseId: studied.id,
      title: 'Lecture, part 1; review \\ recap',
      description: 'Read chapter 2.\nBring a laptop, charger; and notes.',
      location: 'Room 101, Building A',
      startsAt: times.lecture,
      endsAt: times.lectureEnd,
    });
    await insertEvent(t, {
      courseId: edited.id,
      title: LONG_JAPANESE,
      kind: 'exam',
      allDay: true,
      startsAt: dayStart(10),
      endsAt: dayStart(11),
    });
    await insertEvent(t, {
      courseId: studied.id,
      title: 'Too far ahead',
      startsAt: at(400 * 24),
      endsAt: at(401 * 24),
    });
    await insertEvent(t, {
      courseId: studied.id,
      title: 'Too long ago',
      startsAt: at(-100 * 24),
      endsAt: at(-99 * 24),
    });
    await insertEvent(t, { courseId: foreign.id, title: 'Not mine' });
    const opened = await insertAssignment(t, {
      title: 'Opened assignment',
      courses: [{ courseId: studied.id, dueAt: times.due, lateUntil: times.late }],
    });
    await insertAssignment(t, {
      title: 'Unopened where I study',
      courses: [{ courseId: studied.id, opensAt: at(24), dueAt: at(120) }],
    });
    await insertAssignment(t, {
      title: 'Unopened where I edit',
      courses: [{ courseId: edited.id, opensAt: at(24), dueAt: at(120) }],
    });
    const quiz = await insertQuizWindow(t, {
      courseId: studied.id,
      title: 'Quiz 1',
      opensAt: times.opens,
      closesAt: times.closes,
      timeLimitMinutes: 20,
    });
    ids = { event: event.id, opened: opened.id, quiz: quiz.quiz.id, quizCourse: quiz.quizCourse.id };
  });
  afterAll(() => t.close());

  const feedOf = async (token: string) => {
    const res = await call(t, 'GET', '/api/Calendar/feed/', { token });
    expect(res.status).toBe(200);
    return CalendarFeed.parse(res.body);
  };
  const fetchFeed = (url: string) => t.app.inject({ method: 'GET', url: new URL(url).pathname });

  it('gives each user a stable private URL under PUBLIC_URL', async () => {
    const first = await feedOf(tok.owner);
    expect(first.url).toMatch(
      new RegExp(`^http://lms\\.test/api/calendar/${owner.id}\\.1\\.[\\w-]{43}\\.ics$`),
    );
    expect(first.webcal_url).toBe(first.url.replace('http:', 'webcal:'));
    expect((await feedOf(tok.owner)).url).toBe(first.url);
    expect((await feedOf(tok.editor)).url).not.toBe(first.url);
  });

  it('serves RFC 5545 text that ical.js reads: calendar properties, CRLF, folded lines', async () => {
    const response = await fetchFeed((await feedOf(tok.owner)).url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(response.headers['cache-control']).toBe('private, max-age=300');
    expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
    const text = response.body;
    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);

    const { calendar } = parse(text);
    expect(calendar.name).toBe('vcalendar');
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toBe('-//Kadai//Calendar feed//EN');
    expect(calendar.getFirstPropertyValue('calscale')).toBe('GREGORIAN');
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Kadai: my courses');
    expect(String(calendar.getFirstPropertyValue('refresh-interval'))).toBe('PT1H');
    expect(calendar.getFirstPropertyValue('x-published-ttl')).toBe('PT1H');
  });

  it("holds the events, deadlines and quiz windows of the owner's courses, as each course shows them", async () => {
    const { events } = parse((await fetchFeed((await feedOf(tok.owner)).url)).body);
    const summaries = events.map((e) => e.summary).sort();
    expect(summaries).toEqual(
      [
        '[Python, Part I; basics] Lecture, part 1; review \\ recap',
        `[アルゴリズム入門] ${LONG_JAPANESE}`,
        '[Python, Part I; basics] Due: Opened assignment',
        '[Python, Part I; basics] Late submissions close: Opened assignment',
        '[Python, Part I; basics] Quiz: Quiz 1',
        // Editors see assignments before they open; students (the owner in Python I) do not.
        '[アルゴリズム入門] Due: Unopened where I edit',
      ].sort(),
    );
    for (const event of events) {
      expect(event.uid).toMatch(/@lms\.test$/);
      expect(event.component.getFirstPropertyValue('dtstamp')).toBeTruthy();
    }
    expect(new Set(events.map((e) => e.uid)).size).toBe(events.length);
  });

  it('writes times in UTC, dates for all-day events, and escapes text that ical.js reads back', async () => {
    const { bySummary } = parse((await fetchFeed((await feedOf(tok.owner)).url)).body);
    const [lecture] = bySummary('Lecture');
    expect(lecture!.startDate.isDate).toBe(false);
    expect(lecture!.startDate.zone?.tzid).toBe('UTC');
    expect(lecture!.startDate.toJSDate().getTime()).toBe(times.lecture.getTime());
    expect(lecture!.endDate.toJSDate().getTime()).toBe(times.lectureEnd.getTime());
    expect(lecture!.location).toBe('Room 101, Building A');
    expect(lecture!.description).toBe(
      `Read chapter 2.\nBring a laptop, charger; and notes.\n\nOpen in Kadai: http://lms.test/course/${course.studied.id}/calendar?event=${ids.event}`,
    );
    expect(lecture!.component.getFirstPropertyValue('categories')).toBe('Lecture');

    const [exam] = bySummary('期末試験');
    expect(exam!.summary).toBe(`[アルゴリズム入門] ${LONG_JAPANESE}`);
    expect(exam!.startDate.isDate).toBe(true);
    expect(exam!.startDate.toString()).toBe(dayStart(10).toISOString().slice(0, 10));
    // Last day included in the API; DTEND of dates is the day after.
    expect(exam!.endDate.toString()).toBe(dayStart(12).toISOString().slice(0, 10));

    const [due] = bySummary('Due: Opened');
    expect(due!.startDate.toJSDate().getTime()).toBe(times.due.getTime());
    expect(due!.component.hasProperty('dtend')).toBe(false);
    expect(due!.description).toContain(
      `http://lms.test/course/${course.studied.id}/assignment/${ids.opened}`,
    );
    const [quiz] = bySummary('Quiz 1');
    expect(quiz!.startDate.toJSDate().getTime()).toBe(times.opens.getTime());
    expect(quiz!.endDate.toJSDate().getTime()).toBe(times.closes.getTime());
    expect(quiz!.description).toBe(
      `Time limit: 20 min\n\nOpen in Kadai: http://lms.test/course/${course.studied.id}/quizzes/${ids.quiz}/quiz-courses/${ids.quizCourse}`,
    );
  });

  it('folds a long Japanese summary at 75 octets without splitting a character', async () => {
    const text = (await fetchFeed((await feedOf(tok.owner)).url)).body;
    const lines = text.split('\r\n');
    const start = lines.findIndex((line) => line.startsWith('SUMMARY:[アルゴリズム入門] 第十二回'));
    expect(start).toBeGreaterThan(-1);
    const folded = [lines[start]!];
    for (let i = start + 1; lines[i]!.startsWith(' '); i++) folded.push(lines[i]!);
    expect(folded.length).toBeGreaterThan(2);
    for (const line of folded) {
      expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
      expect(line).not.toContain('\uFFFD');
    }
    expect(folded.map((line, i) => (i === 0 ? line : line.slice(1))).join('')).toBe(
      `SUMMARY:[アルゴリズム入門] ${LONG_JAPANESE}`,
    );
  });

  it("speaks the owner's language", async () => {
    await t.ctx.db.update(users).set({ displayLang: 'ja' }).where(eq(users.id, owner.id));
    try {
      // A new version, so the copy rendered in English is not served from the cache.
      const res = await call(t, 'POST', '/api/Calendar/feed/reset/', { token: tok.owner });
      const { calendar, events } = parse((await fetchFeed(CalendarFeed.parse(res.body).url)).body);
      expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Kadai：受講・担当コース');
      expect(events.map((e) => e.summary)).toContain('[Python, Part I; basics] 締切：Opened assignment');
      expect(events.map((e) => e.summary)).toContain('[Python, Part I; basics] 小テスト：Quiz 1');
    } finally {
      await t.ctx.db.update(users).set({ displayLang: 'en-US' }).where(eq(users.id, owner.id));
    }
  });

  it('shows a new event at once', async () => {
    const url = (await feedOf(tok.owner)).url;
    await fetchFeed(url);
    const created = await call(t, 'POST', `/api/Event/${course.studied.id}/`, {
      token: tok.editor,
      body: { title: 'Extra session', starts_at: at(30).toISOString(), ends_at: at(31).toISOString() },
    });
    expect(created.status).toBe(201);
    const { bySummary } = parse((await fetchFeed(url)).body);
    expect(bySummary('Extra session')).toHaveLength(1);
  });

  it('reset gives a new URL and kills the old one at once', async () => {
    const old = await feedOf(tok.owner);
    expect((await fetchFeed(old.url)).statusCode).toBe(200);
    const res = await call(t, 'POST', '/api/Calendar/feed/reset/', { token: tok.owner });
    expect(res.status).toBe(200);
    const fresh = CalendarFeed.parse(res.body);
    expect(fresh.url).not.toBe(old.url);
    expect(Date.parse(fresh.reset_at)).toBeGreaterThanOrEqual(Date.parse(old.reset_at));
    const dead = await fetchFeed(old.url);
    expect(dead.statusCode).toBe(404);
    expect(JSON.parse(dead.body)).toEqual({ detail: 'Not found.', code: 'not_found' });
    expect((await fetchFeed(fresh.url)).statusCode).toBe(200);
    expect((await feedOf(tok.owner)).url).toBe(fresh.url);
    // The reset is the owner's alone: another user's URL still works.
    expect((await fetchFeed((await feedOf(tok.editor)).url)).statusCode).toBe(200);
  });

  it('answers 404 to forged, malformed, unknown and disabled feed URLs', async () => {
    const good = new URL((await feedOf(tok.owner)).url).pathname;
    const [userId, version, mac] = good.split('/').pop()!.replace('.ics', '').split('.');
    const secret = t.config.JWT_SECRET;
    const stranger = await createUser(t);
    const paths = [
      '/api/calendar/nothing.ics',
      '/api/calendar/.ics',
      good.replace('.ics', ''),
      good.replace('.ics', '.json'),
      `/api/calendar/${userId}.${version}.${'A'.repeat(43)}.ics`,
      `/api/calendar/${stranger.id}.${version}.${mac}.ics`,
      `/api/calendar/${userId}.${Number(version) + 1}.${mac}.ics`,
      // A right mac for a version that was never made, or for a user who never asked for a feed.
      `/api/calendar/${feedToken(secret, Number(userId), Number(version) + 5)}.ics`,
      `/api/calendar/${feedToken(secret, stranger.id, 1)}.ics`,
      `/api/calendar/${feedToken(secret, 999_999, 1)}.ics`,
      `/api/calendar/${feedToken('another-secret-that-is-long-enough-0123456789', Number(userId), Number(version))}.ics`,
      `/api/calendar/0.1.${mac}.ics`,
      `/api/calendar/${'9'.repeat(12)}.1.${mac}.ics`,
      `/api/calendar/${'x'.repeat(300)}.ics`,
    ];
    for (const path of paths) {
      const res = await t.app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(404);
    }
    await t.ctx.db.update(users).set({ isActive: false }).where(eq(users.id, owner.id));
    try {
      expect((await t.app.inject({ method: 'GET', url: good })).statusCode).toBe(404);
    } finally {
      await t.ctx.db.update(users).set({ isActive: true }).where(eq(users.id, owner.id));
    }
  });
});
