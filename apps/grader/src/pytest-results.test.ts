/** The result channel's error records and the reasons a broken test file gives. */
import { describe, expect, it } from 'vitest';
import { pytestVerdict, readChannel } from './pytest-results.ts';

const channel = (...records: object[]) =>
  new TextEncoder().encode(records.map((record) => JSON.stringify(record)).join('\n'));

describe('a test file that could not run its tests', () => {
  it('gives the harness’s cause as its reason, and what the cause leaves out as its detail', () => {
    const report = readChannel(
      channel(
        { t: 'ready' },
        {
          t: 'error',
          message: 'test_main.py, line 3: invalid syntax',
          cause: { code: 'syntax_error', file: 'test_main.py', line: 3, detail: 'invalid syntax' },
        },
        { t: 'done', exit: 2 },
      ),
    );
    expect(pytestVerdict(report, 'test_main.py')).toEqual({
      kind: 'broken',
      message: 'test_main.py, line 3: invalid syntax',
      reason: { code: 'syntax_error', file: 'test_main.py', line: 3 },
      detail: 'invalid syntax',
    });
  });

  it('reads an error record without a cause (an older harness), or with one it does not know', () => {
    const old = readChannel(channel({ t: 'error', message: 'It broke.' }, { t: 'done', exit: 2 }));
    expect(pytestVerdict(old, 'test_main.py')).toEqual({
      kind: 'broken',
      message: 'It broke.',
      reason: null,
      detail: 'It broke.',
    });
    const unknown = readChannel(
      channel({ t: 'error', message: 'It broke.', cause: { code: 'new_code' } }, { t: 'done', exit: 2 }),
    );
    expect(unknown.errors).toEqual(['It broke.']);
    expect(pytestVerdict(unknown, 'test_main.py')).toMatchObject({ reason: null, message: 'It broke.' });
  });

  it('gives its own reasons: no tests, too many, a wrong marker', () => {
    const collected = (items: { id: string; points: number; limit: number }[]) =>
      readChannel(channel({ t: 'collected', items }, { t: 'done', exit: 0 }));
    expect(pytestVerdict(collected([]), 'test_main.py')).toEqual({
      kind: 'broken',
      message: 'No tests were collected from test_main.py.',
      reason: { code: 'no_tests', file: 'test_main.py' },
      detail: '',
    });
    const many = Array.from({ length: 1001 }, (_, i) => ({ id: `test_main.py::t${i}`, points: 1, limit: 1 }));
    expect(pytestVerdict(collected(many), 'test_main.py')).toMatchObject({
      reason: { code: 'too_many_tests', file: 'test_main.py' },
    });
    expect(
      pytestVerdict(collected([{ id: 'test_main.py::test_a', points: -1, limit: 1 }]), 'test_main.py'),
    ).toMatchObject({ reason: { code: 'bad_points', name: 'test_a' } });
    expect(
      pytestVerdict(collected([{ id: 'test_main.py::test_a', points: 1, limit: 0 }]), 'test_main.py'),
    ).toMatchObject({ reason: { code: 'bad_time_limit', name: 'test_a' } });
  });
});
