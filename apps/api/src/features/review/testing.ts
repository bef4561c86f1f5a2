import { call, type TestApp } from '../../../test/harness.ts';
import { createSubmissionWorld, insertFile } from '../submissions/testing.ts';

/** Python of six lines: what the review tests comment on. */
export const CODE =
  'def add(a, b):\n    return a + b\n\n\nif __name__ == "__main__":\n    print(add(1, 2))\n';

/**
 * The submission world (docs of createSubmissionWorld) with a rubric of three items on its assignment
 * (+2 style, +1 names, −1 no docstring) and a second file of six lines on the student's completed
 * submission (autograded 1 of 3).
 */
export async function createReviewWorld(t: TestApp) {
  const world = await createSubmissionWorld(t);
  await insertFile(t, world.completed.id, 'helper.py', CODE);
  const rubricUrl = `/api/Course/${world.course.id}/assignments/${world.assignment.id}/rubric/`;
  const saved = await call(t, 'PUT', rubricUrl, {
    token: world.tokens.staff,
    body: {
      settings: { autograde_weight: 1, rubric_weight: 1, rubric_max: 2 },
      items: [
        { group: 'Style', title: 'Readable layout', points: 2 },
        { group: 'Style', title: 'Good names', points: 1 },
        { group: 'Docs', title: 'No docstring', points: -1 },
      ],
    },
  });
  if (saved.status !== 200) throw new Error(`rubric: ${saved.status} ${JSON.stringify(saved.body)}`);
  const items = (saved.body as { items: { id: number }[] }).items.map((i) => i.id);
  return {
    ...world,
    items,
    rubricUrl,
    assignmentUrl: `/api/Course/${world.course.id}/assignments/${world.assignment.id}`,
    reviewUrl: `/api/Submission/${world.completed.id}/review/`,
  };
}
export type ReviewWorld = Awaited<ReturnType<typeof createReviewWorld>>;

/** Grades the student's completed submission (staff) with the first item ticked, then releases it. */
export async function gradeAndRelease(t: TestApp, w: ReviewWorld, release = true) {
  const current = await call(t, 'GET', w.reviewUrl, { token: w.tokens.staff });
  const version = (current.body as { version: number }).version;
  const saved = await call(t, 'PUT', w.reviewUrl, {
    token: w.tokens.staff,
    body: { version, status: 'graded', selected_item_ids: [w.items[0]], comment: 'Well done.' },
  });
  if (saved.status !== 200) throw new Error(`review: ${saved.status} ${JSON.stringify(saved.body)}`);
  const comment = await call(t, 'POST', `/api/Submission/${w.completed.id}/comments/`, {
    token: w.tokens.staff,
    body: { filename: 'helper.py', line_start: 2, line_end: 2, body: 'Nice **return**.' },
  });
  if (comment.status !== 201) throw new Error(`comment: ${comment.status} ${JSON.stringify(comment.body)}`);
  if (release) {
    await call(t, 'POST', `${w.assignmentUrl}/reviews/release/`, {
      token: w.tokens.staff,
      body: { scope: 'graded' },
    });
  }
  return { commentId: (comment.body as { id: number }).id };
}
