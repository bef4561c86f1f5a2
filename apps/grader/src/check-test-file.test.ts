/** The check of a pytest module when it is saved, in the real sandbox. */
import { describe, expect, it } from 'vitest';
import { runPaired, runSandboxed } from '@kadai/sandbox';
import { checkTestFile, type TestFileCheckInput } from './check-test-file.ts';
import { Semaphore } from './semaphore.ts';

const deps = { run: runSandboxed, runPaired, slots: new Semaphore(4) };
const MODULE = `import pytest
from main import add
from kadai import points

def test_one():
    assert add(1, 1) == 2

@points(3)
@pytest.mark.parametrize('a', [1, 2])
def test_many(a):
    assert add(a, 0) == a
`;

const input = (overrides: Partial<TestFileCheckInput>): TestFileCheckInput => ({
  testFileName: 'test_main.py',
  testCode: MODULE,
  timeLimitMs: 1000,
  memoryLimitMb: 256,
  entryFile: 'main.py',
  requiredFiles: [],
  solution: { code: 'def add(a, b):\n    return a + b\n', from: 'reference' },
  attachments: [],
  ...overrides,
});

describe.concurrent('checking a pytest module when it is saved', { timeout: 60_000 }, () => {
  it('lists the collected tests and their shares', async () => {
    expect(await checkTestFile(deps, input({}))).toEqual({
      status: 'ready',
      tests: [
        { name: 'test_one', points: 1 },
        { name: 'test_many[1]', points: 3 },
        { name: 'test_many[2]', points: 3 },
      ],
      shares: 7,
      against: 'reference',
    });
  });

  it('collects against stand-ins without a solution, and for required files the solution lacks', async () => {
    const [none, helper] = await Promise.all([
      checkTestFile(deps, input({ solution: null })),
      checkTestFile(
        deps,
        input({ testCode: `from helper import twice\n${MODULE}`, requiredFiles: ['helper.py'] }),
      ),
    ]);
    expect(none).toMatchObject({ status: 'ready', shares: 7, against: 'stand-ins' });
    expect(helper).toMatchObject({ status: 'ready', shares: 7, against: 'reference' });
  });

  it('says why a file would never run: syntax, a missing module or name, no tests', async () => {
    const results = await Promise.all([
      checkTestFile(deps, input({ testCode: 'def test_x(:\n    pass\n' })),
      checkTestFile(deps, input({ testCode: 'from helpers import data\ndef test_x():\n    pass\n' })),
      checkTestFile(deps, input({ testCode: 'from solution import add\ndef test_x():\n    pass\n' })),
      checkTestFile(deps, input({ testCode: 'from main import sub\ndef test_x():\n    pass\n' })),
      checkTestFile(deps, input({ testCode: 'def helper():\n    pass\n' })),
    ]);
    expect(results.map((r) => r.status)).toEqual(['draft', 'draft', 'draft', 'draft', 'draft']);
    const messages = results.map((r) => (r.status === 'draft' ? r.message : ''));
    expect(messages[0]).toMatch(/^test_main\.py, line 1: invalid syntax/);
    expect(messages[1]).toMatch(
      /^test_main\.py imports the module 'helpers' .*neither a file of the submission/,
    );
    expect(messages[2]).toMatch(/^test_main\.py imports the module 'solution'/);
    expect(messages[3]).toBe(
      'test_main.py imports sub from main.py (test_main.py, line 1), but main.py does not define it.',
    );
    expect(messages[4]).toBe('No tests were collected from test_main.py.');
  });
});
