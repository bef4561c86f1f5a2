// One person cannot fill the precheck queue of a process (issue 36, item 6): at most
// PRECHECK_PER_PERSON of their prechecks are in progress at once, across assignments; the slots are
// shared out fairly between people (lib/test-runs.unit.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { insertAssignment, insertTestCase } from '../assignments/testing.ts';
import { PRECHECK_PER_PERSON } from './precheck.service.ts';
import { createSubmissionWorld, type SubmissionWorld } from './testing.ts';

const SLOW = 'import time\ntime.sleep(1.5)\nprint(3)\n';

describe('prechecks of one person', () => {
  let t: TestApp;
  let w: SubmissionWorld;
  let second: number;
  beforeAll(async () => {
    t = await createTestApp();
    w = await createSubmissionWorld(t);
    const other = await insertAssignment(t, {
      courses: [{ courseId: w.course.id }],
      createdBy: w.users.editor.id,
    });
    await insertTestCase(t, other.id, { name: 'Visible' });
    second = other.id;
  });
  afterAll(() => t.close());

  const precheck = (assignmentId: number, token = w.tokens.student) =>
    call(t, 'POST', '/api/Submission/Precheck/', {
      token,
      body: { assignment_id: assignmentId, course_id: w.course.id, code: SLOW },
    });

  it(`runs ${PRECHECK_PER_PERSON} at once across assignments, refuses the next with 429, and not someone else's`, async () => {
    const mine = [precheck(w.assignment.id), precheck(second)];
    await new Promise((resolve) => setTimeout(resolve, 300));
    const third = await precheck(second);
    expect(third.status, JSON.stringify(third.body)).toBe(429);
    expect(third.body).toMatchObject({ code: 'precheck_in_progress' });
    expect(third.headers['retry-after']).toBe('5');
    // A classmate is not held back by it.
    const theirs = await precheck(w.assignment.id, w.tokens.classmate);
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
    expect((await Promise.all(mine)).map((r) => r.status)).toEqual([200, 200]);
    // Done: the next one runs.
    expect((await precheck(second)).status).toBe(200);
  });
});
