import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gradebook, Review, Rubric, StudentFeedback } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { createReviewWorld, gradeAndRelease, type ReviewWorld } from './testing.ts';

/** Grading by hand (docs/review.md): rubric, score, concurrency, release visibility, audit. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function read(w: ReviewWorld) {
  return Review.parse((await call(t, 'GET', w.reviewUrl, { token: w.tokens.editor })).body);
}

async function save(w: ReviewWorld, body: Record<string, unknown>, token = w.tokens.editor) {
  return call(t, 'PUT', w.reviewUrl, { token, body: { status: 'graded', selected_item_ids: [], ...body } });
}

async function gradebookScore(w: ReviewWorld): Promise<number | null> {
  const book = Gradebook.parse(
    (await call(t, 'GET', `/api/Course/${w.course.id}/gradebook/`, { token: w.tokens.editor })).body,
  );
  const row = book.rows.find((r) => r.user.id === w.users.student.id);
  return row?.cells[book.columns.findIndex((c) => c.id === w.assignment.id)]?.score ?? null;
}

async function feedback(w: ReviewWorld) {
  const res = await call(t, 'GET', `/api/Submission/${w.completed.id}/feedback/`, {
    token: w.tokens.student,
  });
  expect(res.status).toBe(200);
  return StudentFeedback.parse(res.body);
}

describe('the score of a review', () => {
  it('adds ticked items and the adjustment to the autograde, within 0 and the maximum', async () => {
    const w = await createReviewWorld(t);
    // Autograded 1 of 3; rubric_max 2 → the maximum is 5.
    const first = await read(w);
    expect(first).toMatchObject({ status: 'none', version: 0 });
    expect(first.score).toMatchObject({ autograde_score: 1, total: 1, max_score: 5 });
    let res = await save(w, { version: 0, selected_item_ids: [w.items[0], w.items[1]] });
    expect(res.status).toBe(200);
    let review = Review.parse(res.body);
    expect(review.score).toMatchObject({ rubric_points: 3, total: 4, max_score: 5 });
    res = await save(w, { version: review.version, selected_item_ids: [w.items[0]], adjustment: 9.5 });
    review = Review.parse(res.body);
    expect(review.score.total).toBe(5); // capped at the maximum
    res = await save(w, { version: review.version, selected_item_ids: [w.items[2]], adjustment: -4 });
    review = Review.parse(res.body);
    expect(review.score.total).toBe(0); // never below 0
  });

  it('recomputes every review that ticks an item whose points change, and audits it', async () => {
    const w = await createReviewWorld(t);
    await gradeAndRelease(t, w);
    expect(await gradebookScore(w)).toBe(3); // 1 + 2
    const rubric = Rubric.parse((await call(t, 'GET', w.rubricUrl, { token: w.tokens.editor })).body);
    expect(rubric.items[0]).toMatchObject({ uses: 1, points: 2 });
    const res = await call(t, 'PUT', w.rubricUrl, {
      token: w.tokens.editor,
      body: {
        settings: rubric.settings,
        items: rubric.items.map((i, n) => ({
          id: i.id,
          group: i.group,
          title: i.title,
          points: n === 0 ? 1.5 : i.points,
        })),
      },
    });
    expect(res.status).toBe(200);
    expect(Rubric.parse(res.body).recomputed).toBe(1);
    expect((await read(w)).score.total).toBe(2.5);
    expect(await gradebookScore(w)).toBe(2.5);
    const audit = await call(t, 'GET', `${w.reviewUrl}audit/`, { token: w.tokens.editor });
    expect((audit.body as { results: { action: string }[] }).results.map((e) => e.action)).toContain(
      'recomputed',
    );
  });

  it('refuses an item of another assignment and changes nothing', async () => {
    const w = await createReviewWorld(t);
    const other = await createReviewWorld(t);
    const res = await save(w, { version: 0, selected_item_ids: [other.items[0]] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'rubric_item_elsewhere' });
    expect((await read(w)).status).toBe('none');
    const rubric = await call(t, 'PUT', w.rubricUrl, {
      token: w.tokens.editor,
      body: {
        settings: { autograde_weight: 1, rubric_weight: 1, rubric_max: 0 },
        items: [{ id: other.items[0], title: 'X', points: 1 }],
      },
    });
    expect(rubric.status).toBe(400);
    expect(rubric.body).toMatchObject({ code: 'rubric_item_elsewhere' });
    expect(
      Rubric.parse((await call(t, 'GET', w.rubricUrl, { token: w.tokens.editor })).body).items,
    ).toHaveLength(3);
  });
});

describe('two editors grading at once', () => {
  it('never overwrite each other: the second save of a version gets 409', async () => {
    const w = await createReviewWorld(t);
    const [a, b] = await Promise.all([
      save(w, { version: 0, selected_item_ids: [w.items[0]] }),
      save(w, { version: 0, selected_item_ids: [w.items[1]] }, w.tokens.staff),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.body).toMatchObject({ code: 'review_conflict' });
    const review = await read(w);
    expect(review.version).toBe(1);
    const stale = await save(w, { version: 0, selected_item_ids: [] });
    expect(stale.status).toBe(409);
    expect((await read(w)).selected_item_ids).toEqual(review.selected_item_ids);
  });
});

describe('a comment before the first grading', () => {
  it('is not a grading: the review stays "none" at version 0 and the first save goes through', async () => {
    const w = await createReviewWorld(t);
    const posted = await call(t, 'POST', `/api/Submission/${w.completed.id}/comments/`, {
      token: w.tokens.editor,
      body: { filename: 'helper.py', line_start: 1, line_end: 1, body: 'Name it sum?' },
    });
    expect(posted.status).toBe(201);
    expect(await read(w)).toMatchObject({ status: 'none', version: 0, grader: null });
    const queue = await call(t, 'GET', `${w.assignmentUrl}/reviews/`, { token: w.tokens.editor });
    expect(queue.body).toMatchObject({ progress: { graded: 0, unreleased: 0 } });
    const res = await save(w, { version: 0, selected_item_ids: [w.items[1]] });
    expect(res.status).toBe(200);
    expect(Review.parse(res.body)).toMatchObject({ status: 'graded', version: 1 });
  });
});

describe('release', () => {
  it('keeps grades and comments from the student until released, then shows them everywhere', async () => {
    const w = await createReviewWorld(t);
    await gradeAndRelease(t, w, false);
    expect(await feedback(w)).toMatchObject({ released: false, score: null, comments: [], rubric: [] });
    expect(await gradebookScore(w)).toBe(1);
    const queue = await call(t, 'GET', `${w.assignmentUrl}/reviews/`, { token: w.tokens.editor });
    expect(queue.body).toMatchObject({ progress: { graded: 1, released: 0, unreleased: 1 } });

    const released = await call(t, 'POST', `${w.assignmentUrl}/reviews/release/`, {
      token: w.tokens.editor,
      body: { scope: 'graded' },
    });
    expect(released.body).toEqual({ released: 1, retracted: 0 });
    const seen = await feedback(w);
    expect(seen).toMatchObject({ released: true, comment: 'Well done.', score: { total: 3, max_score: 5 } });
    expect(seen.rubric.filter((i) => i.selected).map((i) => i.id)).toEqual([w.items[0]]);
    expect(seen.comments).toMatchObject([{ filename: 'helper.py', line_start: 2, body: 'Nice **return**.' }]);
    expect(await gradebookScore(w)).toBe(3);
    const own = await call(t, 'GET', `/api/Assignment/${w.assignment.id}/total_score/`, {
      token: w.tokens.student,
      query: { course_id: String(w.course.id) },
    });
    expect(own.body).toMatchObject({ score: 3, total_points: 5, submission_id: w.completed.id });

    await call(t, 'POST', `${w.assignmentUrl}/reviews/retract/`, { token: w.tokens.editor });
    expect((await feedback(w)).released).toBe(false);
    expect(await gradebookScore(w)).toBe(1);
  });

  it("'all' releases drafts too", async () => {
    const w = await createReviewWorld(t);
    await save(w, { version: 0, status: 'draft', selected_item_ids: [w.items[1]] });
    const graded = await call(t, 'POST', `${w.assignmentUrl}/reviews/release/`, {
      token: w.tokens.editor,
      body: { scope: 'graded' },
    });
    expect(graded.body).toMatchObject({ released: 0 });
    const all = await call(t, 'POST', `${w.assignmentUrl}/reviews/release/`, {
      token: w.tokens.editor,
      body: { scope: 'all' },
    });
    expect(all.body).toMatchObject({ released: 1 });
    expect((await read(w)).status).toBe('graded');
  });
});

describe('the database going away in the middle of a save', () => {
  it('answers 503 and keeps the review as it was', async () => {
    const w = await createReviewWorld(t);
    const first = Review.parse((await save(w, { version: 0, selected_item_ids: [w.items[0]] })).body);
    // The audit row is the save's last statement: the connection "drops" there (57P01: admin shutdown).
    await t.database.query(`
      create function review_audit_gone() returns trigger language plpgsql as $$
      begin raise exception 'terminating connection due to administrator command' using errcode = '57P01'; end $$;
      create trigger review_audit_gone before insert on review_audit for each row execute function review_audit_gone()`);
    try {
      const res = await save(w, { version: first.version, selected_item_ids: [w.items[1]], adjustment: 1 });
      expect(res.status).toBe(503);
    } finally {
      await t.database.query(
        `drop trigger review_audit_gone on review_audit; drop function review_audit_gone()`,
      );
    }
    const after = await read(w);
    expect(after).toMatchObject({ version: first.version, selected_item_ids: [w.items[0]] });
    expect(after.score.adjustment).toBe(0);
  });
});
