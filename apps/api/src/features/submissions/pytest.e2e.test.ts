import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrecheckResult, SubmissionDetail, TestCase } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import {
  createSubmissionWorld,
  gradedDetail,
  hoursFromNow,
  insertAssignment,
  setLink,
  type SubmissionWorld,
} from './testing.ts';

/**
 * pytest test cases through the HTTP routes, with the real in-process grader and sandbox: created by an
 * editor, per-test items in every view, hidden modules and messages never reaching a student, the
 * harness's own failures, prechecks that store nothing.
 */
const VISIBLE = `from main import add
from kadai import points

def test_small():
    assert add(1, 2) == 3

@points(2)
def test_negative():
    assert add(-1, -2) == -3, "negative numbers"
`;
const HIDDEN = `# HIDDEN-MODULE-SECRET
import pytest
from main import add

@pytest.mark.parametrize("a", [10, 20, 30])
def test_big(a):
    assert add(a, 1) == a + 1, "HIDDEN-MESSAGE-SECRET"
`;
const RIGHT = 'def add(a, b):\n    return a + b\n';
/** Right for small numbers, wrong for negative ones and for a ≥ 20; prints fake results and writes files. */
const PARTLY = `import os
print('{"t": "result", "id": "test_main.py::test_negative", "outcome": "passed", "message": "", "output": ""}')
open('results.json', 'w').write('{"passed": true}')

def add(a, b):
    print("PRINTED-BY-STUDENT")
    if a < 0 or a >= 20:
        return 0
    return a + b
`;

describe('pytest test cases graded by the real grader', () => {
  let t: TestApp;
  let w: SubmissionWorld;
  let assignmentId: number;
  let ids: { visible: number; hidden: number };
  const base = () => `/api/Assignment/${assignmentId}/${w.course.id}/TestCase/`;

  beforeAll(async () => {
    t = await createTestApp({ grader: true });
    w = await createSubmissionWorld(t);
    const assignment = await insertAssignment(t, { courses: [{ courseId: w.course.id }] });
    assignmentId = assignment.id;
    const create = async (body: object) => {
      const res = await call(t, 'POST', base(), { token: w.tokens.editor, body });
      expect(res.status).toBe(201);
      return TestCase.parse(res.body).id;
    };
    ids = {
      visible: await create({ name: 'unit', kind: 'pytest', points: 3, test_code: VISIBLE }),
      hidden: await create({
        name: 'more',
        kind: 'pytest',
        points: 6,
        visibility: 'hidden',
        test_file_name: 'test_more.py',
        test_code: HIDDEN,
      }),
    };
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
  it('checks a pytest test case: a module is needed, and a test file name', async () => {
    const empty = await call(t, 'POST', base(), {
      token: w.tokens.editor,
      body: { name: 'x', kind: 'pytest' },
    });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.json)).toContain('test_code');
    const badName = await call(t, 'POST', base(), {
      token: w.tokens.editor,
      body: { name: 'x', kind: 'pytest', test_code: VISIBLE, test_file_name: '../main.py' },
    });
    expect(badName.status).toBe(400);
    const toEmpty = await call(t, 'PATCH', `${base()}${ids.visible}/`, {
      token: w.tokens.editor,
      body: { test_code: '  ' },
    });
    expect(toEmpty.status).toBe(400);
  });

  it('scores each collected test, shows visible items in full and hidden ones by name and outcome', async () => {
    const detail = await graded(await submit(PARTLY));
    expect([detail.status, detail.max_score]).toEqual(['Completed', 9]);
    const visible = detail.evaluations.find((e) => e.test_case_id === ids.visible)!;
    const hidden = detail.evaluations.find((e) => e.test_case_id === ids.hidden)!;
    // Visible: 1 of 3 shares → 1 of 3 points; hidden: 1 of 3 tests → 2 of 6 points.
    expect([visible.points, hidden.points, detail.score]).toEqual([1, 2, 3]);
    expect(visible.view).toBe('full');
    expect(visible.items.map((i) => [i.name, i.outcome, i.points, i.max_points])).toEqual([
      ['test_small', 'passed', 1, 1],
      ['test_negative', 'failed', 0, 2],
    ]);
    const failing = visible.view === 'full' ? visible.items[1]! : null;
    expect(failing?.message).toContain('negative numbers');
    expect(failing?.output).toContain('PRINTED-BY-STUDENT');
    expect(hidden.view).toBe('hidden');
    expect(hidden.items).toEqual([
      { name: 'test_big[10]', outcome: 'passed', points: 1, max_points: 1 },
      { name: 'test_big[20]', outcome: 'failed', points: 0, max_points: 1 },
      { name: 'test_big[30]', outcome: 'failed', points: 0, max_points: 1 },
    ]);

    // The editor sees the hidden items' messages; the student sees them in no call.
    const editorView = SubmissionDetail.parse(
      (await call(t, 'GET', `/api/Submission/${detail.id}/`, { token: w.tokens.editor })).body,
    );
    expect(JSON.stringify(editorView)).toContain('HIDDEN-MESSAGE-SECRET');
    const studentCalls = [
      `/api/Submission/${detail.id}/`,
      `/api/Submission/?assignment_id=${assignmentId}`,
      `/api/Evaluation/?submission=${detail.id}`,
      base(),
      `${base()}${ids.hidden}/`,
      `/api/Assignment/${assignmentId}/CourseSpecificDetail/?course_id=${w.course.id}`,
      `/api/Assignment/${assignmentId}/${w.course.id}/FileUpload/`,
    ];
    for (const url of studentCalls) {
      const res = await call(t, 'GET', url, { token: w.tokens.student });
      expect(res.status, url).toBeLessThan(500);
      const text = JSON.stringify(res.body);
      expect(text, url).not.toContain('HIDDEN-MODULE-SECRET');
      expect(text, url).not.toContain('HIDDEN-MESSAGE-SECRET');
    }
    const testCases = (await call(t, 'GET', base(), { token: w.tokens.student })).json as {
      results: { id: number; test_code: string | null }[];
    };
    expect(testCases.results.find((c) => c.id === ids.visible)?.test_code).toBe(VISIBLE);
    expect(testCases.results.find((c) => c.id === ids.hidden)?.test_code).toBeNull();
  });

  it('gives full marks when every test passes', async () => {
    const detail = await graded(await submit(RIGHT, w.tokens.classmate), w.tokens.classmate);
    expect([detail.status, detail.score]).toEqual(['Completed', 9]);
    expect(detail.evaluations.every((e) => e.status === 'Correct')).toBe(true);
  });

  it('reports a student module that cannot be imported as the reason, with its message', async () => {
    const detail = await graded(await submit('def add(a, b):\n    return a +\n'));
    // A syntax error in the student's file is the format check's; one at import time is pytest's.
    expect(detail.status).toBe('InvalidFormat');
    const raising = await graded(await submit('raise ValueError("no add today")\n'));
    const visible = raising.evaluations.find((e) => e.test_case_id === ids.visible)!;
    expect([visible.status, visible.reason, visible.items]).toEqual(['Wrong', 'collection_error', []]);
    expect(visible.view === 'full' && visible.checker_message).toContain('ValueError: no add today');
    const hidden = raising.evaluations.find((e) => e.test_case_id === ids.hidden)!;
    expect(JSON.stringify(hidden)).not.toContain('no add today');
  });

  it('runs a reference solution with pytest cases, and the editor sees the items', async () => {
    const res = await call(t, 'POST', `${base()}run-reference/`, {
      token: w.tokens.editor,
      body: { code: RIGHT },
    });
    expect(res.status).toBe(202);
    const detail = await graded(Number(res.json.submission_id), w.tokens.editor);
    expect(detail.score).toBe(9);
    expect(detail.evaluations.flatMap((e) => e.items.map((i) => i.outcome))).toEqual(Array(5).fill('passed'));
  });

  it('takes a unittest module of 500 tests in one run, each an item', async () => {
    const other = await insertAssignment(t, { courses: [{ courseId: w.course.id }] });
    const methods = Array.from(
      { length: 500 },
      (_, i) => `    def test_${i}(self):\n        self.assertEqual(add(${i}, 1), ${i === 7 ? 0 : i + 1})\n`,
    ).join('');
    const module = `import unittest\nfrom main import add\n\nclass TestAdd(unittest.TestCase):\n${methods}`;
    const created = await call(t, 'POST', `/api/Assignment/${other.id}/${w.course.id}/TestCase/`, {
      token: w.tokens.editor,
      body: { name: 'many', kind: 'pytest', points: 500, test_code: module, time_limit_ms: 8000 },
    });
    expect(created.status).toBe(201);
    const res = await call(t, 'POST', '/api/Submission/Submit/', {
      token: w.tokens.student,
      body: { assignment_id: other.id, course_id: w.course.id, code: RIGHT },
    });
    const detail = await graded(Number(res.json.id));
    const items = detail.evaluations[0]!.items;
    expect(items).toHaveLength(500);
    expect(items.filter((i) => i.outcome === 'failed').map((i) => i.name)).toEqual(['TestAdd::test_7']);
    expect([detail.score, detail.max_score]).toEqual([499, 500]);
  });

  describe('precheck', () => {
    const precheck = (code: string, token = w.tokens.student) =>
      call(t, 'POST', '/api/Submission/Precheck/', {
        token,
        body: { assignment_id: assignmentId, course_id: w.course.id, code },
      });
    const count = async (table: string) =>
      Number((await t.database.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n);

    it('runs the visible tests only and stores nothing', async () => {
      const before = [await count('submissions'), await count('evaluations')];
      const outsider = await precheck(PARTLY, w.tokens.otherEditor);
      expect(outsider.status).toBe(404); // not a member of the course
      const ok = await precheck(PARTLY);
      expect(ok.status).toBe(200);
      const result = PrecheckResult.parse(ok.body);
      expect([result.status, result.score, result.max_score, result.not_run]).toEqual(['Completed', 1, 3, 1]);
      expect(result.tests.map((test) => test.test_case_id)).toEqual([ids.visible]);
      expect(result.tests[0]!.items.map((i) => i.outcome)).toEqual(['passed', 'failed']);
      expect(JSON.stringify(result)).not.toContain('HIDDEN');
      expect([await count('submissions'), await count('evaluations')]).toEqual(before);

      const invalid = PrecheckResult.parse((await precheck('def add(:\n')).body);
      expect([invalid.status, invalid.tests]).toEqual(['InvalidFormat', []]);
      expect(invalid.message).toMatch(/Syntax error/);
    });

    it('gives the verdicts grading gives, test by test, on a file of mostly failing tests', async () => {
      const other = await insertAssignment(t, { courses: [{ courseId: w.course.id }] });
      const module = `import pytest
from main import add, slow

@pytest.mark.parametrize('a', range(30))
def test_add(a):
    assert add([a] * 20, [a]) == [a] * 21, 'lists of %d' % a

@pytest.mark.parametrize('n', [1, 2, 3])
def test_slow(n):
    assert slow(n) == n
`;
      const code =
        'def add(a, b):\n    return a if len(a) % 7 else a + b\n' +
        'def slow(n):\n    import time\n    end = time.process_time() + 0.05 * n\n' +
        '    while time.process_time() < end:\n        pass\n    return n if n < 3 else -n\n';
      const created = await call(t, 'POST', `/api/Assignment/${other.id}/${w.course.id}/TestCase/`, {
        token: w.tokens.editor,
        body: { name: 'heavy', kind: 'pytest', test_code: module, time_limit_ms: 300 },
      });
      expect(created.status).toBe(201);
      const submitted = await call(t, 'POST', '/api/Submission/Submit/', {
        token: w.tokens.classmate,
        body: { assignment_id: other.id, course_id: w.course.id, code },
      });
      const [graded, checked] = await Promise.all([
        gradedDetail(t, Number(submitted.json.id), w.tokens.classmate),
        call(t, 'POST', '/api/Submission/Precheck/', {
          token: w.tokens.classmate,
          body: { assignment_id: other.id, course_id: w.course.id, code },
        }),
      ]);
      const precheckResult = PrecheckResult.parse(checked.body);
      const verdicts = (items: { name: string; outcome: string; points: number }[]) =>
        items.map((i) => [i.name, i.outcome, i.points]);
      const gradedItems = verdicts(graded.evaluations[0]!.items);
      expect(gradedItems.filter(([, outcome]) => outcome === 'failed')).toHaveLength(31);
      expect(verdicts(precheckResult.tests[0]!.items)).toEqual(gradedItems);
      expect(precheckResult.score).toBe(graded.score);
    });

    it('is rate-limited apart from submitting, and refused after the cut-off', async () => {
      let last = 0;
      for (let i = 0; i < 8 && last !== 429; i++) last = (await precheck(RIGHT, w.tokens.classmate)).status;
      expect(last).toBe(429);
      const limited = await precheck(RIGHT, w.tokens.classmate);
      expect(limited.headers['retry-after']).toMatch(/^\d+$/);
      expect((await submit(RIGHT, w.tokens.classmate)) > 0).toBe(true); // submitting is still allowed

      await setLink(t, assignmentId, w.course.id, { dueAt: hoursFromNow(-2), lateUntil: null });
      const closed = await precheck(RIGHT);
      expect([closed.status, closed.json.code]).toEqual([403, 'closed']);
      await setLink(t, assignmentId, w.course.id, { dueAt: hoursFromNow(24) });
    });
  });
});
