import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxEmail, OutboxList } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { createUser, tokenFor, TEST_PASSWORD } from '../../../test/factories.ts';
import { emailOutbox } from '../../db/schema-mail.ts';
import { findUserByEmail } from '../users/users.repo.ts';
import { signIn } from './testing.ts';
import { createVerificationKey, EMAIL_VERIFICATION_LIFETIME_SECONDS } from './registration-key.ts';
import { RESENDS_PER_EMAIL } from './registration.service.ts';

const PASSWORD = 'amber-willow-harbor-63';
const REGISTER = '/api/Auth/Email/Registration/';
const VERIFY = '/api/Registration/verify-email/';
const RESEND = '/api/Registration/resend-email/';

const registration = (email: string, extra: Record<string, unknown> = {}) => ({
  email,
  password1: PASSWORD,
  password2: PASSWORD,
  ...extra,
});

describe('self-registration by e-mail', () => {
  let t: TestApp;
  let staffToken: string;

  beforeAll(async () => {
    t = await createTestApp({
      env: { SELF_REGISTRATION: 'true', ALLOWED_EMAIL_DOMAINS: 'example.ac.jp, example.edu' },
    });
    staffToken = await tokenFor(t, await createUser(t, { isStaff: true }));
  });
  afterAll(() => t.close());

  /** The verification key of the newest e-mail to `address`, read from the outbox as staff would. */
  async function latestKey(address: string): Promise<string> {
    const list = OutboxList.parse(
      (await call(t, 'GET', '/api/Mail/outbox/', { token: staffToken, query: { limit: '100' } })).body,
    );
    const summary = list.results.find((e) => e.to_address === address && e.kind === 'verify_email');
    expect(summary, `no verification e-mail to ${address}`).toBeDefined();
    const email = OutboxEmail.parse(
      (await call(t, 'GET', `/api/Mail/outbox/${summary!.id}/`, { token: staffToken })).body,
    );
    const match = /http:\/\/lms\.test\/verify-email\?key=(\S+)/.exec(email.text_body);
    expect(match, email.text_body).not.toBeNull();
    return decodeURIComponent(match![1]!);
  }

  const emailsTo = (address: string) =>
    t.ctx.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, address));

  it('creates an inactive account and a verification e-mail; the link activates it once', async () => {
    const res = await call(t, 'POST', REGISTER, {
      body: registration('Hana@Example.ac.jp', {
        first_name: 'Hana',
        last_name: 'Sato',
        display_lang: 'en-US',
      }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({ detail: 'Verification e-mail sent.' });
    const user = await findUserByEmail(t.ctx.db, 'hana@example.ac.jp');
    expect(user).toMatchObject({
      isActive: false,
      emailVerifiedAt: null,
      displayLang: 'en-US',
      firstName: 'Hana',
    });
    expect(await emailsTo('hana@example.ac.jp')).toMatchObject([
      { kind: 'verify_email', lang: 'en-US', status: 'kept', subject: '[Kadai] Confirm your e-mail address' },
    ]);

    // Not before the address is proven.
    const early = await call(t, 'POST', '/api/Auth/Token/', {
      body: { email: 'hana@example.ac.jp', password: PASSWORD },
    });
    expect(early.status).toBe(401);

    const key = await latestKey('hana@example.ac.jp');
    const verified = await call(t, 'POST', VERIFY, { body: { key } });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(await findUserByEmail(t.ctx.db, 'hana@example.ac.jp')).toMatchObject({ isActive: true });
    expect((await findUserByEmail(t.ctx.db, 'hana@example.ac.jp'))!.emailVerifiedAt).toBeInstanceOf(Date);
    await signIn(t, { email: 'hana@example.ac.jp', password: PASSWORD });

    const again = await call(t, 'POST', VERIFY, { body: { key } });
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({ code: 'already_verified' });
  });

  it('writes the e-mail in Japanese by default', async () => {
    expect((await call(t, 'POST', REGISTER, { body: registration('taro@example.edu') })).status).toBe(201);
    expect(await emailsTo('taro@example.edu')).toMatchObject([
      { lang: 'ja', subject: '【Kadai】メールアドレスの確認' },
    ]);
  });

  it('answers an address that already has an account exactly as a new one, and sends nothing', async () => {
    const existing = await createUser(t, { email: 'owner@example.ac.jp' });
    const res = await call(t, 'POST', REGISTER, { body: registration('OWNER@example.ac.jp') });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ detail: 'Verification e-mail sent.' });
    expect(await emailsTo('owner@example.ac.jp')).toEqual([]);
    // The account is untouched: its own password still works.
    await signIn(t, { email: existing.email, password: TEST_PASSWORD });
  });

  it('lets the latest registration of a pending account win, and kills the older link', async () => {
    expect((await call(t, 'POST', REGISTER, { body: registration('twice@example.edu') })).status).toBe(201);
    const firstKey = await latestKey('twice@example.edu');
    const newer = 'cobalt-meadow-lantern-19';
    const res = await call(t, 'POST', REGISTER, {
      body: registration('twice@example.edu', { password1: newer, password2: newer }),
    });
    expect(res.status).toBe(201);
    expect(await emailsTo('twice@example.edu')).toHaveLength(2);
    const old = await call(t, 'POST', VERIFY, { body: { key: firstKey } });
    expect(old.status).toBe(400);
    expect(old.json).toMatchObject({ code: 'invalid_key' });
    expect(
      (await call(t, 'POST', VERIFY, { body: { key: await latestKey('twice@example.edu') } })).status,
    ).toBe(200);
    await signIn(t, { email: 'twice@example.edu', password: newer });
  });

  it('refuses an expired or tampered key with 400', async () => {
    expect((await call(t, 'POST', REGISTER, { body: registration('late@example.edu') })).status).toBe(201);
    const user = (await findUserByEmail(t.ctx.db, 'late@example.edu'))!;
    const issued = new Date(Date.now() - (EMAIL_VERIFICATION_LIFETIME_SECONDS + 60) * 1000);
    const expired = await call(t, 'POST', VERIFY, {
      body: { key: createVerificationKey(t.config, user, issued) },
    });
    expect(expired.status).toBe(400);
    expect(expired.json).toMatchObject({ code: 'expired_key' });

    const key = await latestKey('late@example.edu');
    const last = key.slice(-1) === 'A' ? 'B' : 'A';
    for (const bad of [`${key.slice(0, -1)}${last}`, 'not-a-key', `${key}x`, 'MQ.abc.' + 'x'.repeat(32)]) {
      const res = await call(t, 'POST', VERIFY, { body: { key: bad } });
      expect(res.status, bad).toBe(400);
      expect(res.json).toMatchObject({ code: 'invalid_key' });
    }
    expect(await findUserByEmail(t.ctx.db, 'late@example.edu')).toMatchObject({ isActive: false });
  });

  it.each([
    ['a missing e-mail', { password1: PASSWORD, password2: PASSWORD }, 'email'],
    ['a malformed e-mail', registration('not an address'), 'email'],
    ['a missing password2', { email: 'x@example.edu', password1: PASSWORD }, 'password2'],
    ['a number for a password', registration('x@example.edu', { password1: 12345678 }), 'password1'],
    ['an unknown language', registration('x@example.edu', { display_lang: 'fr' }), 'display_lang'],
    ['passwords that differ', registration('x@example.edu', { password2: `${PASSWORD}!` }), 'password2'],
    [
      'a common password',
      registration('x@example.edu', { password1: 'password', password2: 'password' }),
      'password1',
    ],
    ['a domain not allowed', registration('x@gmail.com'), 'email'],
  ])('refuses %s with 400 naming the field', async (_name, body, field) => {
    const res = await call(t, 'POST', REGISTER, { body });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.json[field], JSON.stringify(res.body)).toBeDefined();
  });

  it('refuses bad verify and resend bodies with 400', async () => {
    for (const body of [{}, { key: 42 }, { key: '' }, null]) {
      expect((await call(t, 'POST', VERIFY, { body })).status, JSON.stringify(body)).toBe(400);
    }
    for (const body of [{}, { email: 'nobody' }, { email: ['a@example.edu'] }]) {
      expect((await call(t, 'POST', RESEND, { body })).status, JSON.stringify(body)).toBe(400);
    }
  });

  it('resends only for a pending registration, answers the same for every address, and is throttled', async () => {
    expect((await call(t, 'POST', REGISTER, { body: registration('resend@example.edu') })).status).toBe(201);
    const pending = await call(t, 'POST', RESEND, { body: { email: 'Resend@example.edu' } });
    const unknown = await call(t, 'POST', RESEND, { body: { email: 'ghost@example.edu' } });
    const active = await call(t, 'POST', RESEND, { body: { email: 'hana@example.ac.jp' } });
    for (const res of [pending, unknown, active]) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ detail: 'ok' });
    }
    expect(await emailsTo('resend@example.edu')).toHaveLength(2);
    expect(await emailsTo('ghost@example.edu')).toEqual([]);
    expect(await emailsTo('hana@example.ac.jp')).toHaveLength(1);

    for (let i = 1; i < RESENDS_PER_EMAIL; i++) {
      expect((await call(t, 'POST', RESEND, { body: { email: 'resend@example.edu' } })).status).toBe(200);
    }
    const throttled = await call(t, 'POST', RESEND, { body: { email: 'resend@example.edu' } });
    expect(throttled.status).toBe(429);
    expect(throttled.headers['retry-after']).toBeDefined();
  });
});

describe('self-registration switched off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 404 to registration and resend, and says so in the public config', async () => {
    const res = await call(t, 'POST', REGISTER, { body: registration('someone@example.edu') });
    expect(res.status).toBe(404);
    expect(await findUserByEmail(t.ctx.db, 'someone@example.edu')).toBeNull();
    expect((await call(t, 'POST', RESEND, { body: { email: 'someone@example.edu' } })).status).toBe(404);
    expect((await call(t, 'GET', '/api/Config/')).json).toMatchObject({ self_registration: false });
  });
});
