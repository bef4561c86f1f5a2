import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Submission, SubmissionFileList } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addStudent, tokenFor } from '../../../test/factories.ts';
import { markScheduled } from './submissions.repo.ts';
import { SUBMIT_RATE } from './submit.service.ts';
import {
  createSubmissionWorld,
  hoursFromNow,
  insertFile,
  insertSubmission,
  quickUser,
  setLink,
  upload,
  type SubmissionWorld,
} from './testing.ts';

/** A submission counts when its content is handed in, not when its empty row was opened. */
describe('deadlines of Pending submissions, and races of submitting and queueing', () => {
  let t: TestApp;
  let w: SubmissionWorld;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const fresh = async () => {
    w = await createSubmissionWorld(t);
    return w;
  };
  const submit = (body: Record<string, unknown>, token = w.tokens.student) =>
    call(t, 'POST', '/api/Submission/Submit/', {
      token,
      body: { assignment_id: w.assignment.id, course_id: w.course.id, ...body },
    });
  const queue = (id: number, token = w.tokens.student) =>
    call(t, 'POST', `/api/Score/${id}/submission_specific/`, { token });
  const get = async (id: number) =>
    Submission.parse((await call(t, 'GET', `/api/Submission/${id}/`, { token: w.tokens.editor })).body);
  const filesOf = (id: number) => `/api/Submission/${id}/FileSubmission/`;
  const closedError = [403, 'closed', 'The deadline has passed; submissions are closed.'];

  /** An empty Pending submission opened while the assignment is open and not yet due. */
  const openPending = async () => {
    await setLink(t, w.assignment.id, w.course.id, { dueAt: hoursFromNow(1), lateUntil: hoursFromNow(2) });
    const created = await submit({ upload_files_later: true });
    expect([created.status, created.json.status, created.json.is_late]).toEqual([201, 'Pending', false]);
    return Number(created.json.id);
  };

  it('refuses to fill, empty or hand in a Pending submission after the cut-off; nothing is queued', async () => {
    await fresh();
    const id = await openPending();
    const [main] = SubmissionFileList.parse(
      (await upload(t, filesOf(id), w.tokens.student, [{ filename: 'main.py', content: 'print(1)\n' }])).body,
    );

    await setLink(t, w.assignment.id, w.course.id, { dueAt: hoursFromNow(-2), lateUntil: hoursFromNow(-1) });
    const added = await upload(t, filesOf(id), w.tokens.student, [
      { filename: 'util.py', content: 'X = 1\n' },
    ]);
    expect([added.status, added.json.code, added.json.detail]).toEqual(closedError);
    const removed = await call(t, 'DELETE', `${filesOf(id)}${main!.id}/`, { token: w.tokens.student });
    expect([removed.status, removed.json.code, removed.json.detail]).toEqual(closedError);
    const queued = await queue(id);
    expect([queued.status, queued.json.code, queued.json.detail]).toEqual(closedError);

    // Without a late window the due date is the cut-off.
    await setLink(t, w.assignment.id, w.course.id, { dueAt: hoursFromNow(-1), lateUntil: null });
    expect((await queue(id)).json.code).toBe('closed');

    const after = await get(id);
    expect([after.status, after.is_late, after.queued_at]).toEqual(['Pending', false, null]);
    expect(after.files.map((f) => f.filename)).toEqual(['main.py']);
  });

  it('is refused before the assignment opens, as Submit is', async () => {
    await fresh();
    const id = await openPending();
    await setLink(t, w.assignment.id, w.course.id, { opensAt: hoursFromNow(1), dueAt: hoursFromNow(2) });
    const added = await upload(t, filesOf(id), w.tokens.student, [
      { filename: 'main.py', content: 'print(1)' },
    ]);
    expect([added.status, added.json.code, added.json.detail]).toEqual([
      403,
      'not_open',
      'This assignment is not open yet.',
    ]);
  });

  it('marks a submission handed in after the due date, before the cut-off, late', async () => {
    await fresh();
    const id = await openPending();
    await upload(t, filesOf(id), w.tokens.student, [{ filename: 'main.py', content: 'print(1)\n' }]);

    await setLink(t, w.assignment.id, w.course.id, { dueAt: hoursFromNow(-1), lateUntil: hoursFromNow(1) });
    // Changing files in the late window is allowed; lateness is decided at hand-in.
    const added = await upload(t, filesOf(id), w.tokens.student, [
      { filename: 'util.py', content: 'X = 1\n' },
    ]);
    expect(added.status).toBe(201);
    expect((await get(id)).is_late).toBe(false);

    const queued = await queue(id);
    expect([queued.status, queued.json.status, queued.json.is_late]).toEqual([200, 'Scheduled', true]);
    expect((await get(id)).queued_at).not.toBeNull();
  });

  it('is on time when handed in before the due date', async () => {
    await fresh();
    const id = await openPending();
    await upload(t, filesOf(id), w.tokens.student, [{ filename: 'main.py', content: 'print(1)\n' }]);
    const queued = await queue(id);
    expect([queued.status, queued.json.status, queued.json.is_late]).toEqual([200, 'Scheduled', false]);
  });

  it('lets editors and staff re-grade after the cut-off, keeping is_late as it was', async () => {
    await fresh();
    await setLink(t, w.assignment.id, w.course.id, { dueAt: hoursFromNow(1), lateUntil: hoursFromNow(2) });
    const onTime = Submission.parse((await submit({ code: 'print(1)' })).body);
    await setLink(t, w.assignment.id, w.course.id, { dueAt: hoursFromNow(-1), lateUntil: hoursFromNow(1) });
    const late = Submission.parse((await submit({ code: 'print(2)' })).body);
    expect([onTime.is_late, late.is_late]).toEqual([false, true]);

    await setLink(t, w.assignment.id, w.course.id, { dueAt: hoursFromNow(-2), lateUntil: hoursFromNow(-1) });
    for (const [submission, token] of [
      [onTime, w.tokens.editor],
      [late, w.tokens.staff],
      [onTime, w.tokens.staff],
    ] as const) {
      const res = await queue(submission.id, token);
      expect([res.status, res.json.status, res.json.is_late]).toEqual([200, 'Scheduled', submission.is_late]);
    }
    // An editor may also queue a student's Pending submission after the cut-off (opened in time).
    const res = await queue(w.pending.id, w.tokens.editor);
    expect([res.status, res.json.status, res.json.is_late]).toEqual([200, 'Scheduled', false]);
  });

  it(`accepts exactly ${SUBMIT_RATE.max} of many parallel submits`, async () => {
    await fresh();
    const other = await quickUser(t);
    await addStudent(t, w.course.id, other.id);
    const token = await tokenFor(t, other);
    const results = await Promise.all(
      Array.from({ length: SUBMIT_RATE.max + 5 }, (_, i) => submit({ code: `print(${i})` }, token)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(SUBMIT_RATE.max);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });

  it('does not undo an editor’s cancel: the queueing applies only while still Pending', async () => {
    await fresh();
    const key = { assignmentId: w.assignment.id, courseId: w.course.id, userId: w.users.student.id };

    // The student's stale view saw Pending; the editor canceled meanwhile.
    const stale = await insertSubmission(t, { ...key, status: 'Pending' });
    await insertFile(t, stale.id, 'main.py', 'print(1)\n');
    expect(
      (await call(t, 'POST', `/api/Submission/${stale.id}/cancel/`, { token: w.tokens.editor })).status,
    ).toBe(200);
    expect(await markScheduled(t.ctx.db, [stale.id], { fromStatus: 'Pending', isLate: false })).toEqual([]);
    const refused = await queue(stale.id);
    expect([refused.status, refused.json.code]).toEqual([409, 'not_pending']);
    expect((await get(stale.id)).status).toBe('Canceled');

    // Both at once, several times: whichever runs first, the cancel is never undone.
    for (let i = 0; i < 8; i++) {
      const row = await insertSubmission(t, { ...key, status: 'Pending' });
      await insertFile(t, row.id, 'main.py', 'print(1)\n');
      const [queued, canceled] = await Promise.all([
        queue(row.id),
        call(t, 'POST', `/api/Submission/${row.id}/cancel/`, { token: w.tokens.editor }),
      ]);
      expect([200, 409]).toContain(queued.status);
      expect(canceled.status).toBe(200);
      expect((await get(row.id)).status).toBe('Canceled');
    }
  });
});
