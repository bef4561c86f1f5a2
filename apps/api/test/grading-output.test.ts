// Program output that is not plain text — NUL characters, bytes that are not UTF-8, a character cut in
// half by a cap — through the real grader and sandbox: stored and answered with U+FFFD in their place,
// never a 500 or an InternalError (docs/grading.md, "Output").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrecheckResult, SnippetRunResult, TestCase, type SubmissionDetail } from '@kadai/contracts';
import { probeSandbox } from '@kadai/sandbox';
import { call, createTestApp, type TestApp } from './harness.ts';
import {
  createSubmissionWorld,
  gradedDetail,
  insertAssignment,
  type SubmissionWorld,
} from '../src/features/submissions/testing.ts';

/** NUL through print, then raw bytes that are not UTF-8 (and a NUL) on stdout and stderr. */
const ODD_BYTES = `import sys
print('a\\0b')
sys.stdout.flush()
sys.stdout.buffer.write(b'\\xff\\x00c\\n')
sys.stdout.flush()
sys.stderr.buffer.write(b'e\\x00\\xfe\\n')
`;
const ODD_STDOUT = 'a\uFFFDb\n\uFFFD\uFFFDc\n';
const ODD_STDERR = 'e\uFFFD\uFFFD\n';

/** A check script whose verdict says what it read, NUL and bad bytes included. */
const CHECK = `import sys
out = open('/judge/stdout', 'rb').read()
sys.stdout.buffer.write(b'saw \\x00 and \\xff: ' + out[:2] + b'\\n')
sys.exit(1)
`;

/** A pytest module whose tests print odd bytes and a long line of emoji, cut by the item's cap. */
const PYTEST = `import sys

def test_prints():
    print('p\\0q')
    sys.stdout.flush()
    sys.stdout.buffer.write(b'\\xff\\n')
    assert False, 'message with \\0 inside'

def test_long():
    print('x' + '\\U0001F600' * 20000)
    assert False
`;

const hasUnpairedSurrogate = (text: string) => /\p{Cs}/u.test(text);

describe('program output that is not plain text', () => {
  let t: TestApp;
  let w: SubmissionWorld;
  let assignmentId: number;
  let ids: { io: number; script: number; pytest: number };

  beforeAll(async () => {
    t = await createTestApp({ grader: true });
    w = await createSubmissionWorld(t);
    assignmentId = (await insertAssignment(t, { courses: [{ courseId: w.course.id }] })).id;
    const create = async (body: object) => {
      const res = await call(t, 'POST', `/api/Assignment/${assignmentId}/${w.course.id}/TestCase/`, {
        token: w.tokens.editor,
        body,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return TestCase.parse(res.body).id;
    };
    ids = {
      io: await create({ name: 'io', kind: 'io', expected_stdout: 'a b' }),
      script: await create({ name: 'script', kind: 'script', check_script: CHECK }),
      pytest: await create({ name: 'pytest', kind: 'pytest', test_code: PYTEST }),
    };
  });
  afterAll(() => t.close());

  const submit = async (code: string) => {
    const res = await call(t, 'POST', '/api/Submission/Submit/', {
      token: w.tokens.student,
      body: { assignment_id: assignmentId, course_id: w.course.id, code },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return gradedDetail(t, Number(res.json.id), w.tokens.student);
  };
  const evaluation = (detail: SubmissionDetail, testCaseId: number) => {
    const found = detail.evaluations.find((e) => e.test_case_id === testCaseId);
    if (!found || found.view !== 'full') throw new Error(`no full evaluation of test ${testCaseId}`);
    return found;
  };

  it('grades a program that prints NUL and bytes that are not UTF-8, and shows them as U+FFFD', async () => {
    const detail = await submit(ODD_BYTES);
    expect([detail.status, detail.message]).toEqual(['Completed', '']);
    const io = evaluation(detail, ids.io);
    expect([io.status, io.reason, io.stdout, io.stderr]).toEqual([
      'Wrong',
      'wrong_answer',
      ODD_STDOUT,
      ODD_STDERR,
    ]);
    const script = evaluation(detail, ids.script);
    expect([script.status, script.reason]).toEqual(['Wrong', 'wrong_answer']);
    expect(script.checker_message).toBe('saw \uFFFD and \uFFFD: a\uFFFD');
    const pytest = evaluation(detail, ids.pytest);
    const [prints, long] = pytest.items;
    expect(prints).toMatchObject({ name: 'test_prints', outcome: 'failed' });
    expect(prints!.output).toContain('p\uFFFDq\n\uFFFD\n');
    expect(prints!.message).toContain('message with \uFFFD inside');
    expect(long).toMatchObject({ name: 'test_long', outcome: 'failed' });
    // The item's cap falls inside a character: what is kept is whole characters only.
    expect(hasUnpairedSurrogate(long!.output)).toBe(false);
    expect(long!.output.startsWith('x\u{1F600}')).toBe(true);
    for (const text of [io.stdout, io.stderr, script.checker_message, JSON.stringify(pytest.items)]) {
      expect(text).not.toContain('\0');
    }
  });

  it('stores output cut by its cap inside a character as whole characters', async () => {
    // 64 Ki characters are kept of each stream: an odd offset falls inside the emoji's surrogate pair.
    const detail = await submit("print('x' + '\\U0001F600' * 40000)\n");
    expect(detail.status).toBe('Completed');
    const io = evaluation(detail, ids.io);
    // (Assertions on booleans: a failure printing 64 Ki emoji helps nobody.)
    expect(/^x\u{1F600}+\n… \(truncated\)$/u.test(io.stdout)).toBe(true);
    expect(hasUnpairedSurrogate(io.stdout)).toBe(false);
  });

  it('answers a precheck of such a program with the same text', async () => {
    const res = await call(t, 'POST', '/api/Submission/Precheck/', {
      token: w.tokens.classmate,
      body: { assignment_id: assignmentId, course_id: w.course.id, code: ODD_BYTES },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const result = PrecheckResult.parse(res.body);
    const io = result.tests.find((test) => test.test_case_id === ids.io)!;
    expect([io.stdout, io.stderr]).toEqual([ODD_STDOUT, ODD_STDERR]);
    expect(JSON.stringify(res.body)).not.toContain('\\u0000');
  });

  it('answers a PyGrade console run of such a program with the same text', async () => {
    const res = await call(t, 'POST', '/api/Pygrade/run/', {
      token: w.tokens.editor,
      body: { code: ODD_BYTES },
    });
    if (!(await probeSandbox()).ok) {
      expect(res.status).toBe(503);
      return;
    }
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const result = SnippetRunResult.parse(res.body);
    expect([result.exit_code, result.stdout, result.stderr]).toEqual([0, ODD_STDOUT, ODD_STDERR]);
  });
});
