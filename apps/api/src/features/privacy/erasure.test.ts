import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { createUser, tokenFor, TEST_PASSWORD } from '../../../test/factories.ts';
import { StorageNotFoundError } from '../../lib/storage.ts';
import { erasePerson } from './erasure.service.ts';
import { ERASURE_RULES } from './tables.ts';
import { createPersonalDataWorld, MARKS, type PersonalDataWorld } from './testing.ts';
import { countNaming, tablesContaining, userReferences } from './testing-scan.ts';

/**
 * Staff erase a person (docs/privacy.md, "Erasure"): every table that references users, checked column
 * by column against ERASURE_RULES, then the whole database searched for what was theirs. Once with
 * the defaults (grades kept, forum text replaced), once with the other two settings.
 */

const erase = (t: TestApp, token: string, id: number, confirm: string) =>
  call(t, 'POST', `/api/Privacy/users/${id}/erase/`, { token, body: { confirm_email: confirm } });

/** What each `custom` column has left naming the person afterwards, by setting. */
function customRemains(table: string, column: string, keepGrades: boolean, keepForum: boolean): boolean {
  const key = `${table}.${column}`;
  if (key === 'submissions.user_id') return keepGrades;
  if (key === 'forum_records.author_id') return true;
  if (key === 'forum_files.uploaded_by') return keepForum;
  if (['review_audit.actor_id', 'extension_audit.user_id', 'extension_audit.actor_id'].includes(key))
    return true;
  if (key === 'user_erasures.actor_id') return true;
  return false;
}

async function checkEveryColumn(t: TestApp, userId: number, keepGrades: boolean, keepForum: boolean) {
  const wrong: string[] = [];
  for (const { table, column } of await userReferences(t)) {
    const rule = ERASURE_RULES[table]?.[column];
    if (!rule) {
      wrong.push(`${table}.${column}: no rule`);
      continue;
    }
    const left = await countNaming(t, table, column, userId);
    // Their reply and its audit entry sit on their own review, which goes with their grades.
    const onOwnWork = ['review_comments.author_id', 'review_audit.actor_id'].includes(`${table}.${column}`);
    const shouldRemain =
      !keepGrades && onOwnWork
        ? false
        : rule.rule === 'keep'
          ? true
          : rule.rule === 'grades'
            ? keepGrades
            : rule.rule === 'delete'
              ? false
              : customRemains(table, column, keepGrades, keepForum);
    if (shouldRemain !== left > 0) wrong.push(`${table}.${column} (${rule.rule}): ${left} rows left`);
  }
  return wrong;
}

describe('erasing a person, grades kept and forum text replaced (the defaults)', () => {
  let t: TestApp;
  let w: PersonalDataWorld;
  let erasure: Record<string, unknown>;

  beforeAll(async () => {
    t = await createTestApp();
    w = await createPersonalDataWorld(t);
    const answer = await erase(t, w.tokens.staff, w.person.id, w.person.email.toUpperCase());
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    erasure = answer.json;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('does to every column naming them what ERASURE_RULES says', async () => {
    expect(await checkEveryColumn(t, w.person.id, true, false)).toEqual([]);
  });

  it('leaves nothing of their name, address, writing, code or output anywhere in the database', async () => {
    const found: Record<string, Record<string, number>> = {};
    for (const needle of [
      w.person.email,
      MARKS.firstName,
      MARKS.lastName,
      MARKS.forumText,
      MARKS.code.trim(),
      MARKS.output,
      MARKS.institutionalId,
    ]) {
      const tables = await tablesContaining(t, needle);
      if (Object.keys(tables).length > 0) found[needle] = tables;
    }
    expect(found).toEqual({});
  });

  it('keeps the account as a pseudonym that cannot sign in', async () => {
    const { rows } = await t.database.query(
      `SELECT email, first_name, last_name, password_hash, is_active, is_staff FROM users WHERE id = $1`,
      [w.person.id],
    );
    expect(rows[0]).toMatchObject({
      first_name: '',
      last_name: `Erased user ${w.person.id}`,
      password_hash: null,
      is_active: false,
      is_staff: false,
    });
    expect(String(rows[0]?.email)).toMatch(
      new RegExp(`^erased-${w.person.id}-[0-9a-f]{12}@erased\\.invalid$`),
    );
    const signIn = await call(t, 'POST', '/api/Auth/Token/', {
      body: { email: w.person.email, password: TEST_PASSWORD },
    });
    expect(signIn.status).toBe(401);
    expect((await call(t, 'GET', '/api/Auth/UserInfo/', { token: w.tokens.person })).status).toBe(401);
  });

  it('keeps their graded work under the pseudonym without its files or output', async () => {
    const { rows } = await t.database.query(
      `SELECT s.score, s.max_score, (SELECT count(*)::int FROM submission_files f WHERE f.submission_id = s.id) AS files,
              (SELECT string_agg(e.stdout, '') FROM evaluations e WHERE e.submission_id = s.id) AS output,
              (SELECT count(*)::int FROM evaluations e WHERE e.submission_id = s.id) AS results
         FROM submissions s WHERE s.id = $1`,
      [w.submission],
    );
    expect(rows[0]).toMatchObject({ score: 1, max_score: 2, files: 0, output: '', results: 2 });
    const { rows: quiz } = await t.database.query(
      `SELECT count(*)::int AS n FROM quiz_answers a JOIN quiz_submissions s ON s.id = a.submission_id WHERE s.user_id = $1`,
      [w.person.id],
    );
    expect(quiz[0]?.n).toBe(2);
  });

  it('replaces their forum posts, takes back their upvote and deletes their files after the commit', async () => {
    const { rows } = await t.database.query(
      `SELECT title, content, parent_id FROM forum_records WHERE author_id = $1 ORDER BY id`,
      [w.person.id],
    );
    expect(rows).toHaveLength(2);
    expect(String(rows[0]?.content)).toContain('This post was removed');
    expect(String(rows[0]?.title)).toContain('Removed post');
    expect(rows[1]?.title).toBe('');
    const search = (text: string) =>
      call(t, 'GET', '/api/Forum/Record/', {
        token: w.tokens.other,
        query: { course: String(w.courseA.id), full_text_search: text },
      });
    expect((await search('marmalade')).json.count).toBe(0);
    expect((await search('removed post')).json.count).toBe(1);
    const { rows: votes } = await t.database.query(`SELECT upvotes FROM forum_records WHERE id = $1`, [
      w.otherTopic,
    ]);
    expect(votes[0]?.upvotes).toBe(0);
    await expect(t.ctx.storage.read(w.attachmentKey)).rejects.toBeInstanceOf(StorageNotFoundError);
    await expect(t.ctx.storage.read(w.oldZipKey)).rejects.toBeInstanceOf(StorageNotFoundError);
    expect(erasure).toMatchObject({ files: 2, files_failed: 0 });
  });

  it('renames them in other people’s notifications', async () => {
    const { rows } = await t.database.query(
      `SELECT facts FROM notifications WHERE user_id = $1 AND kind = 'forum_reply'`,
      [w.other.id],
    );
    expect(rows[0]?.facts).toEqual({ actor: { first_name: '', last_name: `Erased user ${w.person.id}` } });
  });

  it('keeps an audit entry of who erased whom, without their data', async () => {
    expect(erasure).toMatchObject({
      user_id: w.person.id,
      pseudonym: `Erased user ${w.person.id}`,
      actor_id: w.staff.id,
      actor_email: w.staff.email,
      kept_grades: true,
      forum_text: 'replace',
    });
    expect((erasure.rows as Record<string, number>).auth_sessions).toBeGreaterThanOrEqual(2);
    const list = await call(t, 'GET', '/api/Privacy/erasures/', { token: w.tokens.staff });
    expect(list.status).toBe(200);
    expect(list.json.count).toBe(2);
    expect(JSON.stringify(list.body)).not.toContain(w.person.email);
    expect(JSON.stringify(list.body)).not.toContain(MARKS.lastName);
  });

  it('refuses to erase them twice', async () => {
    const again = await erase(t, w.tokens.staff, w.person.id, 'whatever@example.test');
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('already_erased');
  });
});

describe('erasing a person with ERASURE_KEEP_GRADES=false and ERASURE_FORUM_TEXT=keep', () => {
  let t: TestApp;
  let w: PersonalDataWorld;

  beforeAll(async () => {
    t = await createTestApp({ env: { ERASURE_KEEP_GRADES: 'false', ERASURE_FORUM_TEXT: 'keep' } });
    w = await createPersonalDataWorld(t);
    const answer = await erase(t, w.tokens.staff, w.person.id, w.person.email);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.json).toMatchObject({ kept_grades: false, forum_text: 'keep', files: 1 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('does to every column naming them what ERASURE_RULES says', async () => {
    expect(await checkEveryColumn(t, w.person.id, false, true)).toEqual([]);
  });

  it('deletes their grades and the audit of them, and keeps what they wrote in the forum', async () => {
    const { rows } = await t.database.query(
      `SELECT (SELECT count(*)::int FROM submissions WHERE id = $1) AS submissions,
              (SELECT count(*)::int FROM review_audit WHERE submission_id = $1) AS audit`,
      [w.submission],
    );
    expect(rows[0]).toEqual({ submissions: 0, audit: 0 });
    expect(await tablesContaining(t, MARKS.forumText)).toEqual({ forum_records: 2 });
    expect((await t.ctx.storage.read(w.attachmentKey)).toString('utf8')).toBe('attachment bytes');
    for (const needle of [w.person.email, MARKS.firstName, MARKS.lastName, MARKS.code.trim(), MARKS.output]) {
      expect(await tablesContaining(t, needle), needle).toEqual({});
    }
  });
});

describe('refusing an erasure', () => {
  let t: TestApp;
  let w: PersonalDataWorld;

  beforeAll(async () => {
    t = await createTestApp();
    w = await createPersonalDataWorld(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 404 for an unknown person and 403 for someone not staff', async () => {
    expect((await erase(t, w.tokens.staff, 999_999, 'x@example.test')).status).toBe(404);
    expect((await erase(t, w.tokens.other, w.person.id, w.person.email)).status).toBe(403);
    expect((await erase(t, w.tokens.person, w.person.id, w.person.email)).status).toBe(403);
  });

  it('answers 400 without the right confirmation, and changes nothing', async () => {
    const answer = await erase(t, w.tokens.staff, w.person.id, w.other.email);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ code: 'confirmation_mismatch' });
    expect(answer.json.confirm_email).toHaveLength(1);
    expect(await countNaming(t, 'auth_sessions', 'user_id', w.person.id)).toBeGreaterThan(0);
    expect((await call(t, 'GET', '/api/Auth/UserInfo/', { token: w.tokens.person })).status).toBe(200);
  });

  it('refuses staff erasing themselves', async () => {
    const answer = await erase(t, w.tokens.staff, w.staff.id, w.staff.email);
    expect(answer.status).toBe(409);
    expect(answer.json.code).toBe('erase_self');
  });

  it('refuses the last active staff account, even to a staff member erased meanwhile', async () => {
    // Two staff erasing each other at once: the erasures run one after the other, and the second
    // would leave no staff at all.
    const second = await createUser(t, { isStaff: true });
    const { rows } = await t.database.query(
      `SELECT count(*)::int AS n FROM users WHERE is_staff AND is_active`,
    );
    expect(rows[0]?.n).toBeGreaterThanOrEqual(2);
    // Everyone else's staff rights go first, so these two are the last.
    await t.database.query(`UPDATE users SET is_staff = false WHERE is_staff AND id NOT IN ($1, $2)`, [
      w.staff.id,
      second.id,
    ]);
    const first = await erase(t, w.tokens.staff, second.id, second.email);
    expect(first.status).toBe(200);
    const staleActor = { userId: second.id, email: second.email, isStaff: true, sessionId: 'gone' };
    await expect(erasePerson(t.ctx, staleActor, w.staff.id, w.staff.email)).rejects.toMatchObject({
      statusCode: 409,
      code: 'last_staff',
    });
    expect((await call(t, 'GET', '/api/Auth/UserInfo/', { token: w.tokens.staff })).status).toBe(200);
  });

  it('refuses a staff member who lost their rights meanwhile', async () => {
    const another = await createUser(t, { isStaff: true });
    const token = await tokenFor(t, another);
    await t.database.query(`UPDATE users SET is_staff = false WHERE id = $1`, [another.id]);
    const staleActor = { userId: another.id, email: another.email, isStaff: true, sessionId: token };
    await expect(erasePerson(t.ctx, staleActor, w.other.id, w.other.email)).rejects.toMatchObject({
      statusCode: 403,
    });
  });
});
