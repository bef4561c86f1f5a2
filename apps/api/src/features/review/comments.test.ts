import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegradeList, Review, SavedCommentList, StudentFeedback } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { lineCount } from './comments.service.ts';
import { createReviewWorld, gradeAndRelease, type ReviewWorld } from './testing.ts';

/** Comments on lines, saved comments and regrade requests (docs/review.md). */
let t: TestApp;
let w: ReviewWorld;
beforeAll(async () => {
  t = await createTestApp();
  w = await createReviewWorld(t);
});
afterAll(() => t.close());

const commentsUrl = () => `/api/Submission/${w.completed.id}/comments/`;
const comment = (body: Record<string, unknown>, token = w.tokens.editor) =>
  call(t, 'POST', commentsUrl(), {
    token,
    body: { filename: 'helper.py', line_start: 1, line_end: 1, body: 'Note.', ...body },
  });
const countComments = async () =>
  Review.parse((await call(t, 'GET', w.reviewUrl, { token: w.tokens.editor })).body).comments.length;

describe('comments on lines', () => {
  it('counts lines as an editor does', () => {
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount('')).toBe(1);
    expect(lineCount('a\r\nb\r\n')).toBe(2);
  });

  it('refuses lines outside the file, an unknown file and another assignment’s item; nothing is saved', async () => {
    const other = await createReviewWorld(t);
    const before = await countComments();
    for (const [body, code] of [
      [{ line_start: 6, line_end: 7 }, 'line_out_of_range'],
      [{ line_start: 3, line_end: 2 }, 'line_out_of_range'],
      [{ filename: 'nope.py' }, 'invalid'],
      [{ rubric_item_id: other.items[0] }, 'rubric_item_elsewhere'],
    ] as const) {
      const res = await comment(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code });
    }
    expect(await countComments()).toBe(before);
  });

  it('counts a saved comment’s uses, and refuses another course’s', async () => {
    const saved = await call(t, 'POST', `/api/Course/${w.course.id}/saved-comments/`, {
      token: w.tokens.editor,
      body: {
        title: 'Docstring',
        body: 'Add a docstring that says what it returns.',
        rubric_item_id: w.items[2],
      },
    });
    expect(saved.status).toBe(201);
    const id = (saved.body as { id: number }).id;
    const res = await comment({ line_start: 1, line_end: 2, body: 'Add a docstring.', saved_comment_id: id });
    expect(res.status).toBe(201);
    const list = SavedCommentList.parse(
      (await call(t, 'GET', `/api/Course/${w.course.id}/saved-comments/`, { token: w.tokens.editor })).body,
    );
    expect(list.results.find((s) => s.id === id)?.uses).toBe(1);

    const elsewhere = await call(t, 'POST', `/api/Course/${w.otherCourse.id}/saved-comments/`, {
      token: w.tokens.staff,
      body: { title: 'Other', body: 'Other course.' },
    });
    const wrong = await comment({ saved_comment_id: (elsewhere.body as { id: number }).id });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'saved_comment_elsewhere' });
  });

  it('lets the student reply only once released; before that the comment does not exist for them', async () => {
    const { commentId } = await gradeAndRelease(t, w, false);
    const early = await call(t, 'POST', `/api/ReviewComment/${commentId}/replies/`, {
      token: w.tokens.student,
      body: { body: 'Thanks' },
    });
    expect(early.status).toBe(404);
    await call(t, 'POST', `${w.assignmentUrl}/reviews/release/`, {
      token: w.tokens.editor,
      body: { scope: 'all' },
    });
    const reply = await call(t, 'POST', `/api/ReviewComment/${commentId}/replies/`, {
      token: w.tokens.student,
      body: { body: 'Thanks, I see.' },
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      parent_id: commentId,
      by_student: true,
      filename: 'helper.py',
      line_start: 2,
    });
    const classmate = await call(t, 'POST', `/api/ReviewComment/${commentId}/replies/`, {
      token: w.tokens.classmate,
      body: { body: 'Me too' },
    });
    expect(classmate.status).toBe(404);
    const fb = StudentFeedback.parse(
      (await call(t, 'GET', `/api/Submission/${w.completed.id}/feedback/`, { token: w.tokens.student })).body,
    );
    expect(fb.comments.some((c) => c.body === 'Thanks, I see.')).toBe(true);
  });
});

describe('regrade requests', () => {
  it('are asked once per item after release, answered by an editor, and audited', async () => {
    const v = await createReviewWorld(t);
    const url = `/api/Submission/${v.completed.id}/regrade-requests/`;
    const ask = (body: Record<string, unknown>) =>
      call(t, 'POST', url, { token: v.tokens.student, body: { reason: 'Please look again.', ...body } });
    const before = await ask({ rubric_item_id: v.items[0] });
    expect(before.status).toBe(403);
    expect(before.body).toMatchObject({ code: 'review_not_released' });

    const { commentId } = await gradeAndRelease(t, v);
    const first = await ask({ rubric_item_id: v.items[1] });
    expect(first.status).toBe(201);
    const again = await ask({ rubric_item_id: v.items[1] });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'regrade_already_asked' });
    expect((await ask({ comment_id: commentId })).status).toBe(201);
    expect((await ask({ rubric_item_id: v.items[0], comment_id: commentId })).status).toBe(400);

    const reply = await call(t, 'POST', `/api/ReviewComment/${commentId}/replies/`, {
      token: v.tokens.editor,
      body: { body: 'See the style guide.' },
    });
    const onReply = await ask({ comment_id: (reply.body as { id: number }).id });
    expect(onReply.body).toMatchObject({ code: 'not_a_thread' });

    const list = RegradeList.parse(
      (
        await call(t, 'GET', `/api/Course/${v.course.id}/regrade-requests/?status=open`, {
          token: v.tokens.editor,
        })
      ).body,
    );
    expect(list.count).toBe(2);
    const id = (first.body as { id: number }).id;
    const answered = await call(t, 'POST', `/api/RegradeRequest/${id}/answer/`, {
      token: v.tokens.editor,
      body: { answer: 'Agreed, the names are clear.' },
    });
    expect(answered.body).toMatchObject({ status: 'answered', answer: 'Agreed, the names are clear.' });
    const fb = StudentFeedback.parse(
      (await call(t, 'GET', `/api/Submission/${v.completed.id}/feedback/`, { token: v.tokens.student })).body,
    );
    expect(fb.regrade_requests.find((r) => r.id === id)).toMatchObject({ status: 'answered' });
    const audit = await call(t, 'GET', `${v.reviewUrl}audit/`, { token: v.tokens.editor });
    const actions = (audit.body as { results: { action: string }[] }).results.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['graded', 'comment_added', 'released', 'regrade_asked', 'regrade_answered']),
    );
  });
});
