import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EditorCourseOverview, StudentCourseOverview } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { createReviewWorld, gradeAndRelease, type ReviewWorld } from '../review/testing.ts';

/**
 * The teacher's review on the course home (docs/course-home.md): a student's new feedback once released
 * and never another's, the due work's counted score, and editors' open regrade requests.
 */
describe('course home and the teacher’s review', () => {
  let t: TestApp;
  let w: ReviewWorld;

  beforeAll(async () => {
    t = await createTestApp();
    // Autograded 1 of 3, rubric_max 2: a maximum of 5; the graded review ticks +2 (a total of 3).
    w = await createReviewWorld(t);
  });
  afterAll(() => t.close());

  const studentHome = async (token: string | undefined) => {
    const res = await call(t, 'GET', `/api/Course/${w.course.id}/overview/`, { token });
    expect(res.status).toBe(200);
    return StudentCourseOverview.parse(res.body);
  };
  const editorHome = async () =>
    EditorCourseOverview.parse(
      (await call(t, 'GET', `/api/Course/${w.course.id}/overview/`, { token: w.tokens.editor })).body,
    );
  const dueScore = (home: StudentCourseOverview) => {
    const item = home.due_soon.results.find((r) => r.assignment_id === w.assignment.id);
    return [item?.score, item?.max_score];
  };

  it('shows no feedback while the review is not released, and the autograder’s score on its scale', async () => {
    await gradeAndRelease(t, w, false);
    const home = await studentHome(w.tokens.student);
    expect(home.new_feedback).toEqual({ count: 0, results: [] });
    expect(dueScore(home)).toEqual([1, 5]);
  });

  it('shows the released review with its total, and counts it in the due work', async () => {
    const released = await call(t, 'POST', `${w.assignmentUrl}/reviews/release/`, {
      token: w.tokens.editor,
      body: { scope: 'graded' },
    });
    expect(released.status).toBe(200);
    const home = await studentHome(w.tokens.student);
    expect(home.new_feedback.count).toBe(1);
    expect(home.new_feedback.results).toMatchObject([
      {
        submission_id: w.completed.id,
        assignment_id: w.assignment.id,
        assignment_title: w.assignment.title,
        total: 3,
        max_score: 5,
        open_regrade_requests: 0,
        answered_regrade_requests: 0,
      },
    ]);
    expect(Date.now() - Date.parse(home.new_feedback.results[0]!.released_at)).toBeLessThan(60_000);
    expect(dueScore(home)).toEqual([3, 5]);
  });

  it('shows a classmate nothing of another student’s feedback', async () => {
    const home = await studentHome(w.tokens.classmate);
    expect(home.new_feedback).toEqual({ count: 0, results: [] });
  });

  it('counts regrade requests: open for the student, and for editors until answered', async () => {
    expect((await editorHome()).open_regrade_requests).toBe(0);
    const asked = await call(t, 'POST', `/api/Submission/${w.completed.id}/regrade-requests/`, {
      token: w.tokens.student,
      body: { rubric_item_id: w.items[1], reason: 'My names are good.' },
    });
    expect(asked.status).toBe(201);
    expect((await studentHome(w.tokens.student)).new_feedback.results[0]).toMatchObject({
      open_regrade_requests: 1,
      answered_regrade_requests: 0,
    });
    expect((await editorHome()).open_regrade_requests).toBe(1);
  });
});
