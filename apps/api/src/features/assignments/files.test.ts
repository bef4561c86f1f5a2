import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AssignmentFileList,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS,
  UPLOAD_LIMIT_MESSAGE,
} from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addEditor, addStudent, createCourse, createUser, tokenFor } from '../../../test/factories.ts';
import { submissionFiles } from '../../db/schema-assignments.ts';
import { signDownload } from '../../lib/downloads.ts';
import { storedFiles } from '../../../test/stored-files.ts';
import { insertAssignment, insertSubmission, multipartBody, upload, type UploadPart } from './testing.ts';

describe('attachments (FileUpload) and signed downloads', () => {
  let t: TestApp;
  let course: { id: number };
  let editor: string;
  let student: string;
  let studentId: number;

  beforeAll(async () => {
    t = await createTestApp();
    course = await createCourse(t);
    const [e, s] = await Promise.all([createUser(t), createUser(t)]);
    await addEditor(t, course.id, e!.id);
    await addStudent(t, course.id, s!.id);
    editor = await tokenFor(t, e!);
    student = await tokenFor(t, s!);
    studentId = s!.id;
  });
  afterAll(() => t.close());

  const newAssignment = async () => {
    const a = await insertAssignment(t, { courses: [{ courseId: course.id }] });
    return { id: a.id, url: `/api/Assignment/${a.id}/${course.id}/FileUpload/` };
  };
  const listed = async (url: string) =>
    AssignmentFileList.parse((await call(t, 'GET', url, { token: student })).body);
  /** Every file under the assignment's storage folder, temporary ones included. */
  const stored = (assignmentId: number) => storedFiles(t, `assignments/${assignmentId}`);
  const small = (filename: string): UploadPart => ({ filename, content: `content of ${filename}` });

  it('attaches several files in one request and lists them by name', async () => {
    const a = await newAssignment();
    const res = await upload(t, a.url, editor, [
      small('b.txt'),
      small('a.csv'),
      { ...small('C:\\fakepath\\c.py') },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const added = AssignmentFileList.parse(res.body);
    expect(added.map((f) => [f.filename, f.content_type, f.size])).toEqual([
      ['b.txt', 'text/plain', 'content of b.txt'.length],
      ['a.csv', 'text/csv', 'content of a.csv'.length],
      ['c.py', 'text/plain', 'content of C:\\fakepath\\c.py'.length],
    ]);
    expect((await listed(a.url)).map((f) => f.filename)).toEqual(['a.csv', 'b.txt', 'c.py']);
    expect(await stored(a.id)).toHaveLength(3);
  });

  it('follows the spec’s rule for editor uploads, as forum files do: 5 MB per file, 5 files', () => {
    expect(MAX_ATTACHMENT_BYTES).toBe(5 * 1024 * 1024);
    expect(MAX_ATTACHMENTS).toBe(5);
  });

  it('refuses a file of 5 MB and a byte with 413 and keeps nothing of the request; takes 5 MB', async () => {
    const a = await newAssignment();
    const res = await upload(t, a.url, editor, [
      small('first.txt'),
      { filename: 'big.bin', content: Buffer.alloc(MAX_ATTACHMENT_BYTES + 1, 1) },
    ]);
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({ code: 'too_large', detail: UPLOAD_LIMIT_MESSAGE });
    expect(String(res.json.file)).toContain('big.bin');
    expect(String(res.json.file)).toContain('5 MB');
    expect(await listed(a.url)).toEqual([]);
    expect(await stored(a.id)).toEqual([]);
    const exact = await upload(t, a.url, editor, [
      { filename: 'max.bin', content: Buffer.alloc(MAX_ATTACHMENT_BYTES) },
    ]);
    expect(exact.status).toBe(201);
  });

  it(`refuses a sixth file (more than ${MAX_ATTACHMENTS} per assignment) with 400`, async () => {
    const a = await newAssignment();
    const many = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => small(`${prefix}${i}.txt`));
    expect((await upload(t, a.url, editor, many(MAX_ATTACHMENTS - 1, 'a'))).status).toBe(201);
    const over = await upload(t, a.url, editor, many(2, 'b'));
    expect(over.status).toBe(400);
    expect(over.json).toMatchObject({ code: 'too_many_files', detail: UPLOAD_LIMIT_MESSAGE });
    expect(String(over.json.file)).toContain('at most 1 more');
    expect(await listed(a.url)).toHaveLength(MAX_ATTACHMENTS - 1);
    expect((await upload(t, a.url, editor, many(1, 'c'))).status).toBe(201);
    const full = await upload(t, a.url, editor, many(1, 'd'));
    expect(full.status).toBe(400);
    expect(await stored(a.id)).toHaveLength(MAX_ATTACHMENTS);
    const other = await newAssignment();
    const tooManyAtOnce = await upload(t, other.url, editor, many(MAX_ATTACHMENTS + 1, 'e'));
    expect(tooManyAtOnce.status).toBe(400);
    expect(await stored(other.id)).toEqual([]);
  });

  it('takes names in any script, lists them as given (NFC) and downloads them under that name', async () => {
    const a = await newAssignment();
    const res = await upload(t, a.url, editor, [
      small('資料.pdf'),
      small('第1回 課題.py'),
      // "が" as a Mac writes it: "か" and a combining mark.
      small('か\u3099.txt'),
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(AssignmentFileList.parse(res.body).map((f) => f.filename)).toEqual([
      '資料.pdf',
      '第1回 課題.py',
      'が.txt',
    ]);
    const files = await listed(a.url);
    // In the database's order, which depends on its collation.
    expect(files.map((f) => `${f.filename} ${f.content_type}`).sort()).toEqual(
      ['が.txt text/plain', '資料.pdf application/pdf', '第1回 課題.py text/plain'].sort(),
    );
    expect(files.find((f) => f.filename.endsWith('.txt'))!.filename).toHaveLength(5);
    const disposition = async (name: string) => {
      const res = await call(t, 'GET', files.find((f) => f.filename === name)!.url);
      expect(res.status).toBe(200);
      expect(res.body).toBe(`content of ${name}`);
      return res.headers['content-disposition'];
    };
    expect(await disposition('資料.pdf')).toBe(
      `attachment; filename="__.pdf"; filename*=UTF-8''%E8%B3%87%E6%96%99.pdf`,
    );
    expect(await disposition('第1回 課題.py')).toBe(
      `attachment; filename="_1____.py"; filename*=UTF-8''%E7%AC%AC1%E5%9B%9E%20%E8%AA%B2%E9%A1%8C.py`,
    );
    // The NFC name is the name: the same name typed on Windows is already attached.
    const again = await upload(t, a.url, editor, [small('が.txt')]);
    expect([again.status, again.json.code]).toEqual([409, 'duplicate_filename']);
  });

  it('refuses bad file names with 400 and a name already attached with 409', async () => {
    const a = await newAssignment();
    for (const filename of [
      '../x.pdf',
      '.hidden',
      'a/b.pdf',
      'a\\b.pdf',
      'x/../../etc/passwd',
      '',
      '..',
      'a\u0000b.pdf',
      'a\u0007b.pdf',
      `${'あ'.repeat(100)}.pdf`,
    ]) {
      const res = await upload(t, a.url, editor, [small(filename)]);
      expect(res.status, filename).toBe(400);
      expect(res.json.code, filename).toBe('invalid_filename');
    }
    expect((await upload(t, a.url, editor, [small('data.csv')])).status).toBe(201);
    const again = await upload(t, a.url, editor, [small('data.csv')]);
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('duplicate_filename');
    const twice = await upload(t, a.url, editor, [small('x.txt'), small('x.txt')]);
    expect(twice.status).toBe(400);
    expect((await listed(a.url)).map((f) => f.filename)).toEqual(['data.csv']);
    expect(await stored(a.id)).toHaveLength(1);
  });

  it('answers 415 to a body that is not multipart and 400 to one without files or malformed', async () => {
    const a = await newAssignment();
    const json = await call(t, 'POST', a.url, { token: editor, body: { filename: 'x.txt' } });
    expect(json.status).toBe(415);
    const noFiles = multipartBody([], { note: 'hello' });
    const empty = await t.app.inject({
      method: 'POST',
      url: a.url,
      headers: { authorization: `Bearer ${editor}`, 'content-type': noFiles.contentType },
      payload: noFiles.payload,
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'no_files' });
    const broken = multipartBody([small('x.txt')]);
    const truncated = await t.app.inject({
      method: 'POST',
      url: a.url,
      headers: { authorization: `Bearer ${editor}`, 'content-type': broken.contentType },
      payload: broken.payload.subarray(0, broken.payload.length - 30),
    });
    expect(truncated.statusCode).toBe(400);
    expect(await listed(a.url)).toEqual([]);
  });

  it('deletes an attachment, its stored bytes and so its download', async () => {
    const a = await newAssignment();
    const [file] = AssignmentFileList.parse((await upload(t, a.url, editor, [small('gone.txt')])).body);
    const b = await newAssignment();
    expect((await call(t, 'DELETE', `${b.url}${file!.id}/`, { token: editor })).status).toBe(404);
    expect((await call(t, 'DELETE', `${a.url}999999/`, { token: editor })).status).toBe(404);
    expect((await call(t, 'DELETE', `${a.url}${file!.id}/`, { token: student })).status).toBe(403);
    expect((await call(t, 'DELETE', `${a.url}${file!.id}/`, { token: editor })).status).toBe(204);
    expect(await stored(a.id)).toEqual([]);
    expect((await call(t, 'GET', file!.url)).status).toBe(404);
    expect((await call(t, 'DELETE', `${a.url}${file!.id}/`, { token: editor })).status).toBe(404);
  });

  describe('GET Download/{token}', () => {
    it('sends an attachment, never sniffed, and HTML only as bytes', async () => {
      const a = await newAssignment();
      const [page] = AssignmentFileList.parse(
        (
          await upload(t, a.url, editor, [
            { filename: 'page.html', content: '<script>alert(1)</script>', contentType: 'text/html' },
          ])
        ).body,
      );
      expect(page!.content_type).toBe('application/octet-stream');
      const res = await call(t, 'GET', page!.url);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="page.html"; filename*=UTF-8''page.html`,
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(res.body).toBe('<script>alert(1)</script>');
    });

    it('answers 410 to an expired link and 404 to a tampered or foreign one', async () => {
      const ref = {
        kind: 'storage',
        key: 'assignments/1/abc',
        filename: 'x.txt',
        contentType: 'text/plain',
      } as const;
      const expired = signDownload(t.config, ref, 60, Date.now() - 61_000);
      const res = await call(t, 'GET', expired);
      expect(res.status).toBe(410);
      expect(res.json.code).toBe('link_expired');

      const a = await newAssignment();
      const [file] = AssignmentFileList.parse((await upload(t, a.url, editor, [small('secret.txt')])).body);
      const token = file!.url.slice('/api/Download/'.length);
      const [payload, signature] = token.split('.') as [string, string];
      const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp: number };
      const longer = Buffer.from(JSON.stringify({ ...decoded, exp: decoded.exp + 86_400 })).toString(
        'base64url',
      );
      const otherSecret = signDownload(
        { JWT_SECRET: 'another-secret-0123456789-0123456789', SIGNED_URL_LIFETIME: 60 },
        ref,
      );
      for (const url of [
        `/api/Download/${longer}.${signature}`,
        // Always a change: a signature that happens to end in AA gets BA (it did, now and then).
        `/api/Download/${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BA' : 'AA'}`,
        `/api/Download/${payload}`,
        '/api/Download/not-a-token',
        otherSecret,
      ]) {
        expect((await call(t, 'GET', url)).status, url).toBe(404);
      }
      expect((await call(t, 'GET', `/api/Download/${'a'.repeat(1001)}`)).status).toBe(414);
      expect((await call(t, 'GET', file!.url)).status).toBe(200);
    });

    it('sends a submitted file by id from the database', async () => {
      const a = await newAssignment();
      const submission = await insertSubmission(t, {
        assignmentId: a.id,
        courseId: course.id,
        userId: studentId,
      });
      const [row] = await t.ctx.db
        .insert(submissionFiles)
        .values({
          submissionId: submission.id,
          filename: 'main.py',
          content: Buffer.from('print(1)\n'),
          size: 9,
        })
        .returning();
      const res = await call(t, 'GET', signDownload(t.config, { kind: 'submission_file', id: row!.id }));
      expect(res.status).toBe(200);
      expect(res.body).toBe('print(1)\n');
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['content-disposition']).toContain("filename*=UTF-8''main.py");
      expect(
        (await call(t, 'GET', signDownload(t.config, { kind: 'submission_file', id: 999_999 }))).status,
      ).toBe(404);
    });
  });
});
