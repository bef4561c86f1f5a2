import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Leaderboard, PygradeStatus, SubmissionDetail } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { testCases } from '../../db/schema-assignments.ts';
import {
  createSubmissionWorld,
  gradedDetail,
  insertAssignment,
  insertTestCase,
  type SubmissionWorld,
} from './testing.ts';

/**
 * Through the HTTP routes with the real in-process grader and sandbox: submit, watch the status change,
 * read role-shaped results, choose final, rank, export, re-grade.
 */
const ADD = 'a, b = map(int, input().split())\nprint(a + b)\n';
const WRONG = 'a, b = map(int, input().split())\nprint(a - b)\n';

describe('submissions graded by the real grader', () => {
  let t: TestApp;
  let w: SubmissionWorld;
  let assignmentId: number;
  let tests: { visible: number; hidden: number };
  beforeAll(async () => {
    t = await createTestApp({ grader: true });
    w = await createSubmissionWorld(t);
    const assignment = await insertAssignment(t, { courses: [{ courseId: w.course.id }] });
    assignmentId = assignment.id;
    const visible = await insertTestCase(t, assignmentId, {
      stdin: '2 2\n',
      expectedStdout: '4\n',
      points: 1,
    });
    const hidden = await insertTestCase(t, assignmentId, {
      stdin: '40 2\n',
      expectedStdout: '42\n',
      points: 2,
      visibility: 'hidden',
      position: 1,
    });
    tests = { visible: visible.id, hidden: hidden.id };
  });
  afterAll(() => t.close());

  const submit = async (code: string, token = w.tokens.student) => {
    const res = await call(t, 'POST', '/api/Submission/Submit/', {
      token,
      body: { assignment_id: assignmentId, course_id: w.course.id, code },
    });
    expect(res.status).toBe(201);
    return Number(res.json.id);
  };

  const graded = (id: number, token = w.tokens.student) => gradedDetail(t, id, token);

  it('grades a wrong then a right solution; the student never sees the hidden test', async () => {
    const wrong = await graded(await submit(WRONG));
    expect([wrong.status, wrong.score, wrong.max_score]).toEqual(['Completed', 0, 3]);
    const right = await graded(await submit(ADD));
    expect([right.status, right.score]).toEqual(['Completed', 3]);
    const hidden = right.evaluations.find((e) => e.test_case_id === tests.hidden)!;
    expect(hidden.view).toBe('hidden');
    expect(JSON.stringify(right)).not.toContain('40 2');
    const visible = right.evaluations.find((e) => e.test_case_id === tests.visible)!;
    expect(visible.view === 'full' && visible.stdout).toBe('4\n');

    const final = await call(
      t,
      'POST',
      `/api/Submission/SelectFinal/${assignmentId}/${w.course.id}/${right.id}/`,
      {
        token: w.tokens.student,
      },
    );
    expect(final.status).toBe(200);
    const board = Leaderboard.parse(
      (await call(t, 'GET', `/api/Leaderboard/${assignmentId}/${w.course.id}`, { token: w.tokens.student }))
        .body,
    );
    expect(board.entries.map((e) => [e.score, e.is_me])).toEqual([[3, true]]);
    const csv = await call(
      t,
      'GET',
      `/api/Submission/csv/?assignment_id=${assignmentId}&course_id=${w.course.id}`,
      {
        token: w.tokens.editor,
      },
    );
    expect(String(csv.body)).toContain(`,${right.id},final,3,3,Completed,false,`);

    const consoleStatus = PygradeStatus.parse(
      (await call(t, 'GET', '/api/Pygrade/status/', { token: w.tokens.editor })).body,
    );
    expect(consoleStatus.recent.map((j) => j.submission_id)).toContain(right.id);
    expect(consoleStatus.hosts.some((h) => h.id === t.grader!.id && h.alive)).toBe(true);
  });

  it('says why a submission cannot be graded', async () => {
    const broken = await graded(await submit('print(1\n'));
    expect(broken.status).toBe('InvalidFormat');
    expect(broken.message).not.toBe('');
  });

  it('re-grades every submission after a test changes, replacing hand-set results', async () => {
    const id = await submit(ADD, w.tokens.classmate);
    await graded(id, w.tokens.classmate);
    const override = await call(t, 'POST', '/api/Submission/Score/', {
      token: w.tokens.editor,
      body: { submission_id: id, test_case_id: tests.hidden, status: 'Wrong', comment: 'copied' },
    });
    expect(SubmissionDetail.parse(override.body).score).toBe(1);

    await t.ctx.db.update(testCases).set({ expectedStdout: '43\n' }).where(eq(testCases.id, tests.hidden));
    const queued = await call(t, 'POST', `/api/Score/${tests.hidden}/${w.course.id}`, {
      token: w.tokens.editor,
    });
    expect(queued.status).toBe(200);
    expect(Number(queued.json.queued)).toBeGreaterThanOrEqual(3);
    const again = await graded(id, w.tokens.editor);
    expect(again.score).toBe(1);
    const hidden = again.evaluations.find((e) => e.test_case_id === tests.hidden)!;
    expect([hidden.status, hidden.overridden, hidden.reason]).toEqual(['Wrong', false, 'wrong_answer']);
  });
});
