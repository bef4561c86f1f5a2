import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemberAddResult, OutboxEmail, OutboxList, UserCreated } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { startTestSmtpServer, type ReceivedEmail, type TestSmtpServer } from '../../../test/smtp-server.ts';
import { createCourseWorld, createUser } from '../../../test/factories.ts';
import { users } from '../../db/schema.ts';
import { emailOutbox } from '../../db/schema-mail.ts';
import { signIn } from '../auth/testing.ts';
import { findUserByEmail } from '../users/users.repo.ts';
import { deliverEmail, startMailJobs, type DeliveryOutcome } from './mail.jobs.ts';
import { findEmail } from './mail.repo.ts';
import { MAX_EMAIL_ATTEMPTS, writeEmails } from './outbox.ts';
import { createSmtpSender } from './sender.ts';

const NEW_PASSWORD = 'violet-kite-2026';
const SET_PASSWORD_LINK = /http:\/\/lms\.test\/set-password\?uid=([^&\s]+)&token=(\S+)/;

/** The uid and token of the set-password link an e-mail holds. */
function linkIn(email: ReceivedEmail): { uid: string; token: string } {
  const match = SET_PASSWORD_LINK.exec(email.text);
  expect(match, email.text).not.toBeNull();
  return { uid: decodeURIComponent(match![1]!), token: decodeURIComponent(match![2]!) };
}

const to = (address: string) => (email: ReceivedEmail) => email.to.includes(address);

describe('e-mail over SMTP', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  // Its SMTP pool keeps connections open: closed before the server, which would wait 30 s for them.
  let mail: { close: () => void };
  const outcomes: { id: number; outcome: DeliveryOutcome }[] = [];

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    t = await createTestApp({
      jobs: true,
      env: { SMTP_HOST: smtp.host, SMTP_PORT: String(smtp.port), SMTP_RETRY_DELAY: '1' },
    });
    mail = await startMailJobs(t.ctx, { onDelivered: (id, outcome) => outcomes.push({ id, outcome }) });
  });
  afterAll(async () => {
    mail.close();
    await t.close();
    await smtp.close();
  });

  it("delivers an editor's invitation in the student's language, with a set-password link that works", async () => {
    const world = await createCourseWorld(t);
    const res = await call(t, 'POST', `/api/StudentList/${world.course.id}/`, {
      token: world.tokens.editor,
      body: { emails: ['New.Student@Example.jp'] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const result = MemberAddResult.parse(res.body);
    expect(result.created.map((c) => c.user.email)).toEqual(['new.student@example.jp']);
    expect(result.unknown_emails).toEqual([]);
    // The editor never holds the link: only the invitee's mailbox does.
    expect(result.created[0]!.set_password).toBeNull();

    const email = await smtp.waitFor(to('new.student@example.jp'));
    expect(email.from).toBe('no-reply@localhost');
    expect(email.headers.from).toBe('Kadai <no-reply@localhost>');
    expect(email.subject).toBe('【Kadai】アカウントのご案内');
    expect(email.text).toContain('コース「Algorithms」にあなたを登録しました');
    expect(email.text).toContain('http://lms.test/login');

    const { uid, token } = linkIn(email);
    const confirm = await call(t, 'POST', '/api/Auth/password/reset/confirm/', {
      body: { uid, token, new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD },
    });
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
    await signIn(t, { email: 'new.student@example.jp', password: NEW_PASSWORD });

    const row = await t.ctx.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, 'new.student@example.jp'));
    expect(row).toMatchObject([
      { kind: 'invitation', status: 'sent', attempts: 1, lang: 'ja', lastError: '' },
    ]);
    expect(row[0]!.sentAt).toBeInstanceOf(Date);
  });

  it('e-mails an account staff open in the language staff chose, and still returns the link', async () => {
    const staff = await createUser(t, { isStaff: true });
    const res = await call(t, 'POST', '/api/Auth/User/', {
      token: (await signIn(t, staff)).access,
      body: { email: 'visiting@example.org', first_name: 'Ada', last_name: 'Byron', display_lang: 'en-US' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const returned = UserCreated.parse(res.body).set_password;
    const email = await smtp.waitFor(to('visiting@example.org'));
    expect(email.subject).toBe('[Kadai] Your new account');
    expect(email.text).toMatch(/^Dear Ada Byron,/);
    expect(linkIn(email)).toEqual({ uid: returned.uid, token: returned.token });
  });

  it("e-mails staff's set-password link in the owner's language, retrying when the server refuses", async () => {
    const staff = await createUser(t, { isStaff: true });
    const owner = await createUser(t, { firstName: 'Grace', lastName: 'Hopper' });
    await t.ctx.db.update(users).set({ displayLang: 'en-US' }).where(eq(users.id, owner.id));
    smtp.refuseNext(1);
    const refusedBefore = smtp.refused();
    const res = await call(t, 'POST', `/api/Auth/User/${owner.id}/set-password-link/`, {
      token: (await signIn(t, staff)).access,
    });
    expect(res.status).toBe(200);
    const email = await smtp.waitFor(to(owner.email), 20_000);
    expect(smtp.refused()).toBe(refusedBefore + 1);
    expect(email.subject).toBe('[Kadai] Set your password');
    expect(email.text).toContain('Dear Grace Hopper,');

    const { uid, token } = linkIn(email);
    const confirm = await call(t, 'POST', '/api/Auth/password/reset/confirm/', {
      body: { uid, token, new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD },
    });
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);

    const [row] = await t.ctx.db.select().from(emailOutbox).where(eq(emailOutbox.toUserId, owner.id));
    expect(row).toMatchObject({ kind: 'set_password', status: 'sent', attempts: 2, lastError: '' });
    expect(outcomes.filter((o) => o.id === row!.id).map((o) => o.outcome)).toEqual(['retry', 'sent']);
  });

  it(`gives up after ${MAX_EMAIL_ATTEMPTS} attempts and keeps the last error`, async () => {
    const user = (await findUserByEmail(t.ctx.db, 'new.student@example.jp'))!;
    const [id] = await writeEmails(t.ctx.db, t.config, [
      {
        kind: 'set_password',
        to: user,
        link: 'http://lms.test/set-password?uid=x&token=y',
        lifetimeSeconds: 60,
      },
    ]);
    const broken = {
      send: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:1')),
      close: () => undefined,
    };
    for (let attempt = 1; attempt < MAX_EMAIL_ATTEMPTS; attempt++) {
      await expect(deliverEmail(t.ctx, broken, id!)).rejects.toThrow(/ECONNREFUSED/);
      expect(await findEmail(t.ctx.db, id!)).toMatchObject({ status: 'pending', attempts: attempt });
    }
    expect(await deliverEmail(t.ctx, broken, id!)).toBe('failed');
    expect(await findEmail(t.ctx.db, id!)).toMatchObject({
      status: 'failed',
      attempts: MAX_EMAIL_ATTEMPTS,
      lastError: 'connect ECONNREFUSED 127.0.0.1:1',
    });
    // A late retry of a finished e-mail does nothing.
    expect(await deliverEmail(t.ctx, broken, id!)).toBe('skipped');
  });

  it('sends an HTML alternative and the one-click unsubscribe headers (RFC 8058) when given', async () => {
    const sender = createSmtpSender(t.config)!;
    const url = 'http://lms.test/api/Notification/unsubscribe/?token=abc.def';
    await sender.send({
      to: 'html-reader@example.jp',
      subject: 'Both parts',
      text: 'Plain words',
      html: '<p>Rich &amp; plain</p>',
      unsubscribeUrl: url,
    });
    sender.close();
    const email = await smtp.waitFor(to('html-reader@example.jp'));
    expect(email).toMatchObject({ text: 'Plain words', html: '<p>Rich &amp; plain</p>' });
    expect(email.headers['content-type']).toMatch(/^multipart\/alternative/);
    expect(email.headers['list-unsubscribe']).toBe(`<${url}>`);
    expect(email.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    // Account e-mails stay text only, without them.
    const invitation = smtp.messages.find(to('new.student@example.jp'))!;
    expect(invitation.html).toBe('');
    expect(invitation.headers['list-unsubscribe']).toBeUndefined();
  });

  it('signs in to the SMTP server with SMTP_USER and SMTP_PASSWORD', async () => {
    const guarded = await startTestSmtpServer({ auth: { user: 'lms', pass: 'mail-secret' } });
    try {
      const config = { ...t.config, SMTP_HOST: guarded.host, SMTP_PORT: guarded.port, SMTP_USER: 'lms' };
      const message = { to: 'someone@example.jp', subject: 'Hello', text: 'こんにちは' };
      // Each sender keeps its connections open (a pool): closed here, or the server would wait for them.
      const wrong = createSmtpSender({ ...config, SMTP_PASSWORD: 'wrong' })!;
      await expect(wrong.send(message)).rejects.toThrow(/Invalid username or password/);
      wrong.close();
      const right = createSmtpSender({ ...config, SMTP_PASSWORD: 'mail-secret' })!;
      await right.send(message);
      right.close();
      expect(guarded.messages).toMatchObject([
        { subject: 'Hello', text: 'こんにちは', to: ['someone@example.jp'] },
      ]);
    } finally {
      await guarded.close();
    }
  });
});

describe('the outbox without SMTP', () => {
  let t: TestApp;
  let staffToken: string;
  let world: Awaited<ReturnType<typeof createCourseWorld>>;

  beforeAll(async () => {
    t = await createTestApp();
    world = await createCourseWorld(t);
    staffToken = world.tokens.staff;
    const res = await call(t, 'POST', `/api/StudentList/${world.course.id}/`, {
      token: staffToken,
      body: { emails: ['kept-1@example.jp', 'kept-2@example.jp', 'kept-3@example.jp'] },
    });
    expect(res.status).toBe(200);
  });
  afterAll(() => t.close());

  const outbox = async (query: Record<string, string> = {}) => {
    const res = await call(t, 'GET', '/api/Mail/outbox/', { token: staffToken, query });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return OutboxList.parse(res.body);
  };

  it('keeps every e-mail for staff to read, newest first, without bodies in the list', async () => {
    const list = await outbox();
    expect(list.count).toBe(3);
    expect(
      list.results.every((e) => e.status === 'kept' && e.attempts === 0 && e.kind === 'invitation'),
    ).toBe(true);
    const ids = list.results.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(list.results[0]).not.toHaveProperty('text_body');
  });

  it('shows one e-mail with its body and a set-password link that works', async () => {
    const [first] = (await outbox({ limit: '1' })).results;
    const res = await call(t, 'GET', `/api/Mail/outbox/${first!.id}/`, { token: staffToken });
    expect(res.status).toBe(200);
    const email = OutboxEmail.parse(res.body);
    expect(email).toMatchObject({ kind: 'invitation', lang: 'ja', subject: '【Kadai】アカウントのご案内' });
    const match = SET_PASSWORD_LINK.exec(email.text_body)!;
    const confirm = await call(t, 'POST', '/api/Auth/password/reset/confirm/', {
      body: {
        uid: decodeURIComponent(match[1]!),
        token: decodeURIComponent(match[2]!),
        new_password1: NEW_PASSWORD,
        new_password2: NEW_PASSWORD,
      },
    });
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
  });

  it('pages with limit and offset, caps the page, and filters by status', async () => {
    const all = await outbox();
    const second = await outbox({ limit: '1', offset: '1' });
    expect(second).toMatchObject({ count: 3, limit: 1, offset: 1 });
    expect(second.results.map((e) => e.id)).toEqual([all.results[1]!.id]);
    expect((await outbox({ offset: '3' })).results).toEqual([]);
    expect((await outbox({ status: 'kept' })).count).toBe(3);
    expect((await outbox({ status: 'sent' })).count).toBe(0);
    const bad: Record<string, string>[] = [
      { limit: '101' },
      { limit: '0' },
      { offset: '-1' },
      { status: 'lost' },
      { limit: 'ten' },
    ];
    for (const query of bad) {
      const res = await call(t, 'GET', '/api/Mail/outbox/', { token: staffToken, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
    }
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of ['999999', 'abc', '0']) {
      expect((await call(t, 'GET', `/api/Mail/outbox/${id}/`, { token: staffToken })).status).toBe(404);
    }
  });

  it('lets an editor add existing students but not create accounts while mail stays in the outbox', async () => {
    const res = await call(t, 'POST', `/api/StudentList/${world.course.id}/`, {
      token: world.tokens.editor,
      body: { emails: ['not-invited@example.jp'] },
    });
    expect(MemberAddResult.parse(res.body)).toMatchObject({
      created: [],
      unknown_emails: ['not-invited@example.jp'],
    });
    expect((await outbox()).count).toBe(3);
  });
});
