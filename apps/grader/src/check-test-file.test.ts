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
      checkTestFile(deps, input({ testCode: 'import pytest\n\ndef test_x(:\n    pass\n' })),
      checkTestFile(deps, input({ testCode: 'from helpers import data\ndef test_x():\n    pass\n' })),
      checkTestFile(deps, input({ testCode: '\nfrom solution import add\ndef test_x():\n    pass\n' })),
      checkTestFile(deps, input({ testCode: 'from main import sub\ndef test_x():\n    pass\n' })),
      checkTestFile(deps, input({ testCode: 'def helper():\n    pass\n' })),
    ]);
    expect(results.map((r) => r.status)).toEqual(['draft', 'draft', 'draft', 'draft', 'draft']);
    const drafts = results.map((r) => (r.status === 'draft' ? r : null));
    // The reason says the sentence (the web says it in the reader's language); the message keeps
    // Python's own words, which the reason leaves out.
    expect(drafts[0]).toMatchObject({
      reason: { code: 'syntax_error', file: 'test_main.py', line: 3 },
      message: expect.stringMatching(/^invalid syntax|^'\(' was never closed/),
    });
    expect(drafts[0]!.message).toContain('def test_x(:');
    expect(drafts[1]).toEqual({
      status: 'draft',
      reason: {
        code: 'unknown_module',
        module: 'helpers',
        file: 'test_main.py',
        line: 1,
        files: ['main.py'],
      },
      message: '',
      against: 'reference',
    });
    expect(drafts[2]!.reason).toEqual({
      code: 'unknown_module',
      module: 'solution',
      file: 'test_main.py',
      line: 2,
      files: ['main.py'],
    });
    expect(drafts[3]).toMatchObject({
      reason: { code: 'missing_name', name: 'sub', module: 'main', file: 'test_main.py', line: 1 },
      message: '',
    });
    expect(drafts[4]).toMatchObject({ reason: { code: 'no_tests', file: 'test_main.py' }, message: '' });
  });

  it('says why the solution it was checked against could not be imported, and what Python said', async () => {
    const solution = (code: string) => ({ code, from: 'reference' as const });
    const [reads, raises] = await Promise.all([
      checkTestFile(
        deps,
        input({ solution: solution('name = input()\ndef add(a, b):\n    return a + b\n') }),
      ),
      checkTestFile(deps, input({ solution: solution('def add(a, b):\n    return a + b\n\n1 / 0\n') })),
    ]);
    expect(reads).toMatchObject({ status: 'draft', reason: { code: 'submission_input', module: 'main' } });
    expect(raises).toMatchObject({
      status: 'draft',
      reason: { code: 'submission_error', module: 'main' },
      message: expect.stringMatching(/^ZeroDivisionError: division by zero/),
    });
  });

  it('keeps an exception the test module raises when imported, with its traceback', async () => {
    const check = await checkTestFile(
      deps,
      input({ testCode: 'DATA = {}\nLIMIT = DATA["limit"]\n\ndef test_x():\n    pass\n' }),
    );
    expect(check).toMatchObject({
      status: 'draft',
      reason: { code: 'import_error', file: 'test_main.py', line: 2 },
      message: expect.stringMatching(/^KeyError: 'limit'\n\n {2}File "\/job\/test_main\.py", line 2/),
    });
  });
});
