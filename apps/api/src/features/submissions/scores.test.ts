import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FinalSubmission, Submission, SubmissionDetail } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { submissions } from '../../db/schema-assignments.ts';
import { createSubmissionWorld, insertSubmission, insertTestCase, type SubmissionWorld } from './testing.ts';

async function statusOf(t: TestApp, id: number) {
  const [row] = await t.ctx.db.select().from(submissions).where(eq(submissions.id, id));
  return row!;
}

describe('re-grading, canceling and hand-set scores', () => {
  let t: TestApp;
  let w: SubmissionWorld;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('a manager sets one test’s result by hand; the score follows in the same write', async () => {
    w = await createSubmissionWorld(t);
    const res = await call(t, 'POST', '/api/Submission/Score/', {
      token: w.tokens.editor,
      body: {
        submission_id: w.completed.id,
        test_case_id: w.hiddenTest.id,
        status: 'Correct',
        comment: 'Fair enough',
      },
    });
    expect(res.status).toBe(200);
    const detail = SubmissionDetail.parse(res.body);
    expect(detail.score).toBe(3);
    expect(detail.max_score).toBe(3);
    const hidden = detail.evaluations.find((e) => e.test_case_id === w.hiddenTest.id)!;
    expect([hidden.status, hidden.points, hidden.overridden, hidden.comment, hidden.reason]).toEqual([
      'Correct',
      2,
      true,
      'Fair enough',
      null,
    ]);
    // Partial credit, then a test added after grading gets a result of its own.
    const partial = await call(t, 'POST', '/api/Submission/Score/', {
      token: w.tokens.staff,
      body: { submission_id: w.completed.id, test_case_id: w.hiddenTest.id, status: 'Wrong', points: 1 },
    });
    expect(SubmissionDetail.parse(partial.body).score).toBe(2);
    const added = await insertTestCase(t, w.assignment.id, { name: 'Added', points: 5, position: 9 });
    const withAdded = SubmissionDetail.parse(
      (
        await call(t, 'POST', '/api/Submission/Score/', {
          token: w.tokens.editor,
          body: { submission_id: w.completed.id, test_case_id: added.id, status: 'Correct' },
        })
      ).body,
    );
    expect([withAdded.score, withAdded.max_score]).toEqual([7, 8]);
  });

  it('refuses bad hand-set scores', async () => {
    w = await createSubmissionWorld(t);
    const post = (body: Record<string, unknown>, token = w.tokens.editor) =>
      call(t, 'POST', '/api/Submission/Score/', {
        token,
        body: { submission_id: w.completed.id, test_case_id: w.hiddenTest.id, status: 'Correct', ...body },
      });
    expect((await post({ points: 3 })).status).toBe(400);
    expect((await post({ points: -1 })).status).toBe(400);
    expect((await post({ status: 'Maybe' })).status).toBe(400);
    const foreign = await createSubmissionWorld(t);
    expect((await post({ test_case_id: foreign.visibleTest.id })).json.test_case_id).toBeDefined();
    const pending = await post({ submission_id: w.pending.id });
    expect([pending.status, pending.json.code]).toEqual([409, 'not_completed']);
    expect((await post({}, w.tokens.student)).status).toBe(403);
    expect((await post({ submission_id: foreign.completed.id })).status).toBe(404);
  });

  it('re-grades every graded submission of the assignment in the course, not the waiting or canceled ones', async () => {
    w = await createSubmissionWorld(t);
    const key = { assignmentId: w.assignment.id, courseId: w.course.id, userId: w.users.classmate.id };
    const invalid = await insertSubmission(t, { ...key, status: 'InvalidFormat' });
    const canceled = await insertSubmission(t, { ...key, status: 'Canceled' });
    const reference = await insertSubmission(t, { ...key, userId: w.users.editor.id, isReference: true });
    const res = await call(t, 'POST', `/api/Submission/Regrade/${w.assignment.id}/${w.course.id}/`, {
      token: w.tokens.editor,
    });
    expect(res.json).toEqual({ queued: 2 });
    expect((await statusOf(t, w.completed.id)).status).toBe('Scheduled');
    expect((await statusOf(t, invalid.id)).status).toBe('Scheduled');
    expect((await statusOf(t, canceled.id)).status).toBe('Canceled');
    expect((await statusOf(t, w.pending.id)).status).toBe('Pending');
    expect((await statusOf(t, reference.id)).status).toBe('Completed');

    const byTest = await call(t, 'POST', `/api/Score/${w.visibleTest.id}/${w.course.id}`, {
      token: w.tokens.staff,
    });
    expect(byTest.json).toEqual({ queued: 0 });
    expect(
      (await call(t, 'POST', `/api/Score/999999/${w.course.id}`, { token: w.tokens.staff })).status,
    ).toBe(404);
    const foreign = await createSubmissionWorld(t);
    const wrongCourse = await call(t, 'POST', `/api/Score/${foreign.visibleTest.id}/${w.course.id}`, {
      token: w.tokens.editor,
    });
    expect(wrongCourse.status).toBe(404);
  });

  it('re-grades one submission for a manager; its author may only queue a Pending one', async () => {
    w = await createSubmissionWorld(t);
    const own = await call(t, 'POST', `/api/Score/${w.completed.id}/submission_specific/`, {
      token: w.tokens.student,
    });
    expect([own.status, own.json.code]).toEqual([409, 'not_pending']);
    const manager = await call(t, 'POST', `/api/Score/${w.completed.id}/submission_specific/`, {
      token: w.tokens.editor,
    });
    expect(Submission.parse(manager.body).status).toBe('Scheduled');
  });

  it('cancels only submissions still waiting', async () => {
    w = await createSubmissionWorld(t);
    const cancel = (id: number, token = w.tokens.editor) =>
      call(t, 'POST', `/api/Submission/${id}/cancel/`, { token });
    const done = await cancel(w.scheduled.id);
    expect(done.status).toBe(200);
    expect(Submission.parse(done.body).status).toBe('Canceled');
    expect(Submission.parse(done.body).message).toMatch(/Canceled/);
    expect((await cancel(w.pending.id)).status).toBe(200);
    const again = await cancel(w.scheduled.id);
    expect([again.status, again.json.code]).toEqual([409, 'not_cancelable']);
    const graded = await cancel(w.completed.id);
    expect(graded.status).toBe(409);
    const executing = await insertSubmission(t, {
      assignmentId: w.assignment.id,
      courseId: w.course.id,
      userId: w.users.student.id,
      status: 'Executing',
    });
    expect((await cancel(executing.id)).status).toBe(409);
    expect((await cancel(executing.id, w.tokens.student)).status).toBe(403);
  });
});

describe('SelectFinal', () => {
  let t: TestApp;
  let w: SubmissionWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await createSubmissionWorld(t);
  });
  afterAll(() => t.close());

  const url = (id: number, world = w) =>
    `/api/Submission/SelectFinal/${world.assignment.id}/${world.course.id}/${id}/`;

  it('marks one final, and a second call moves the flag', async () => {
    const second = await insertSubmission(t, {
      assignmentId: w.assignment.id,
      courseId: w.course.id,
      userId: w.users.student.id,
      score: 3,
    });
    const first = await call(t, 'POST', url(w.completed.id), { token: w.tokens.student });
    expect(FinalSubmission.parse(first.body).submission?.is_final).toBe(true);
    const moved = await call(t, 'POST', url(second.id), { token: w.tokens.editor });
    expect(FinalSubmission.parse(moved.body).submission?.id).toBe(second.id);
    expect((await statusOf(t, w.completed.id)).isFinal).toBe(false);
    expect((await statusOf(t, second.id)).isFinal).toBe(true);
    // GET through any of the author's submissions answers the final one.
    const got = await call(t, 'GET', url(w.completed.id), { token: w.tokens.student });
    expect(FinalSubmission.parse(got.body).submission?.id).toBe(second.id);
    // Choosing it again changes nothing.
    expect((await call(t, 'POST', url(second.id), { token: w.tokens.student })).status).toBe(200);
    const finals = await t.ctx.db.select().from(submissions).where(eq(submissions.isFinal, true));
    expect(finals.filter((s) => s.userId === w.users.student.id).map((s) => s.id)).toEqual([second.id]);
  });

  it('refuses submissions that are not Completed, and paths that do not match', async () => {
    for (const id of [w.pending.id, w.scheduled.id]) {
      const res = await call(t, 'POST', url(id), { token: w.tokens.student });
      expect([res.status, res.json.code]).toEqual([409, 'not_completed']);
    }
    const other = await createSubmissionWorld(t);
    const mismatched = `/api/Submission/SelectFinal/${other.assignment.id}/${w.course.id}/${w.completed.id}/`;
    expect((await call(t, 'POST', mismatched, { token: w.tokens.student })).status).toBe(404);
    expect((await call(t, 'POST', url(w.completed.id), { token: w.tokens.classmate })).status).toBe(404);
    const none = await call(t, 'GET', url(other.completed.id, other), { token: other.tokens.student });
    expect(FinalSubmission.parse(none.body).submission).toBeNull();
  });
});
