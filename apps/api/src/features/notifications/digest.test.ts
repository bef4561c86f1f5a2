import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Language, NotificationKind } from '@kadai/contracts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { startTestSmtpServer, type ReceivedEmail, type TestSmtpServer } from '../../../test/smtp-server.ts';
import { createCourse, createUser, type TestUser } from '../../../test/factories.ts';
import { users } from '../../db/schema.ts';
import { emailOutbox } from '../../db/schema-mail.ts';
import { notificationMutes, notificationProfiles, notifications } from '../../db/schema-notifications.ts';
import { startMailJobs } from '../mail/mail.jobs.ts';
import { DIGEST_LIST_LIMIT, sendDueDigests } from './digest.service.ts';
import { mailPendingNotifications } from './mail-delivery.service.ts';
import { links, notify } from './notify.service.ts';

/*
 * Daily digests on a clock the test sets (`now` of sendDueDigests), delivered to a real SMTP server:
 * one e-mail a day per person at their own hour in their own zone, grouping what waited for it.
 */

const to = (address: string) => (email: ReceivedEmail) => email.to.includes(address);
let keys = 0;

describe('daily digests', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  // Its SMTP pool keeps connections open: closed before the server, which would wait 30 s for them.
  let mail: { close: () => void };
  let algorithms: { id: number };
  let databases: { id: number };

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    t = await createTestApp({
      jobs: true,
      env: { SMTP_HOST: smtp.host, SMTP_PORT: String(smtp.port), DEFAULT_TIME_ZONE: 'Asia/Tokyo' },
    });
    mail = await startMailJobs(t.ctx);
    algorithms = await createCourse(t, { title: 'Algorithms' });
    databases = await createCourse(t, { title: 'Databases' });
  });
  afterAll(async () => {
    mail.close();
    await t.close();
    await smtp.close();
  });

  async function person(lang: Language, zone: string | null, digestHour = 8): Promise<TestUser> {
    const user = await createUser(t, { firstName: 'Ada', lastName: 'Byron' });
    await t.ctx.db.update(users).set({ displayLang: lang }).where(eq(users.id, user.id));
    // No zone: no profile row at all, so the defaults (DEFAULT_TIME_ZONE, 08:00) apply.
    if (zone)
      await t.ctx.db.insert(notificationProfiles).values({ userId: user.id, timeZone: zone, digestHour });
    return user;
  }

  /** A notification that waits for the digest, made at `at` (the mailer has decided it). */
  async function waiting(
    user: TestUser,
    at: string,
    fields: { kind?: NotificationKind; course?: { id: number }; title: string },
  ): Promise<number> {
    const kind = fields.kind ?? 'forum_reply';
    const course = fields.course ?? algorithms;
    const eventKey = `${kind}:${keys++}`;
    await t.ctx.db.transaction((tx) =>
      notify(tx, {
        kind,
        key: eventKey,
        courseId: course.id,
        link: links.forumRecord(course.id, keys),
        facts: { title: fields.title },
        to: { users: [user.id] },
      }),
    );
    await mailPendingNotifications(t.ctx);
    const [row] = await t.ctx.db
      .update(notifications)
      .set({ createdAt: new Date(at) })
      .where(eq(notifications.eventKey, eventKey))
      .returning();
    expect(row?.mailState).toBe('digest');
    return row!.id;
  }

  const digestsTo = (user: TestUser) =>
    t.ctx.db.select().from(emailOutbox).where(eq(emailOutbox.toUserId, user.id));

  const statesOf = async (ids: number[]) =>
    (await t.ctx.db.select().from(notifications).where(inArray(notifications.id, ids)))
      .sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id))
      .map((row) => row.mailState);

  const profileOf = async (user: TestUser) =>
    (await t.ctx.db.select().from(notificationProfiles).where(eq(notificationProfiles.userId, user.id)))[0];

  it('sends each person one digest at 08:00 of their own zone, dated their own day, across a day change', async () => {
    const tokyo = await person('ja', 'Asia/Tokyo');
    const losAngeles = await person('en-US', 'America/Los_Angeles');
    const byDefault = await person('ja', null);
    // 18:00 UTC on 29 November: 03:00 on the 30th in Tokyo, 10:00 on the 29th in Los Angeles.
    const made: Record<number, number[]> = {};
    for (const user of [tokyo, losAngeles, byDefault]) {
      made[user.id] = [
        await waiting(user, '2026-11-29T17:00:00Z', { title: 'First reply' }),
        await waiting(user, '2026-11-29T18:00:00Z', {
          kind: 'submission_graded',
          course: databases,
          title: 'Joins',
        }),
        await waiting(user, '2026-11-29T18:30:00Z', { title: 'Second reply' }),
        await waiting(user, '2026-11-29T18:40:00Z', { title: 'Already read' }),
      ];
      await t.ctx.db
        .update(notifications)
        .set({ readAt: new Date() })
        .where(eq(notifications.id, made[user.id]![3]!));
    }

    // A minute before 08:00 in Tokyo: nobody's digest is due.
    expect(await sendDueDigests(t.ctx, new Date('2026-11-29T22:59:00Z'))).toEqual({ digests: 0, people: 0 });
    // 08:00 in Tokyo (the default zone too). In Los Angeles it is 15:00 on the 29th, but its 08:00 came
    // before these events: they wait for the next day's.
    expect(await sendDueDigests(t.ctx, new Date('2026-11-29T23:00:00Z'))).toEqual({ digests: 2, people: 2 });
    // Run again, twice at once, a quarter later: each person's digest of the day is written once.
    const again = await Promise.all([
      sendDueDigests(t.ctx, new Date('2026-11-29T23:15:00Z')),
      sendDueDigests(t.ctx, new Date('2026-11-29T23:15:00Z')),
    ]);
    expect(again).toEqual([
      { digests: 0, people: 0 },
      { digests: 0, people: 0 },
    ]);
    for (const user of [tokyo, byDefault]) {
      const [digest, ...others] = await digestsTo(user);
      expect(others).toEqual([]);
      expect(digest).toMatchObject({ kind: 'digest', dedupeKey: `digest:${user.id}:2026-11-30`, lang: 'ja' });
      expect(await statesOf(made[user.id]!)).toEqual(['sent', 'sent', 'sent', 'skipped']);
      expect((await profileOf(user))?.lastDigestOn).toBe('2026-11-30');
    }
    expect(await digestsTo(losAngeles)).toEqual([]);

    const inTokyo = await smtp.waitFor(to(tokyo.email));
    expect(inTokyo.subject).toBe('【Kadai】通知のまとめ（3 件）');
    // Grouped by course (the course of the newest first), newest first within each; the read one left out.
    const order = ['■ Algorithms', 'Second reply', 'First reply', '■ Databases', 'Joins'];
    const positions = order.map((text) => inTokyo.text.indexOf(text));
    expect(
      positions.every((p) => p >= 0),
      inTokyo.text,
    ).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(inTokyo.text).not.toContain('Already read');
    expect(inTokyo.text).toContain('2026年11月30日(月) 03:30 JST');
    expect(inTokyo.html).toContain(
      '<p style="font-size:16px;font-weight:600;margin:20px 0 4px">Algorithms</p>',
    );
    expect(inTokyo.headers['list-unsubscribe']).toMatch(
      /^<http:\/\/lms\.test\/api\/Notification\/unsubscribe\/\?token=[\w.-]+>$/,
    );
    expect(inTokyo.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

    // 08:00 on the 30th in Los Angeles (16:00 UTC): 01:00 on 1 December in Tokyo, nothing due there.
    expect(await sendDueDigests(t.ctx, new Date('2026-11-30T16:00:00Z'))).toEqual({ digests: 1, people: 1 });
    const [digest] = await digestsTo(losAngeles);
    expect(digest).toMatchObject({ dedupeKey: `digest:${losAngeles.id}:2026-11-30`, lang: 'en-US' });
    const inLosAngeles = await smtp.waitFor(to(losAngeles.email));
    expect(inLosAngeles.subject).toBe('[Kadai] Your daily summary: 3 new notifications');
    expect(inLosAngeles.text).toContain('Dear Ada Byron,');
    expect(inLosAngeles.text).toContain('Sun, Nov 29, 2026, 10:30 AM PST');
    expect(smtp.messages.filter(to(tokyo.email))).toHaveLength(1);
  });

  it("takes the next day's events into the next day's digest, and none for a day with nothing", async () => {
    const user = await person('en-US', 'UTC', 9);
    const first = await waiting(user, '2026-12-01T08:00:00Z', { title: 'Monday' });
    expect(await sendDueDigests(t.ctx, new Date('2026-12-01T09:00:00Z'))).toEqual({ digests: 1, people: 1 });
    // Made after today's hour: tomorrow's.
    const second = await waiting(user, '2026-12-01T10:00:00Z', { title: 'Monday evening' });
    expect(await sendDueDigests(t.ctx, new Date('2026-12-01T23:59:00Z'))).toEqual({ digests: 0, people: 0 });
    expect(await sendDueDigests(t.ctx, new Date('2026-12-02T09:05:00Z'))).toEqual({ digests: 1, people: 1 });
    expect(await statesOf([first, second])).toEqual(['sent', 'sent']);
    expect((await digestsTo(user)).map((e) => e.dedupeKey)).toEqual([
      `digest:${user.id}:2026-12-01`,
      `digest:${user.id}:2026-12-02`,
    ]);
    expect(await sendDueDigests(t.ctx, new Date('2026-12-03T09:05:00Z'))).toEqual({ digests: 0, people: 0 });
  });

  it('lists the newest 50 and counts the rest; sends none when all was read, muted or turned off meanwhile', async () => {
    const busy = await person('ja', 'Asia/Tokyo');
    const ids: number[] = [];
    for (let i = 0; i < DIGEST_LIST_LIMIT + 3; i++) {
      ids.push(
        await waiting(busy, `2026-12-05T0${Math.floor(i / 10)}:${String(i % 10).padStart(2, '0')}:00Z`, {
          title: `Reply ${i}`,
        }),
      );
    }
    const quiet = await person('ja', 'Asia/Tokyo');
    const muted = await waiting(quiet, '2026-12-05T01:00:00Z', { title: 'In a muted course' });
    const off = await waiting(quiet, '2026-12-05T01:00:00Z', {
      kind: 'extension',
      course: databases,
      title: 'Turned off',
    });
    await t.ctx.db.insert(notificationMutes).values({ userId: quiet.id, courseId: algorithms.id });
    await t.ctx.db
      .update(notificationProfiles)
      .set({ email: { extension: 'off' } })
      .where(eq(notificationProfiles.userId, quiet.id));

    // 08:00 on 6 December in Tokyo.
    expect(await sendDueDigests(t.ctx, new Date('2026-12-05T23:00:00Z'))).toEqual({ digests: 1, people: 2 });
    const email = await smtp.waitFor(to(busy.email));
    expect(email.subject).toBe(`【Kadai】通知のまとめ（${DIGEST_LIST_LIMIT + 3} 件）`);
    expect(email.text).toContain('「Reply 52」');
    expect(email.text).toContain('「Reply 3」');
    expect(email.text).not.toContain('「Reply 2」');
    expect(email.text).toContain('ほか 3 件はアプリで確認できます：http://lms.test/notifications');
    expect(new Set(await statesOf(ids))).toEqual(new Set(['sent']));

    expect(await statesOf([muted, off])).toEqual(['skipped', 'skipped']);
    expect(await digestsTo(quiet)).toEqual([]);
    expect((await profileOf(quiet))?.lastDigestOn).toBe('2026-12-06');
  });
});
