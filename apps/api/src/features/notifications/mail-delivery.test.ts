import { and, eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnsubscribeResult, type Language, type NotificationKind } from '@kadai/contracts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { startTestSmtpServer, type ReceivedEmail, type TestSmtpServer } from '../../../test/smtp-server.ts';
import {
  addEditor,
  addStudent,
  createCourse,
  createUser,
  tokenFor,
  type TestUser,
} from '../../../test/factories.ts';
import { users } from '../../db/schema.ts';
import { emailOutbox } from '../../db/schema-mail.ts';
import { notificationMutes, notificationProfiles, notifications } from '../../db/schema-notifications.ts';
import { postRecord } from '../forum/testing.ts';
import { startMailJobs, type DeliveryOutcome } from '../mail/mail.jobs.ts';
import { mailPendingNotifications } from './mail-delivery.service.ts';
import { startNotificationMailJobs } from './mail-jobs.ts';
import { links, notify, type NotificationEvent } from './notify.service.ts';

/*
 * The mailer against a real SMTP server (apps/api/test/smtp-server.ts): who gets what, in which language,
 * with which headers, and exactly once however many mailers run.
 */

const to = (address: string) => (email: ReceivedEmail) => email.to.includes(address);
const ONE_CLICK = /^<(http:\/\/lms\.test\/api\/Notification\/unsubscribe\/\?token=[\w.-]+)>$/;

let keys = 0;
const key = (prefix: string) => `${prefix}:${Date.now().toString(36)}:${keys++}`;

describe('notification e-mails over SMTP', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let second: TestApp;
  // Its SMTP pool keeps connections open: closed before the server, which would wait 30 s for them.
  let mail: { close: () => void };
  const outcomes: { id: number; outcome: DeliveryOutcome }[] = [];

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    const env = { SMTP_HOST: smtp.host, SMTP_PORT: String(smtp.port), SMTP_RETRY_DELAY: '1' };
    t = await createTestApp({ jobs: true, env });
    // Another API instance on the same database, as behind a load balancer.
    second = await createTestApp({ jobs: true, env, sameDatabaseAs: t });
    mail = await startMailJobs(t.ctx, { onDelivered: (id, outcome) => outcomes.push({ id, outcome }) });
  });
  afterAll(async () => {
    mail.close();
    await second.close();
    await t.close();
    await smtp.close();
  });

  async function person(
    fields: { lang?: Language; firstName?: string; lastName?: string; isActive?: boolean } = {},
  ): Promise<TestUser> {
    const user = await createUser(t, {
      firstName: fields.firstName ?? 'Test',
      lastName: fields.lastName ?? 'Student',
      isActive: fields.isActive,
    });
    await t.ctx.db
      .update(users)
      .set({ displayLang: fields.lang ?? 'ja' })
      .where(eq(users.id, user.id));
    return user;
  }

  const tell = (event: Omit<NotificationEvent, 'key'> & { key?: string }) =>
    t.ctx.db.transaction((tx) => notify(tx, { key: key(event.kind), ...event }));

  const rowsOf = (userIds: number[]) =>
    t.ctx.db.select().from(notifications).where(inArray(notifications.userId, userIds));

  const emailsTo = (userIds: number[]) =>
    t.ctx.db.select().from(emailOutbox).where(inArray(emailOutbox.toUserId, userIds));

  /** Until every e-mail of the outbox has left (sent or failed) and the SMTP server has them. */
  async function settled(): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const pending = await t.ctx.db.select().from(emailOutbox).where(eq(emailOutbox.status, 'pending'));
      if (pending.length === 0) return;
      if (Date.now() > deadline) throw new Error(`still pending: ${pending.map((e) => e.id).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it("e-mails an announcement at once to each student, in the student's language, text and HTML", async () => {
    const course = await createCourse(t, { title: 'Algorithms & <Data>' });
    const hina = await person({ lang: 'ja', firstName: '陽菜', lastName: '鈴木' });
    const ada = await person({ lang: 'en-US', firstName: 'Ada', lastName: 'Byron' });
    for (const user of [hina, ada]) await addStudent(t, course.id, user.id);
    const title = 'Week 3 <script>alert(1)</script> moved';
    expect(
      await tell({
        kind: 'announcement',
        courseId: course.id,
        link: links.forumRecord(course.id, 12),
        facts: { title },
        to: { students: course.id },
      }),
    ).toBe(2);

    expect(await mailPendingNotifications(t.ctx)).toMatchObject({ decided: 2, emailed: 2 });
    const ja = await smtp.waitFor(to(hina.email));
    const en = await smtp.waitFor(to(ada.email));

    expect(ja.subject).toBe(`【Kadai】お知らせ：${title}`);
    expect(ja.text).toContain('鈴木 陽菜 様');
    expect(ja.text).toContain('コース：Algorithms & <Data>');
    expect(en.subject).toBe(`[Kadai] Announcement: ${title}`);
    expect(en.text).toContain('Dear Ada Byron,');
    expect(en.text).toContain('Course: Algorithms & <Data>');
    for (const email of [ja, en]) {
      expect(email.headers.from).toBe('Kadai <no-reply@localhost>');
      expect(email.headers['auto-submitted']).toBe('auto-generated');
      expect(email.text).toContain(`http://lms.test/course/${course.id}/forum/12`);
      expect(email.text).toContain('http://lms.test/notifications/settings');
      expect(email.text).toMatch(/http:\/\/lms\.test\/unsubscribe\?token=[\w.-]+/);
      expect(email.html).toContain(`href="http://lms.test/course/${course.id}/forum/12"`);
      expect(email.html).toContain('Week 3 &lt;script&gt;alert(1)&lt;/script&gt; moved');
      expect(email.html).toContain('Algorithms &amp; &lt;Data&gt;');
      expect(email.html).not.toContain('<script>');
      // RFC 8058: the URL a mail client POSTs to, and the header that says it may.
      expect(email.headers['list-unsubscribe']).toMatch(ONE_CLICK);
      expect(email.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    }

    await settled();
    const rows = await rowsOf([hina.id, ada.id]);
    expect(rows.map((r) => r.mailState)).toEqual(['sent', 'sent']);
    const emails = await emailsTo([hina.id, ada.id]);
    expect(emails.map((e) => e.dedupeKey).sort()).toEqual(rows.map((r) => `notification:${r.id}`).sort());
    for (const email of emails) {
      expect(email).toMatchObject({ kind: 'notification', status: 'sent', attempts: 1 });
      const received = email.toUserId === hina.id ? ja : en;
      expect(`<${email.unsubscribeUrl}>`).toBe(received.headers['list-unsubscribe']);
    }
    expect(emails.find((e) => e.toUserId === ada.id)?.lang).toBe('en-US');
  });

  it('writes one e-mail per notification and person while three mailers on two instances run at once', async () => {
    const course = await createCourse(t, { title: 'Concurrency' });
    const students = await Promise.all(Array.from({ length: 6 }, () => person()));
    for (const user of students) await addStudent(t, course.id, user.id);
    const ids = students.map((s) => s.id);
    await tell({
      kind: 'announcement',
      courseId: course.id,
      link: links.course(course.id),
      facts: { title: 'Exam room' },
      to: { students: course.id },
    });
    await tell({
      kind: 'deadline_soon',
      courseId: course.id,
      link: links.assignment(course.id, 4),
      facts: { title: 'Sorting', due_at: '2026-12-01T14:59:00Z' },
      to: { students: course.id },
    });

    const runs = await Promise.all([
      mailPendingNotifications(t.ctx, { batchSize: 5 }),
      mailPendingNotifications(t.ctx, { batchSize: 5 }),
      mailPendingNotifications(second.ctx, { batchSize: 5 }),
    ]);
    expect(runs.reduce((sum, run) => sum + run.emailed, 0)).toBe(12);
    await settled();

    const emails = await emailsTo(ids);
    expect(emails).toHaveLength(12);
    expect(new Set(emails.map((e) => e.dedupeKey)).size).toBe(12);
    for (const student of students) {
      const received = smtp.messages.filter(to(student.email));
      expect(received.map((e) => e.subject).sort()).toEqual([
        '【Kadai】お知らせ：Exam room',
        '【Kadai】締め切りまで 24 時間です：Sorting',
      ]);
    }
    // Run again: nothing is pending, nothing more is written.
    expect(await mailPendingNotifications(t.ctx)).toMatchObject({ decided: 0 });
    expect(await emailsTo(ids)).toHaveLength(12);
  });

  it('leaves digest kinds for the digest and sends nothing for an off kind, a muted course, a read notification or an inactive account', async () => {
    const course = await createCourse(t, { title: 'Quiet' });
    const digest = await person();
    const off = await person();
    const muted = await person();
    const reader = await person();
    const inactive = await person({ isActive: true });
    const everyone = [digest, off, muted, reader, inactive];
    await t.ctx.db.insert(notificationProfiles).values({ userId: off.id, email: { announcement: 'off' } });
    await t.ctx.db.insert(notificationMutes).values({ userId: muted.id, courseId: course.id });

    await tell({
      kind: 'forum_reply',
      courseId: course.id,
      link: links.forumRecord(course.id, 1),
      facts: { title: 'A question', actor: { first_name: 'Grace', last_name: 'Hopper' } },
      to: { users: [digest.id] },
    });
    const announcement = {
      kind: 'announcement' as const,
      courseId: course.id,
      link: links.course(course.id),
      facts: { title: 'Nobody should get this' },
    };
    await tell({ ...announcement, to: { users: [off.id, muted.id, reader.id, inactive.id] } });
    // Read in the app before the mailer came; and an account closed since.
    await t.ctx.db
      .update(notifications)
      .set({ readAt: new Date() })
      .where(eq(notifications.userId, reader.id));
    await t.ctx.db.update(users).set({ isActive: false }).where(eq(users.id, inactive.id));

    expect(await mailPendingNotifications(t.ctx)).toEqual({ decided: 5, emailed: 0, digest: 1, skipped: 4 });
    const states = new Map((await rowsOf(everyone.map((u) => u.id))).map((r) => [r.userId, r.mailState]));
    expect(Object.fromEntries(everyone.map((u, i) => [i, states.get(u.id)]))).toEqual({
      0: 'digest',
      1: 'skipped',
      2: 'skipped',
      3: 'skipped',
      4: 'skipped',
    });
    expect(await emailsTo(everyone.map((u) => u.id))).toEqual([]);
  });

  it('waits for mail_after: a graded submission is mailed only once its author had time to look', async () => {
    const course = await createCourse(t);
    const author = await person();
    await tell({
      kind: 'submission_graded',
      courseId: course.id,
      link: links.submission(course.id, 41),
      facts: { title: 'Loops', score: 7, max_score: 10 },
      to: { users: [author.id] },
      mailAfterSeconds: 600,
    });
    expect((await mailPendingNotifications(t.ctx)).decided).toBe(0);
    expect((await rowsOf([author.id]))[0]?.mailState).toBe('pending');
    const later = new Date(Date.now() + 11 * 60_000);
    expect(await mailPendingNotifications(t.ctx, { now: later })).toMatchObject({ decided: 1, digest: 1 });
  });

  it('marks an address the server refuses for good (550), does not retry it, and skips it afterwards', async () => {
    const course = await createCourse(t);
    const gone = await person({ lang: 'en-US' });
    await addStudent(t, course.id, gone.id);
    smtp.refuseRecipients([gone.email]);
    const event = {
      kind: 'announcement' as const,
      courseId: course.id,
      link: links.course(course.id),
      facts: { title: 'Refused' },
      to: { users: [gone.id] },
    };
    await tell(event);
    await mailPendingNotifications(t.ctx);
    const [email] = await emailsTo([gone.id]);
    // The job's outcome is known once it has also marked the address.
    const deadline = Date.now() + 20_000;
    while (!outcomes.some((o) => o.id === email!.id) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(outcomes.filter((o) => o.id === email!.id).map((o) => o.outcome)).toEqual(['refused']);
    expect((await emailsTo([gone.id]))[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await emailsTo([gone.id]))[0]!.lastError).toMatch(/550/);
    const [profile] = await t.ctx.db
      .select()
      .from(notificationProfiles)
      .where(eq(notificationProfiles.userId, gone.id));
    expect(profile?.emailRefusedAt).toBeInstanceOf(Date);

    // Past the retry delay (1 s): still one attempt.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await emailsTo([gone.id]))[0]).toMatchObject({ status: 'failed', attempts: 1 });
    await tell(event);
    expect(await mailPendingNotifications(t.ctx)).toMatchObject({ decided: 1, skipped: 1 });
    expect(await emailsTo([gone.id])).toHaveLength(1);
    expect(smtp.messages.filter(to(gone.email))).toEqual([]);
  });

  it("turns the kind off with the e-mail's one-click link, without signing in; the next one is not sent", async () => {
    const course = await createCourse(t);
    const student = await person({ lang: 'en-US' });
    const event = {
      kind: 'quiz_opened' as NotificationKind,
      courseId: course.id,
      link: links.quiz(course.id, 2, 5),
      facts: { title: 'Quiz 1' },
      to: { users: [student.id] },
    };
    await t.ctx.db
      .insert(notificationProfiles)
      .values({ userId: student.id, email: { quiz_opened: 'immediately' } });
    await tell(event);
    await mailPendingNotifications(t.ctx);
    const email = await smtp.waitFor(to(student.email));
    const url = new URL(ONE_CLICK.exec(email.headers['list-unsubscribe'] ?? '')![1]!);

    // As a mail client does it (RFC 8058): a form POST of List-Unsubscribe=One-Click, no cookie, no token.
    const res = await t.app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(UnsubscribeResult.parse(res.json())).toEqual({ kind: 'quiz_opened', scope: 'kind' });
    const [profile] = await t.ctx.db
      .select()
      .from(notificationProfiles)
      .where(eq(notificationProfiles.userId, student.id));
    expect(profile?.email).toEqual({ quiz_opened: 'off' });

    await tell(event);
    expect(await mailPendingNotifications(t.ctx)).toMatchObject({ decided: 1, skipped: 1 });
    await settled();
    expect(smtp.messages.filter(to(student.email))).toHaveLength(1);
  });

  // Last: it starts the mailer's jobs, which then run on their own for the rest of the file.
  it('mails a new announcement within seconds of its commit, without waiting for the minute', async () => {
    const jobs = await startNotificationMailJobs(t.ctx);
    try {
      const course = await createCourse(t, { title: 'Live' });
      const editor = await createUser(t);
      await addEditor(t, course.id, editor.id);
      const student = await person({ lang: 'en-US' });
      await addStudent(t, course.id, student.id);
      const started = Date.now();
      await postRecord(t, await tokenFor(t, editor), {
        course: course.id,
        title: 'Posted just now',
        content: 'Hello.',
        is_announcement: true,
      });
      const email = await smtp.waitFor(to(student.email), 20_000);
      expect(email.subject).toBe('[Kadai] Announcement: Posted just now');
      expect(email.text).toContain('Posted by Test User');
      // The minute's cron could not have done it this soon after a commit at a random second.
      expect(Date.now() - started).toBeLessThan(15_000);
      const rows = await t.ctx.db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.toUserId, student.id), like(emailOutbox.dedupeKey, 'notification:%')));
      expect(rows).toHaveLength(1);
    } finally {
      await jobs.stop();
    }
  });
});

describe('notification e-mails without SMTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('keeps the e-mail in the outbox for staff, as account e-mails are kept', async () => {
    const course = await createCourse(t);
    const student = await createUser(t);
    await addStudent(t, course.id, student.id);
    await t.ctx.db.transaction((tx) =>
      notify(tx, {
        kind: 'announcement',
        key: 'announcement:kept',
        courseId: course.id,
        link: links.course(course.id),
        facts: { title: 'Kept' },
        to: { students: course.id },
      }),
    );
    expect(await mailPendingNotifications(t.ctx)).toMatchObject({ decided: 1, emailed: 1 });
    const [email] = await t.ctx.db.select().from(emailOutbox).where(eq(emailOutbox.toUserId, student.id));
    expect(email).toMatchObject({ kind: 'notification', status: 'kept', subject: '【Kadai】お知らせ：Kept' });
    expect(email!.htmlBody).toContain('<!DOCTYPE html>');
    expect(email!.unsubscribeUrl).toMatch(/^http:\/\/lms\.test\/api\/Notification\/unsubscribe\/\?token=/);
  });
});
