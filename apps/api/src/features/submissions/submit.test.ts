import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Submission, SubmissionDetail, SubmissionFileList } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addStudent, tokenFor } from '../../../test/factories.ts';
import {
  createSubmissionWorld,
  hoursFromNow,
  insertAssignment,
  quickUser,
  setLink,
  setRules,
  upload,
  type SubmissionWorld,
} from './testing.ts';

describe('POST Submission/Submit/ and FileSubmission', () => {
  let t: TestApp;
  let w: SubmissionWorld;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A fresh world per test: each one changes dates, rules or counts. */
  const fresh = async () => {
    w = await createSubmissionWorld(t);
    return w;
  };
  const submit = (body: Record<string, unknown>, token = w.tokens.student) =>
    call(t, 'POST', '/api/Submission/Submit/', {
      token,
      body: { assignment_id: w.assignment.id, course_id: w.course.id, ...body },
    });

  it('saves the code as the entry file and queues it, committed before the queue is asked', async () => {
    await fresh();
    const res = await submit({ code: 'print(sum(map(int, input().split())))\n' });
    expect(res.status).toBe(201);
    const submission = Submission.parse(res.body);
    // The test app's job queue is stopped: sending fails, yet the submission is saved and Scheduled.
    expect(submission.status).toBe('Scheduled');
    expect(submission.is_late).toBe(false);
    expect(submission.user.id).toBe(w.users.student.id);
    expect(submission.files.map((f) => f.filename)).toEqual(['main.py']);
    expect(submission.queue_position).toBeGreaterThanOrEqual(1);
    const detail = SubmissionDetail.parse(
      (await call(t, 'GET', `/api/Submission/${submission.id}/`, { token: w.tokens.student })).body,
    );
    expect(detail.files[0]!.content).toBe('print(sum(map(int, input().split())))\n');
  });

  it('tells each waiting submission its place in the queue', async () => {
    await fresh();
    const first = Submission.parse((await submit({ code: 'print(1)' })).body);
    const second = Submission.parse((await submit({ code: 'print(2)' })).body);
    expect(second.queue_position).toBe(first.queue_position! + 1);
    await call(t, 'POST', `/api/Submission/${first.id}/cancel/`, { token: w.tokens.editor });
    const again = Submission.parse(
      (await call(t, 'GET', `/api/Submission/${second.id}/`, { token: w.tokens.student })).body,
    );
    expect(again.queue_position).toBe(first.queue_position);
  });

  it('accepts text and base64 files beside the code; binary files have a link and no inline text', async () => {
    await fresh();
    await setRules(t, w.assignment.id, { allowedExtensions: ['.py', '.bin'] });
    const bytes = Buffer.from([0, 1, 2, 255, 254]);
    const res = await submit({
      code: 'import helper\n',
      files: [
        { filename: 'helper.py', content: 'X = 1\n' },
        { filename: 'data.bin', content: bytes.toString('base64'), encoding: 'base64' },
      ],
    });
    expect(res.status).toBe(201);
    const detail = SubmissionDetail.parse(
      (await call(t, 'GET', `/api/Submission/${res.json.id}/`, { token: w.tokens.student })).body,
    );
    const binary = detail.files.find((f) => f.filename === 'data.bin')!;
    expect(binary.content).toBeNull();
    expect(binary.size).toBe(5);
    const download = await t.app.inject({ method: 'GET', url: binary.url });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(bytes)).toBe(true);
    expect(detail.files.find((f) => f.filename === 'helper.py')!.content).toBe('X = 1\n');
  });

  it('refuses bad files with a clear message and the right status', async () => {
    await fresh();
    await setRules(t, w.assignment.id, { maxFiles: 2, maxFileBytes: 100, requiredFiles: ['util.py'] });
    const helper = { filename: 'util.py', content: 'X = 1\n' };
    const cases: [Record<string, unknown>, number, string][] = [
      [{}, 400, 'empty_submission'],
      [{ code: '   \n' }, 400, 'empty_submission'],
      [{ code: 'print(1)' }, 400, 'missing_files'],
      [{ code: 'x' + '#'.repeat(200), files: [helper] }, 413, 'too_large'],
      [
        { code: 'print(1)', files: [helper, { filename: 'notes.txt', content: 'hi' }] },
        400,
        'extension_not_allowed',
      ],
      [{ code: 'print(1)', files: [helper, { filename: 'b.py', content: '' }] }, 400, 'too_many_files'],
      [{ files: [helper, helper] }, 400, 'duplicate_filename'],
      [
        { code: 'print(1)', files: [{ filename: 'util.py', content: '%%%', encoding: 'base64' }] },
        400,
        'invalid_base64',
      ],
      [{ code: 'print(1)', files: [{ filename: '../etc/passwd.py', content: '' }] }, 400, 'invalid'],
      [{ code: 'print(1)', files: [{ filename: '.hidden.py', content: '' }] }, 400, 'invalid'],
    ];
    for (const [body, status, code] of cases) {
      const res = await submit(body);
      expect({ body, status: res.status, code: res.json.code }).toEqual({ body, status, code });
      expect(typeof res.json.detail).toBe('string');
    }
    expect((await submit({ code: 'x' + '#'.repeat(200), files: [helper] })).json.detail).toBe(
      '"main.py" is larger than the limit of 100 bytes per file.',
    );
    expect((await submit({ code: 'print(1)', files: [helper] })).status).toBe(201);
  });

  it('follows the course dates: not yet open, late window, closed', async () => {
    await fresh();
    const course = w.course.id;
    await setLink(t, w.assignment.id, course, { opensAt: hoursFromNow(1), dueAt: hoursFromNow(2) });
    const early = await submit({ code: 'print(1)' });
    expect([early.status, early.json.code, early.json.detail]).toEqual([
      403,
      'not_open',
      'This assignment is not open yet.',
    ]);

    await setLink(t, w.assignment.id, course, {
      opensAt: hoursFromNow(-3),
      dueAt: hoursFromNow(-1),
      lateUntil: hoursFromNow(1),
    });
    const late = await submit({ code: 'print(1)' });
    expect(late.status).toBe(201);
    expect(late.json.is_late).toBe(true);

    await setLink(t, w.assignment.id, course, { lateUntil: hoursFromNow(-0.5) });
    const closed = await submit({ code: 'print(1)' });
    expect([closed.status, closed.json.code, closed.json.detail]).toEqual([
      403,
      'closed',
      'The deadline has passed; submissions are closed.',
    ]);

    await setLink(t, w.assignment.id, course, { lateUntil: null });
    expect((await submit({ code: 'print(1)' })).status).toBe(403);
  });

  it('answers 404 to outsiders and for an assignment not given in the course', async () => {
    await fresh();
    expect((await submit({ code: 'print(1)' }, w.tokens.otherEditor)).status).toBe(404);
    const elsewhere = await insertAssignment(t, { courses: [{ courseId: w.otherCourse.id }] });
    expect((await submit({ code: 'print(1)', assignment_id: elsewhere.id })).status).toBe(404);
    expect((await submit({ code: 'print(1)', assignment_id: 2_000_000_000 })).status).toBe(404);
  });

  it('limits submissions to 10 a minute per assignment', async () => {
    await fresh();
    const other = await quickUser(t);
    await addStudent(t, w.course.id, other.id);
    const token = await tokenFor(t, other);
    for (let i = 0; i < 10; i++) expect((await submit({ code: `print(${i})` }, token)).status).toBe(201);
    const refused = await submit({ code: 'print(11)' }, token);
    expect(refused.status).toBe(429);
    expect(refused.json.code).toBe('throttled');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Someone else is not held back.
    expect((await submit({ code: 'print(1)' })).status).toBe(201);
  });

  it('uploads files later to a Pending submission, then its author queues it', async () => {
    await fresh();
    await setRules(t, w.assignment.id, {
      maxFiles: 2,
      maxFileBytes: 1000,
      allowedExtensions: ['.py', '.txt'],
    });
    const created = await submit({ upload_files_later: true });
    expect(created.status).toBe(201);
    expect(created.json.status).toBe('Pending');
    const id = Number(created.json.id);
    const files = `/api/Submission/${id}/FileSubmission/`;

    // Nothing to grade yet.
    expect(
      (await call(t, 'POST', `/api/Score/${id}/submission_specific/`, { token: w.tokens.student })).status,
    ).toBe(400);

    const added = await upload(t, files, w.tokens.student, [{ filename: 'main.py', content: 'print(1)\n' }]);
    expect(added.status).toBe(201);
    const [main] = SubmissionFileList.parse(added.body);
    expect(main!.filename).toBe('main.py');

    const again = await upload(t, files, w.tokens.student, [{ filename: 'main.py', content: 'print(2)\n' }]);
    expect([again.status, again.json.code]).toEqual([409, 'duplicate_filename']);
    const big = await upload(t, files, w.tokens.student, [
      { filename: 'big.txt', content: 'x'.repeat(1001) },
    ]);
    expect([big.status, big.json.code]).toEqual([413, 'too_large']);
    const wrong = await upload(t, files, w.tokens.student, [{ filename: 'run.sh', content: 'ls' }]);
    expect([wrong.status, wrong.json.code]).toEqual([400, 'extension_not_allowed']);
    // Code files keep importable names; only attachments and other uploads take any script.
    const named = await upload(t, files, w.tokens.student, [{ filename: '第1回 課題.py', content: 'x' }]);
    expect([named.status, named.json.code]).toEqual([400, 'invalid_filename']);
    const many = await upload(t, files, w.tokens.student, [
      { filename: 'a.txt', content: 'a' },
      { filename: 'b.txt', content: 'b' },
    ]);
    expect([many.status, many.json.code]).toEqual([400, 'too_many_files']);
    const notMultipart = await call(t, 'POST', files, { token: w.tokens.student, body: { files: [] } });
    expect(notMultipart.status).toBe(415);

    const extra = SubmissionFileList.parse(
      (await upload(t, files, w.tokens.student, [{ filename: 'a.txt', content: 'a' }])).body,
    );
    expect((await call(t, 'DELETE', `${files}${extra[0]!.id}/`, { token: w.tokens.student })).status).toBe(
      204,
    );
    expect((await call(t, 'DELETE', `${files}${extra[0]!.id}/`, { token: w.tokens.student })).status).toBe(
      404,
    );
    const listed = SubmissionFileList.parse((await call(t, 'GET', files, { token: w.tokens.student })).body);
    expect(listed.map((f) => f.filename)).toEqual(['main.py']);

    const queued = await call(t, 'POST', `/api/Score/${id}/submission_specific/`, {
      token: w.tokens.student,
    });
    expect([queued.status, queued.json.status]).toEqual([200, 'Scheduled']);
    // Queued: files no longer change, and the author cannot queue it again.
    const late = await upload(t, files, w.tokens.student, [{ filename: 'b.txt', content: 'b' }]);
    expect([late.status, late.json.code]).toEqual([409, 'not_pending']);
    expect((await call(t, 'DELETE', `${files}${main!.id}/`, { token: w.tokens.student })).status).toBe(409);
    expect(
      (await call(t, 'POST', `/api/Score/${id}/submission_specific/`, { token: w.tokens.student })).status,
    ).toBe(409);
  });

  it('cannot delete a file of another submission through its own path', async () => {
    await fresh();
    const res = await call(
      t,
      'DELETE',
      `/api/Submission/${w.pending.id}/FileSubmission/${w.pendingFile.id + 100000}/`,
      {
        token: w.tokens.student,
      },
    );
    expect(res.status).toBe(404);
    const otherWorld = await createSubmissionWorld(t);
    // A file of someone else's submission, named through one's own: not found.
    const cross = await call(
      t,
      'DELETE',
      `/api/Submission/${w.pending.id}/FileSubmission/${otherWorld.pendingFile.id}/`,
      {
        token: w.tokens.student,
      },
    );
    expect(cross.status).toBe(404);
  });
});
