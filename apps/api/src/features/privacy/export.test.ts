import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { createUser, tokenFor } from '../../../test/factories.ts';
import { signDownload } from '../../lib/downloads.ts';
import { StorageNotFoundError } from '../../lib/storage.ts';
import { readZip } from '../../lib/zip.ts';
import { housekeepExports, runExport, startPrivacyJobs, type ExportOutcome } from './export.service.ts';
import { EXPORT_RULES } from './tables.ts';
import { createPersonalDataWorld, MARKS, type PersonalDataWorld } from './testing.ts';
import { countNaming, userReferences } from './testing-scan.ts';

/**
 * A person's copy of their data (docs/privacy.md, "Export"): gathered from every table that names
 * them, with their files, as the person may see it (no hidden tests, unreleased reviews or quiz scores
 * not yet shown, no one else's e-mail address), downloaded through a short-lived link, deleted when
 * its time is up.
 */

async function download(t: TestApp, url: string): Promise<{ status: number; bytes: Buffer; type: string }> {
  const response = await t.app.inject({ method: 'GET', url });
  return {
    status: response.statusCode,
    bytes: response.rawPayload,
    type: String(response.headers['content-type'] ?? ''),
  };
}

function unzip(zip: Buffer): Map<string, Buffer> {
  const entries = readZip(zip, {
    maxEntries: 1000,
    maxTotalBytes: 50 * 1024 * 1024,
    maxEntryBytes: () => 10 * 1024 * 1024,
  });
  return new Map(entries.map((entry) => [entry.name, entry.data]));
}

function rowsOf(files: Map<string, Buffer>, name: string): Record<string, unknown>[] {
  const data = files.get(name);
  if (!data) throw new Error(`${name} is not in the zip`);
  return JSON.parse(data.toString('utf8')) as Record<string, unknown>[];
}

describe('a data export', () => {
  let t: TestApp;
  let w: PersonalDataWorld;
  let exportId: number;
  let files: Map<string, Buffer>;
  let zip: Buffer;

  beforeAll(async () => {
    t = await createTestApp();
    w = await createPersonalDataWorld(t);
    const asked = await call(t, 'POST', '/api/Privacy/exports/', { token: w.tokens.person });
    expect(asked.status).toBe(202);
    expect(asked.json).toMatchObject({ status: 'pending', download_url: null });
    exportId = Number(asked.json.id);
    expect(await runExport(t.ctx, exportId)).toBe('ready');
    const read = await call(t, 'GET', `/api/Privacy/exports/${exportId}/`, { token: w.tokens.person });
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ status: 'ready' });
    const got = await download(t, String(read.json.download_url));
    expect(got.status).toBe(200);
    expect(got.type).toBe('application/zip');
    zip = got.bytes;
    expect(read.json.size).toBe(zip.length);
    files = unzip(zip);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('starts from a world where every column referencing users names the person', async () => {
    const missing: string[] = [];
    for (const { table, column } of await userReferences(t)) {
      // Only an erased person is the subject of an erasure's entry; they cannot ask for an export.
      if (table === 'user_erasures' && column === 'user_id') continue;
      if ((await countNaming(t, table, column, w.person.id)) === 0) missing.push(`${table}.${column}`);
    }
    expect(missing, 'add a row naming the person to createPersonalDataWorld (privacy/testing.ts)').toEqual(
      [],
    );
  });

  it('has a non-empty file for every table of the export list', () => {
    const empty = Object.entries(EXPORT_RULES)
      .filter(([, rule]) => rowsOf(files, `data/${rule.file}.json`).length === 0)
      .map(([table]) => table);
    expect(empty).toEqual([]);
  });

  it('holds the profile without the password hash, and the files they uploaded', () => {
    const [profile] = rowsOf(files, 'data/profile.json');
    expect(profile).toMatchObject({ id: w.person.id, email: w.person.email, first_name: MARKS.firstName });
    expect(profile).not.toHaveProperty('password_hash');
    expect(files.get(`files/submissions/${w.submission}/main.py`)?.toString('utf8')).toBe(MARKS.code);
    const [attachment] = rowsOf(files, 'data/forum/attachments.json');
    expect(attachment).not.toHaveProperty('storage_key');
    expect(files.get(`files/forum/${String(attachment?.id)}/notes.txt`)?.toString('utf8')).toBe(
      'attachment bytes',
    );
    expect(rowsOf(files, 'data/submissions/files.json')).toHaveLength(1);
    expect(files.get('README.txt')?.toString('utf8')).toContain('docs/privacy.md');
  });

  it('shows results as the submission page does: no detail of a hidden test', () => {
    const evaluations = rowsOf(files, 'data/submissions/evaluations.json');
    const visible = evaluations.find((e) => e.test_case_name === 'visible one');
    const hidden = evaluations.find((e) => e.test_case_name === 'hidden one');
    expect(visible).toMatchObject({ stdout: MARKS.output, stdin: '1 2', expected_stdout: '3' });
    expect(hidden).toMatchObject({ status: 'Wrong', points: 0 });
    expect(hidden).not.toHaveProperty('stdout');
    expect(hidden).not.toHaveProperty('stdin');
    expect(zip.includes('hidden-expected-42')).toBe(false);
    expect(unzippedText(files)).not.toContain('hidden-expected-42');
  });

  it('leaves out a review before its release, and a quiz score before the quiz shows it', () => {
    const reviews = rowsOf(files, 'data/submissions/reviews.json');
    // Their own released review whole; the draft they graded as an editor by its ids only.
    expect(reviews.find((r) => r.user_id === w.person.id)).toMatchObject({ comment: 'Good work' });
    expect(reviews.filter((r) => r.comment !== undefined)).toHaveLength(1);
    expect(rowsOf(files, 'data/submissions/review-comments.json').map((c) => c.body)).toEqual([
      'Look here',
      'My reply',
    ]);
    const quizzes = rowsOf(files, 'data/quizzes/submissions.json');
    expect(quizzes.filter((q) => 'score' in q)).toHaveLength(1);
    const answers = rowsOf(files, 'data/quizzes/answers.json');
    expect(answers.filter((a) => 'is_correct' in a)).toHaveLength(1);
    expect(unzippedText(files)).not.toContain('x-answer-key');
  });

  it('lists the e-mails sent to them without their bodies, which may hold a live link', () => {
    const [sent] = rowsOf(files, 'data/e-mail/sent-to-you.json');
    expect(sent).toMatchObject({ kind: 'invitation', subject: 'Welcome' });
    expect(sent).not.toHaveProperty('text_body');
    expect(unzippedText(files)).not.toContain(`Dear ${MARKS.firstName}`);
  });

  it('carries no one else’s e-mail address or hashes', () => {
    const text = unzippedText(files);
    expect(text).not.toContain(w.other.email);
    expect(text).not.toContain('other@example.test');
    expect(text).not.toContain('s-someone-else');
    expect(text).not.toContain(`hash-${w.person.id}`);
  });

  it('e-mails the person a link to the page where they download it, not to the file', async () => {
    const { rows } = await t.database.query(
      `SELECT subject, text_body, lang FROM email_outbox WHERE to_user_id = $1 AND kind = 'data_export'`,
      [w.person.id],
    );
    expect(rows).toHaveLength(1);
    expect(String(rows[0]?.text_body)).toContain('http://lms.test/profile#my-data');
    expect(String(rows[0]?.text_body)).toContain('7 日');
    expect(String(rows[0]?.text_body)).not.toContain('/api/Download/');
  });

  it('lists the person’s exports without links, and shows none of them to others', async () => {
    const list = await call(t, 'GET', '/api/Privacy/exports/', { token: w.tokens.person });
    expect(list.status).toBe(200);
    const results = (list.json.results ?? []) as Record<string, unknown>[];
    expect(results.map((r) => [r.id, r.download_url])).toContainEqual([exportId, null]);
    const theirs = await call(t, 'GET', `/api/Privacy/exports/${exportId}/`, { token: w.tokens.other });
    expect(theirs.status).toBe(404);
    const staff = await call(t, 'GET', `/api/Privacy/exports/${exportId}/`, { token: w.tokens.staff });
    expect(staff.status).toBe(404);
    const unknown = await call(t, 'GET', '/api/Privacy/exports/999999/', { token: w.tokens.person });
    expect(unknown.status).toBe(404);
    const others = await call(t, 'GET', '/api/Privacy/exports/', { token: w.tokens.other });
    expect(others.json.results).toEqual([]);
  });

  it('refuses an expired download link with 410', async () => {
    const { rows } = await t.database.query(`SELECT storage_key FROM data_exports WHERE id = $1`, [exportId]);
    const ref = {
      kind: 'storage' as const,
      key: String(rows[0]?.storage_key),
      filename: 'x.zip',
      contentType: 'application/zip',
    };
    const old = signDownload(t.config, ref, 300, Date.now() - 301_000);
    const expired = await call(t, 'GET', old);
    expect(expired.status).toBe(410);
    expect(expired.json.code).toBe('link_expired');
  });

  it('answers 409 while one is pending, and takes a new request once it is done', async () => {
    const first = await call(t, 'POST', '/api/Privacy/exports/', { token: w.tokens.other });
    expect(first.status).toBe(202);
    const second = await call(t, 'POST', '/api/Privacy/exports/', { token: w.tokens.other });
    expect(second.status).toBe(409);
    expect(second.json.code).toBe('export_in_progress');
    expect(await runExport(t.ctx, Number(first.json.id))).toBe('ready');
    const third = await call(t, 'POST', '/api/Privacy/exports/', { token: w.tokens.other });
    expect(third.status).toBe(202);
    // A second run of the same job does nothing.
    expect(await runExport(t.ctx, Number(first.json.id))).toBe('skipped');
  });

  it('expires after its lifetime: no link, the zip deleted by housekeeping', async () => {
    const { rows } = await t.database.query(`SELECT storage_key FROM data_exports WHERE id = $1`, [exportId]);
    const key = String(rows[0]?.storage_key);
    const link = (await call(t, 'GET', `/api/Privacy/exports/${exportId}/`, { token: w.tokens.person })).json
      .download_url;
    await t.database.query(`UPDATE data_exports SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      exportId,
    ]);
    const read = await call(t, 'GET', `/api/Privacy/exports/${exportId}/`, { token: w.tokens.person });
    expect(read.json).toMatchObject({ status: 'expired', download_url: null, expires_at: null, size: null });
    const done = await housekeepExports(t.ctx);
    expect(done.expired).toBeGreaterThanOrEqual(1);
    await expect(t.ctx.storage.read(key)).rejects.toBeInstanceOf(StorageNotFoundError);
    // A link made before the expiry, still within its own minutes, finds nothing.
    expect((await call(t, 'GET', String(link))).status).toBe(404);
    const after = await call(t, 'GET', `/api/Privacy/exports/${exportId}/`, { token: w.tokens.person });
    expect(after.json.status).toBe('expired');
  });

  it('leaves no zip behind an account deleted meanwhile: housekeeping deletes the orphan', async () => {
    const leaver = await createUser(t);
    const token = await tokenFor(t, leaver);
    const asked = await call(t, 'POST', '/api/Privacy/exports/', { token });
    expect(await runExport(t.ctx, Number(asked.json.id))).toBe('ready');
    const { rows } = await t.database.query(`SELECT storage_key FROM data_exports WHERE id = $1`, [
      asked.json.id,
    ]);
    const key = String(rows[0]?.storage_key);
    expect((await call(t, 'DELETE', `/api/Auth/User/${leaver.id}/`, { token })).status).toBe(204);
    expect((await t.ctx.storage.read(key)).length).toBeGreaterThan(0);
    const done = await housekeepExports(t.ctx);
    expect(done.orphans).toBe(1);
    await expect(t.ctx.storage.read(key)).rejects.toBeInstanceOf(StorageNotFoundError);
    // Zips that rows still name stay.
    const { rows: live } = await t.database.query(
      `SELECT storage_key FROM data_exports WHERE status = 'ready' AND storage_key IS NOT NULL`,
    );
    for (const row of live)
      expect((await t.ctx.storage.read(String(row.storage_key))).length).toBeGreaterThan(0);
  });

  it('is failed after its last run fails, and then may be asked for again', async () => {
    const user = await createUser(t);
    const token = await tokenFor(t, user);
    const asked = await call(t, 'POST', '/api/Privacy/exports/', { token });
    const id = Number(asked.json.id);
    const put = t.ctx.storage.put.bind(t.ctx.storage);
    t.ctx.storage.put = () => Promise.reject(new Error('store is down'));
    try {
      await expect(runExport(t.ctx, id)).rejects.toThrow('store is down');
      await expect(runExport(t.ctx, id)).rejects.toThrow('store is down');
      expect(await runExport(t.ctx, id)).toBe('failed');
    } finally {
      t.ctx.storage.put = put;
    }
    const read = await call(t, 'GET', `/api/Privacy/exports/${id}/`, { token });
    expect(read.json.status).toBe('failed');
    expect((await call(t, 'POST', '/api/Privacy/exports/', { token })).status).toBe(202);
  });
});

function unzippedText(files: Map<string, Buffer>): string {
  return [...files.values()].map((data) => data.toString('utf8')).join('\n');
}

describe('a data export through the job queue', () => {
  let t: TestApp;
  const runs = new Map<number, (outcome: ExportOutcome) => void>();

  beforeAll(async () => {
    t = await createTestApp({ jobs: true });
    await startPrivacyJobs(t.ctx, { onRun: (id, outcome) => runs.get(id)?.(outcome) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is prepared in the background after the request', async () => {
    const user = await createUser(t);
    const token = await tokenFor(t, user);
    let resolveRun: (outcome: ExportOutcome) => void = () => undefined;
    const ran = new Promise<ExportOutcome>((resolve) => (resolveRun = resolve));
    // The id is known only from the answer; the job may finish first, so the hook waits on the row.
    const asked = await call(t, 'POST', '/api/Privacy/exports/', { token });
    expect(asked.status).toBe(202);
    const id = Number(asked.json.id);
    runs.set(id, resolveRun);
    const { rows } = await t.database.query(`SELECT status FROM data_exports WHERE id = $1`, [id]);
    if (rows[0]?.status !== 'ready') expect(await ran).toBe('ready');
    const read = await call(t, 'GET', `/api/Privacy/exports/${id}/`, { token });
    expect(read.json.status).toBe('ready');
    expect((await download(t, String(read.json.download_url))).status).toBe(200);
  });
});
