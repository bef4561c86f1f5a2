// The grader tells a submission's author it was graded (docs/notifications.md, "Events"): in the
// transaction that stores the verdict (apps/grader/src/repo.ts), once per grading attempt, never for a
// reference run or an author who is not a student of the course. The real grader and sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraderOptions } from '@kadai/grader/worker';
import { enqueueGrading, sendGradingJobs } from '../src/features/submissions/grading.ts';
import { links } from '../src/features/notifications/notify.service.ts';
import { addEditor, addStudent } from './factories.ts';
import { createTestApp, type TestApp } from './harness.ts';
import {
  createGradingWorld,
  createSubmission,
  submissionState,
  waitForSubmission,
} from './grading-fixtures.ts';
import { notificationsOf } from './notifications.ts';

type GradeOutcome = Parameters<NonNullable<GraderOptions['onOutcome']>>[1];

const ADD = 'a, b = map(int, input().split())\nprint(a + b)\n';
const TESTS = [
  { stdin: '2 3\n', expected_stdout: '5\n', points: 2 },
  { stdin: '1 1\n', expected_stdout: '3\n', points: 3 },
];

describe('a graded submission', () => {
  let t: TestApp;
  const outcomes: [number, GradeOutcome][] = [];
  beforeAll(async () => {
    t = await createTestApp({ grader: { onOutcome: (id, outcome) => outcomes.push([id, outcome]) } });
  });
  afterAll(() => t.close());

  const grade = async (id: number) => {
    await enqueueGrading(t.ctx, [id]);
    return waitForSubmission(t, id);
  };
  const ofSubmission = async (courseId: number, id: number) =>
    (await notificationsOf(t, 'submission_graded', courseId)).filter((n) =>
      n.event_key.startsWith(`graded:${id}:`),
    );

  it('tells its author once per grading, with the score, and waits two minutes before e-mailing', async () => {
    const world = await createGradingWorld(t, TESTS);
    await addStudent(t, world.courseId, world.userId);
    const id = await createSubmission(t, world, { 'main.py': ADD });
    const graded = await grade(id);
    expect(graded).toMatchObject({ status: 'Completed', score: 2, max_score: 5 });
    const [told, ...more] = await ofSubmission(world.courseId, id);
    expect(more).toEqual([]);
    expect(told).toMatchObject({
      user_id: world.userId,
      course_id: world.courseId,
      event_key: `graded:${id}:${graded.grading_token}`,
      link: links.submission(world.courseId, id),
      facts: { title: 'Graded', score: 2, max_score: 5 },
    });
    const wait = told!.mail_after.getTime() - told!.created_at.getTime();
    expect(wait).toBeGreaterThanOrEqual(119_000);
    expect(wait).toBeLessThanOrEqual(121_000);

    // The same job delivered again (a retry): the attempt is over, nothing is stored or told.
    const before = outcomes.length;
    await sendGradingJobs(t.ctx, [id]);
    await waitUntil(() => outcomes.slice(before).some(([s]) => s === id));
    expect(outcomes.slice(before).filter(([s]) => s === id)).toEqual([[id, 'skipped']]);
    expect(await ofSubmission(world.courseId, id)).toHaveLength(1);

    // A re-grade is a new event.
    const again = await grade(id);
    expect(again.grading_token).not.toBe(graded.grading_token);
    expect((await ofSubmission(world.courseId, id)).map((n) => n.event_key)).toEqual([
      `graded:${id}:${graded.grading_token}`,
      `graded:${id}:${again.grading_token}`,
    ]);
  });

  it('tells of an InvalidFormat verdict too, with score 0', async () => {
    const world = await createGradingWorld(t, TESTS);
    await addStudent(t, world.courseId, world.userId);
    const id = await createSubmission(t, world, { 'main.py': 'print(\n' });
    expect((await grade(id)).status).toBe('InvalidFormat');
    expect((await ofSubmission(world.courseId, id)).map((n) => n.facts)).toEqual([
      { title: 'Graded', score: 0, max_score: 5 },
    ]);
  });

  it("tells nobody of a reference run or of an editor's own submission", async () => {
    const world = await createGradingWorld(t, TESTS);
    await addEditor(t, world.courseId, world.userId);
    const own = await createSubmission(t, world, { 'main.py': ADD });
    const reference = await createSubmission(t, world, { 'main.py': ADD });
    await t.database.query('UPDATE submissions SET is_reference = true WHERE id = $1', [reference]);
    await Promise.all([grade(own), grade(reference)]);
    expect((await submissionState(t, own)).status).toBe('Completed');
    expect(await notificationsOf(t, 'submission_graded', world.courseId)).toEqual([]);
  });
});

async function waitUntil(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
