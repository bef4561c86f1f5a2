import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  FORUM_MESSAGES,
  ForumFile,
  ForumSignedUrl,
  MAX_FORUM_FILE_BYTES,
  MAX_FORUM_FILES_PER_POST,
  MAX_FORUM_PENDING_FILES,
} from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addStudent, createCourseWorld, createUser, tokenFor } from '../../../test/factories.ts';
import { forumFiles, forumRecords } from '../../db/schema-forum.ts';
import type { Actor } from '../../lib/context.ts';
import { storedFiles } from '../../../test/stored-files.ts';
import { multipartBody, type UploadPart } from '../assignments/testing.ts';
import * as repo from './files.repo.ts';
import { signFile } from './files.service.ts';

const ForumFiles = z.array(ForumFile);
const HOUR = 3_600_000;

/** A course with its callers, a classmate, a published topic and a scheduled announcement. */
async function createFilesWorld(t: TestApp) {
  const world = await createCourseWorld(t);
  const [classmate, otherStudent] = await Promise.all([createUser(t), createUser(t)]);
  await addStudent(t, world.course.id, classmate!.id);
  await addStudent(t, world.otherCourse.id, otherStudent!.id);
  const topic = await insertRecord(t, { courseId: world.course.id, authorId: world.users.student.id });
  const scheduled = await insertRecord(t, {
    courseId: world.course.id,
    authorId: world.users.editor.id,
    isAnnouncement: true,
    scheduledAt: new Date(Date.now() + 24 * HOUR),
    publishedAt: null,
  });
  return {
    ...world,
    topic,
    scheduled,
    users: { ...world.users, classmate: classmate!, otherStudent: otherStudent! },
    tokens: {
      ...world.tokens,
      classmate: await tokenFor(t, classmate!),
      otherStudent: await tokenFor(t, otherStudent!),
    },
  };
}

async function insertRecord(
  t: TestApp,
  fields: {
    courseId: number;
    authorId: number;
    parentId?: number;
    isAnnouncement?: boolean;
    scheduledAt?: Date;
    publishedAt?: Date | null;
  },
) {
  const [row] = await t.ctx.db
    .insert(forumRecords)
    .values({
      courseId: fields.courseId,
      authorId: fields.authorId,
      parentId: fields.parentId,
      title: fields.parentId ? '' : 'A topic',
      content: 'Hello',
      isAnnouncement: fields.isAnnouncement ?? false,
      scheduledAt: fields.scheduledAt,
      publishedAt: fields.publishedAt === undefined ? new Date() : fields.publishedAt,
      searchVector: '',
    })
    .returning();
  return row!;
}

async function send(
  t: TestApp,
  courseId: number,
  token: string | undefined,
  parts: UploadPart[],
  fields: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown>; body: unknown }> {
  const { payload, contentType } = multipartBody(parts, fields);
  const headers: Record<string, string> = { 'content-type': contentType };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/Forum/ForumFileUpload/${courseId}/`,
    headers,
    payload,
  });
  const body: unknown = response.json();
  const json = body !== null && typeof body === 'object' && !Array.isArray(body) ? { ...body } : {};
  return { status: response.statusCode, json, body };
}

const small = (filename: string, content: Buffer | string = `content of ${filename}`): UploadPart => ({
  filename,
  content,
});

describe('forum files: upload, delete, signed URLs', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof createFilesWorld>>;
  beforeAll(async () => {
    t = await createTestApp();
    w = await createFilesWorld(t);
  });
  afterAll(() => t.close());

  const stored = (courseId: number) => storedFiles(t, `forum/${courseId}`);
  const actor = (user: { id: number; email: string; isStaff: boolean }): Actor => ({
    userId: user.id,
    email: user.email,
    isStaff: user.isStaff,
    sessionId: 'test',
  });
  const uploadOne = async (token: string, filename = 'notes.txt', fields: Record<string, string> = {}) => {
    const res = await send(t, w.course.id, token, [small(filename)], fields);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return ForumFiles.parse(res.body)[0]!;
  };
  const rowsOf = (userId: number) =>
    t.ctx.db.select().from(forumFiles).where(eq(forumFiles.uploadedBy, userId));

  it('uploads into the tray with types decided from the names', async () => {
    const before = (await stored(w.course.id)).length;
    const res = await send(t, w.course.id, w.tokens.student, [
      { ...small('plot.PNG'), contentType: 'text/html' },
      { ...small('page.html'), contentType: 'text/html' },
      { ...small('logo.svg'), contentType: 'image/svg+xml' },
      small('C:\\fakepath\\solve.py'),
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const files = ForumFiles.parse(res.body);
    expect(files.map((f) => [f.filename, f.content_type, f.is_image, f.record_id])).toEqual([
      ['plot.PNG', 'image/png', true, null],
      ['page.html', 'application/octet-stream', false, null],
      ['logo.svg', 'application/octet-stream', false, null],
      ['solve.py', 'text/x-python', false, null],
    ]);
    expect(files.every((f) => f.uploaded_by === w.users.student.id && f.course_id === w.course.id)).toBe(
      true,
    );
    expect(files[0]!.size).toBe('content of plot.PNG'.length);
    expect(await stored(w.course.id)).toHaveLength(before + 4);
  });

  it('follows the spec’s rule for editor uploads, as assignment attachments do: 5 MB per file, 5 files', () => {
    expect(MAX_FORUM_FILE_BYTES).toBe(5 * 1024 * 1024);
    expect(MAX_FORUM_FILES_PER_POST).toBe(5);
  });

  it('refuses a file of 5 MB and a byte with 413 and the limit message, storing nothing', async () => {
    const before = (await stored(w.course.id)).length;
    const rows = (await rowsOf(w.users.classmate.id)).length;
    const res = await send(t, w.course.id, w.tokens.classmate, [
      small('ok.txt'),
      small('big.bin', Buffer.alloc(MAX_FORUM_FILE_BYTES + 1, 1)),
    ]);
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({ detail: FORUM_MESSAGES.uploadLimit, code: 'too_large' });
    expect(String(res.json.file)).toContain('big.bin');
    expect(await stored(w.course.id)).toHaveLength(before);
    expect(await rowsOf(w.users.classmate.id)).toHaveLength(rows);
  });

  it('takes a file of exactly the limit', async () => {
    const res = await send(t, w.course.id, w.tokens.editor, [
      small('exact.bin', Buffer.alloc(MAX_FORUM_FILE_BYTES, 2)),
    ]);
    expect(res.status).toBe(201);
    expect(ForumFiles.parse(res.body)[0]!.size).toBe(MAX_FORUM_FILE_BYTES);
  });

  it('refuses a sixth file in one request with 400 and the limit message, storing nothing', async () => {
    const before = (await stored(w.course.id)).length;
    const res = await send(
      t,
      w.course.id,
      w.tokens.classmate,
      [1, 2, 3, 4, 5, 6].map((n) => small(`f${n}.txt`)),
    );
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ detail: FORUM_MESSAGES.uploadLimit, code: 'too_many_files' });
    expect(await stored(w.course.id)).toHaveLength(before);
  });

  it('refuses uploads past the tray limit', async () => {
    const user = await createUser(t);
    await addStudent(t, w.course.id, user.id);
    const token = await tokenFor(t, user);
    await t.ctx.db.insert(forumFiles).values(
      Array.from({ length: MAX_FORUM_PENDING_FILES - 1 }, (_, i) => ({
        courseId: w.course.id,
        uploadedBy: user.id,
        storageKey: `forum/${w.course.id}/placeholder${i}`,
        filename: `p${i}.txt`,
        size: 1,
        contentType: 'text/plain',
      })),
    );
    const before = (await stored(w.course.id)).length;
    const two = await send(t, w.course.id, token, [small('a.txt'), small('b.txt')]);
    expect(two.status).toBe(400);
    expect(two.json).toMatchObject({ detail: FORUM_MESSAGES.uploadLimit });
    expect(await stored(w.course.id)).toHaveLength(before);
    expect((await send(t, w.course.id, token, [small('a.txt')])).status).toBe(201);
  });

  it('attaches directly to a post the caller may edit, at most five per post', async () => {
    const topic = await insertRecord(t, { courseId: w.course.id, authorId: w.users.classmate.id });
    const three = await send(
      t,
      w.course.id,
      w.tokens.classmate,
      [small('1.txt'), small('2.txt'), small('3.txt')],
      { record: String(topic.id) },
    );
    expect(three.status).toBe(201);
    expect(ForumFiles.parse(three.body).map((f) => f.record_id)).toEqual([topic.id, topic.id, topic.id]);
    // An editor of the course may add to anyone's post.
    expect(
      (await send(t, w.course.id, w.tokens.editor, [small('4.txt')], { record: String(topic.id) })).status,
    ).toBe(201);
    expect(
      (await send(t, w.course.id, w.tokens.classmate, [small('5.txt')], { record: String(topic.id) })).status,
    ).toBe(201);
    const sixth = await send(t, w.course.id, w.tokens.classmate, [small('6.txt')], {
      record: String(topic.id),
    });
    expect(sixth.status).toBe(400);
    expect(sixth.json).toMatchObject({ detail: FORUM_MESSAGES.uploadLimit, code: 'too_many_files' });
    expect((await repo.listFilesOfRecords(t.ctx.db, [topic.id])).get(topic.id)).toHaveLength(5);

    // Another student's post: 403; a post they cannot see or of another course: 404; not an id: 400.
    const mine = { record: String(w.topic.id) };
    expect((await send(t, w.course.id, w.tokens.classmate, [small('x.txt')], mine)).status).toBe(403);
    const hidden = { record: String(w.scheduled.id) };
    expect((await send(t, w.course.id, w.tokens.classmate, [small('x.txt')], hidden)).status).toBe(404);
    const elsewhere = await insertRecord(t, { courseId: w.otherCourse.id, authorId: w.users.staff.id });
    const foreign = { record: String(elsewhere.id) };
    expect((await send(t, w.course.id, w.tokens.staff, [small('x.txt')], foreign)).status).toBe(404);
    expect((await send(t, w.course.id, w.tokens.classmate, [small('x.txt')], { record: 'abc' })).status).toBe(
      400,
    );
  });

  it('answers 404 to non-members and 401 to the anonymous, storing nothing', async () => {
    const before = (await stored(w.course.id)).length;
    expect((await send(t, w.course.id, w.tokens.otherStudent, [small('a.txt')])).status).toBe(404);
    expect((await send(t, w.course.id, w.tokens.otherEditor, [small('a.txt')])).status).toBe(404);
    expect((await send(t, 999_999, w.tokens.student, [small('a.txt')])).status).toBe(404);
    expect((await send(t, w.course.id, undefined, [small('a.txt')])).status).toBe(401);
    expect(await stored(w.course.id)).toHaveLength(before);
  });

  it('takes names in any script, lists them as given (NFC) and downloads them under that name', async () => {
    const topic = await insertRecord(t, { courseId: w.course.id, authorId: w.users.student.id });
    const res = await send(
      t,
      w.course.id,
      w.tokens.student,
      [small('資料.pdf'), small('第1回 課題.py'), small('か\u3099.txt')],
      { record: String(topic.id) },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const files = ForumFiles.parse(res.body);
    expect(files.map((f) => [f.filename, f.content_type])).toEqual([
      ['資料.pdf', 'application/pdf'],
      ['第1回 課題.py', 'text/x-python'],
      ['が.txt', 'text/plain'],
    ]);
    expect(files[2]!.filename).toHaveLength(5);
    // Listed with the post, as given.
    const post = await call(t, 'GET', `/api/Forum/Record/${topic.id}/`, { token: w.tokens.classmate });
    const names = (post.json.attachments as { filename: string }[]).map((f) => f.filename);
    expect(names).toEqual(expect.arrayContaining(['資料.pdf', '第1回 課題.py', 'が.txt']));

    const disposition = async (file: ForumFile) => {
      const signed = await signFile(t.ctx, actor(w.users.classmate), file.id);
      const download = await t.app.inject({ method: 'GET', url: signed.url });
      expect(download.statusCode).toBe(200);
      return download.headers['content-disposition'];
    };
    expect(await disposition(files[0]!)).toBe(
      `attachment; filename="__.pdf"; filename*=UTF-8''%E8%B3%87%E6%96%99.pdf`,
    );
    expect(await disposition(files[1]!)).toBe(
      `attachment; filename="_1____.py"; filename*=UTF-8''%E7%AC%AC1%E5%9B%9E%20%E8%AA%B2%E9%A1%8C.py`,
    );
  });

  it('refuses folders, "..", a leading dot, control characters and names over 255 bytes', async () => {
    const before = (await stored(w.course.id)).length;
    for (const filename of [
      '../x.pdf',
      'a/b.pdf',
      'a\\b.pdf',
      '.hidden',
      'a\u0000b.pdf',
      'a\u0007b.pdf',
      `${'あ'.repeat(100)}.pdf`,
    ]) {
      const res = await send(t, w.course.id, w.tokens.student, [small(filename)]);
      expect([res.status, res.json.code], JSON.stringify(filename)).toEqual([400, 'invalid_filename']);
    }
    expect(await stored(w.course.id)).toHaveLength(before);
  });

  it('refuses a text field with control characters, naming the field', async () => {
    const res = await send(t, w.course.id, w.tokens.student, [small('a.txt')], { note: 'a\u0000b' });
    expect(res.status).toBe(400);
    expect(res.json.note).toEqual(['Control characters (U+0000) are not allowed.']);
  });

  it('answers 415 to a body that is not multipart, 400 to no file or a bad name', async () => {
    const json = await call(t, 'POST', `/api/Forum/ForumFileUpload/${w.course.id}/`, {
      token: w.tokens.student,
      body: { file: 'x' },
    });
    expect(json.status).toBe(415);
    expect((await send(t, w.course.id, w.tokens.student, [], { a: 'b' })).status).toBe(400);
    const badName = await send(t, w.course.id, w.tokens.student, [small('../etc/passwd')]);
    expect(badName.status).toBe(400);
    expect(badName.json.code).toBe('invalid_filename');
  });

  it('deletes a file for its uploader and for managers; 403 to classmates who see it, 404 otherwise', async () => {
    const del = (id: number, token: string) =>
      call(t, 'DELETE', `/api/Forum/ForumFileUpload/${id}/`, { token }).then((r) => r.status);
    const own = await uploadOne(w.tokens.student, 'own.txt');
    const before = (await stored(w.course.id)).length;
    expect(await del(own.id, w.tokens.classmate)).toBe(404); // someone else's tray
    expect(await del(own.id, w.tokens.otherStudent)).toBe(404);
    expect(await del(own.id, w.tokens.student)).toBe(204);
    expect(await stored(w.course.id)).toHaveLength(before - 1);
    expect(await del(own.id, w.tokens.student)).toBe(404);
    expect(await del(2_000_000, w.tokens.student)).toBe(404);

    const onPost = await uploadOne(w.tokens.student, 'shown.txt', { record: String(w.topic.id) });
    expect(await del(onPost.id, w.tokens.classmate)).toBe(403);
    expect(await del(onPost.id, w.tokens.otherEditor)).toBe(404);
    expect(await del(onPost.id, w.tokens.editor)).toBe(204);
    const byStaff = await uploadOne(w.tokens.student, 'staff.txt');
    expect(await del(byStaff.id, w.tokens.staff)).toBe(204);
    expect(await rowsOf(w.users.student.id)).not.toContainEqual(expect.objectContaining({ id: byStaff.id }));
  });

  it('signs a URL that serves the bytes as an inert attachment, and expires', async () => {
    const res = await send(
      t,
      w.course.id,
      w.tokens.student,
      [small('evil.html', '<script>alert(1)</script>')],
      {
        record: String(w.topic.id),
      },
    );
    const file = ForumFiles.parse(res.body)[0]!;
    const signed = await call(t, 'GET', '/api/Forum/ForumSignedURL/', {
      token: w.tokens.classmate,
      query: { file: String(file.id) },
    });
    expect(signed.status).toBe(200);
    const { url, expires_at } = ForumSignedUrl.parse(signed.body);
    const lifetime = Date.parse(expires_at) - Date.now();
    expect(lifetime).toBeGreaterThan((t.config.SIGNED_URL_LIFETIME - 5) * 1000);
    expect(lifetime).toBeLessThanOrEqual(t.config.SIGNED_URL_LIFETIME * 1000);

    const download = await t.app.inject({ method: 'GET', url }); // the token is the credential
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('<script>alert(1)</script>');
    expect(download.headers['content-type']).toBe('application/octet-stream');
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="evil.html"/);
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['content-security-policy']).toBe("default-src 'none'; sandbox");

    const image = await uploadOne(w.tokens.student, 'dot.png', { record: String(w.topic.id) });
    const imageUrl = await signFile(t.ctx, actor(w.users.student), image.id);
    const imageDownload = await t.app.inject({ method: 'GET', url: imageUrl.url });
    expect(imageDownload.headers['content-type']).toBe('image/png');
    expect(imageDownload.headers['content-security-policy']).toBe("default-src 'none'; sandbox");

    const long = (t.config.SIGNED_URL_LIFETIME + 5) * 1000;
    const old = await signFile(t.ctx, actor(w.users.classmate), file.id, Date.now() - long);
    expect((await t.app.inject({ method: 'GET', url: old.url })).statusCode).toBe(410);
  });

  it('signs only for those who can see the post: not a scheduled announcement or another tray to students', async () => {
    const sign = (id: number, token?: string) =>
      call(t, 'GET', '/api/Forum/ForumSignedURL/', { token, query: { file: String(id) } }).then(
        (r) => r.status,
      );
    const onScheduled = await uploadOne(w.tokens.editor, 'exam.pdf', { record: String(w.scheduled.id) });
    expect(await sign(onScheduled.id, w.tokens.student)).toBe(404);
    expect(await sign(onScheduled.id, w.tokens.editor)).toBe(200);
    expect(await sign(onScheduled.id, w.tokens.staff)).toBe(200);

    const comment = await insertRecord(t, {
      courseId: w.course.id,
      authorId: w.users.editor.id,
      parentId: w.scheduled.id,
    });
    const onComment = await uploadOne(w.tokens.editor, 'c.txt', { record: String(comment.id) });
    expect(await sign(onComment.id, w.tokens.student)).toBe(404);

    const tray = await uploadOne(w.tokens.student, 'draft.txt');
    expect(await sign(tray.id, w.tokens.student)).toBe(200);
    expect(await sign(tray.id, w.tokens.classmate)).toBe(404);
    expect(await sign(tray.id, w.tokens.otherStudent)).toBe(404);
    expect(await sign(tray.id)).toBe(401);
    expect(await sign(3_000_000, w.tokens.student)).toBe(404);
  });
});
