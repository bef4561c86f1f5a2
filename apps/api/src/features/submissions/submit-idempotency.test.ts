// A retried submit (a client or proxy that gave up waiting on work that had committed) creates nothing
// when it carries the first one's Idempotency-Key (issue 36, item 4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Submission } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { createSubmissionWorld, hoursFromNow, setLink, type SubmissionWorld } from './testing.ts';

describe('POST Submission/Submit/ with an Idempotency-Key', () => {
  let t: TestApp;
  let w: SubmissionWorld;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const submit = (key: string | null, body: Record<string, unknown> = {}, token = w.tokens.student) =>
    call(t, 'POST', '/api/Submission/Submit/', {
      token,
      headers: key === null ? {} : { 'idempotency-key': key },
      body: { assignment_id: w.assignment.id, course_id: w.course.id, code: 'print(1)\n', ...body },
    });
  /** Submissions made here: the world starts with three of the student's own. */
  const countOf = async () =>
    -3 +
    Number(
      (
        await t.database.query('SELECT count(*)::int AS n FROM submissions WHERE assignment_id = $1', [
          w.assignment.id,
        ])
      ).rows[0]!.n,
    );

  it('answers a retry with the first submission and creates nothing', async () => {
    w = await createSubmissionWorld(t);
    const first = await submit('retry-me-1');
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await submit('retry-me-1');
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(Submission.parse(again.body).id).toBe(Submission.parse(first.body).id);
    expect(await countOf()).toBe(1);
    // Without a key, or with a new one, the same content is a new submission, as before.
    expect((await submit(null)).status).toBe(201);
    expect((await submit('retry-me-2')).status).toBe(201);
    expect(await countOf()).toBe(3);
  });

  it('creates one submission from retries that arrive together', async () => {
    w = await createSubmissionWorld(t);
    const replies = await Promise.all(Array.from({ length: 6 }, () => submit('together')));
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 201));
    expect(new Set(replies.map((r) => Submission.parse(r.body).id)).size).toBe(1);
    expect(replies.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(5);
    expect(await countOf()).toBe(1);
  });

  it('refuses the same key with other content (422), and keeps keys apart between people', async () => {
    w = await createSubmissionWorld(t);
    expect((await submit('mine', { code: 'print(1)\n' })).status).toBe(201);
    const other = await submit('mine', { code: 'print(2)\n' });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 'idempotency_key_reused' });
    // Another person's key of the same text is theirs alone: a new submission, not the first one's.
    const theirs = await submit('mine', { code: 'print(1)\n' }, w.tokens.classmate);
    expect(theirs.status).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(await countOf()).toBe(2);
  });

  it('replays after the deadline and past the rate limit: the first was in time', async () => {
    w = await createSubmissionWorld(t);
    const first = Submission.parse((await submit('in-time')).body);
    // The world's three and this one count: six more reach the limit of ten a minute.
    for (let i = 0; i < 6; i++) expect((await submit(`fill-${i}`)).status).toBe(201);
    expect((await submit('one-too-many')).status).toBe(429);
    expect((await submit('in-time')).status).toBe(201);
    await setLink(t, w.assignment.id, w.course.id, { dueAt: hoursFromNow(-2), lateUntil: null });
    const late = await submit('in-time');
    expect(late.status).toBe(201);
    expect(Submission.parse(late.body).id).toBe(first.id);
    expect((await submit('after-deadline')).status).toBe(403);
  });

  it('refuses a malformed key (400) and checks access before replaying', async () => {
    w = await createSubmissionWorld(t);
    for (const key of ['', 'has space', 'x'.repeat(201), 'ключ']) {
      const reply = await submit(key);
      expect(reply.status, key).toBe(400);
      expect(reply.body).toMatchObject({ code: 'invalid_idempotency_key' });
    }
    expect((await submit('"quoted-ok"')).status).toBe(201);
    expect((await submit('quoted-ok')).headers['idempotent-replayed']).toBe('true');
    // An outsider replaying someone's key gets their own 404, never the submission.
    const outsider = await submit('quoted-ok', {}, w.tokens.otherEditor);
    expect(outsider.status).toBe(404);
  });
});
