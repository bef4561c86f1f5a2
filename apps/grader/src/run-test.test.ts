import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runPaired, runSandboxed } from '@kadai/sandbox';
import { judgeFiles, safeRelativePath } from './judge-files.ts';
import { Semaphore } from './semaphore.ts';
import { limitsFor, runFailure, runTestCase, type RunContext, type TestCaseSpec } from './run-test.ts';
import { storedText } from './stored-text.ts';
import { CHECKER_WRAPPER, PROGRAM_BOOTSTRAP, driverArgv, programArgv } from './python.ts';
import type { SandboxRequest, SandboxResult } from './types.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (content: string | Uint8Array) =>
  typeof content === 'string' ? content : new TextDecoder().decode(content);

const ran = (overrides: Partial<SandboxResult> = {}): SandboxResult => ({
  exitCode: 0,
  signal: null,
  timeMs: 30,
  cpuMs: 20,
  memoryKb: 9000,
  stdout: '',
  stderr: '',
  stdoutTruncated: false,
  stderrTruncated: false,
  limit: null,
  files: [],
  ...overrides,
});

const test = (overrides: Partial<TestCaseSpec> = {}): TestCaseSpec => ({
  id: 7,
  name: 't',
  kind: 'io',
  points: 3,
  stdin: '1\n',
  expectedStdout: '2\n',
  comparison: 'whitespace',
  tolerance: 1e-6,
  driver: '',
  checkScript: '',
  testFileName: 'test_main.py',
  testCode: '',
  timeLimitMs: 1500,
  memoryLimitMb: 128,
  ...overrides,
});

/** A runner that answers from a script of results and records every request. */
function fakeRunner(...results: SandboxResult[]) {
  const requests: SandboxRequest[] = [];
  const run = async (request: SandboxRequest) => {
    requests.push(request);
    const next = results.shift();
    if (!next) throw new Error('no more fake results');
    return next;
  };
  return { run, requests };
}

const context = (run: RunContext['run']): RunContext => ({
  run,
  runPaired,
  slots: new Semaphore(1),
  entryFile: 'main.py',
  submission: [{ filename: 'main.py', content: bytes('print(2)') }],
  attachments: [{ filename: 'data.csv', content: bytes('a,b') }],
});

describe('limits and failures', () => {
  it('rounds CPU seconds up and gives the wall clock twice the limit plus start-up', () => {
    expect(limitsFor(test({ timeLimitMs: 1500, memoryLimitMb: 128 }))).toEqual({
      cpuSeconds: 2,
      wallMs: 3500,
      memoryBytes: 128 * 1024 * 1024,
      outputBytes: 1024 * 1024,
    });
    expect(limitsFor(test({ timeLimitMs: 100 })).cpuSeconds).toBe(1);
    expect(limitsFor(test({ expectedStdout: 'x'.repeat(1_000_000) })).outputBytes).toBe(2_004_096);
  });

  it('names the limit a run hit', () => {
    const t = test();
    expect(runFailure(ran({ limit: 'cpu' }), t)).toBe('time_limit');
    expect(runFailure(ran({ limit: 'wall' }), t)).toBe('time_limit');
    expect(runFailure(ran({ limit: 'memory' }), t)).toBe('memory_limit');
    expect(runFailure(ran({ limit: 'output' }), t)).toBe('output_limit');
    expect(runFailure(ran({ limit: 'file_size' }), t)).toBe('file_size');
    expect(runFailure(ran(), t)).toBeNull();
  });

  it('holds the test to its millisecond limit, not the rounded-up CPU second', () => {
    expect(runFailure(ran({ cpuMs: 1600 }), test({ timeLimitMs: 1500 }))).toBe('time_limit');
    expect(runFailure(ran({ cpuMs: 1400 }), test({ timeLimitMs: 1500 }))).toBeNull();
    expect(runFailure(ran({ cpuMs: null }), test({ timeLimitMs: 1500 }))).toBeNull();
  });

  it('tells a crash from a MemoryError and a cut-off output', () => {
    expect(runFailure(ran({ exitCode: 1, stderr: 'Traceback…\nValueError: x' }), test())).toBe(
      'runtime_error',
    );
    expect(runFailure(ran({ exitCode: null, signal: 'SIGABRT' }), test())).toBe('runtime_error');
    expect(runFailure(ran({ exitCode: 1, stderr: 'Traceback…\nMemoryError' }), test())).toBe('memory_limit');
    expect(runFailure(ran({ stdoutTruncated: true }), test())).toBe('output_limit');
  });

  it('keeps stored output storable: no NUL or half characters, capped at a whole character', () => {
    expect(storedText('a\0b')).toBe('a\uFFFDb');
    expect(storedText('x'.repeat(10), 4)).toBe('xxxx\n… (truncated)');
    expect(storedText('a\uD800b\uDC00')).toBe('a\uFFFDb\uFFFD');
    expect(storedText('\u{1F600}\u{1F600}')).toBe('\u{1F600}\u{1F600}');
    // The cap (3 UTF-16 units) falls inside the second emoji: it is left out whole.
    expect(storedText('\u{1F600}\u{1F600}', 3)).toBe('\u{1F600}\n… (truncated)');
  });
});

describe('io tests', () => {
  it('runs the entry file with the test input, files and limits, and compares outside', async () => {
    const fake = fakeRunner(ran({ stdout: '2\n' }));
    const result = await runTestCase(context(fake.run), test());
    expect(result).toMatchObject({
      testCaseId: 7,
      status: 'Correct',
      points: 3,
      reason: null,
      stdout: '2\n',
    });
    const [request] = fake.requests;
    expect(request!.argv).toEqual(['-S', '-c', PROGRAM_BOOTSTRAP, 'main.py']);
    expect(request!.stdin).toBe('1\n');
    expect(request!.writable).toBe(true);
    expect(request!.files.map((f) => f.path)).toEqual(['main.py', 'data.csv']);
    expect(request!.limits).toMatchObject({ cpuSeconds: 2, memoryBytes: 128 * 1024 * 1024 });
  });

  it('is Wrong with a hint when the output differs', async () => {
    const fake = fakeRunner(ran({ stdout: '3\n' }));
    const result = await runTestCase(context(fake.run), test());
    expect(result).toMatchObject({
      status: 'Wrong',
      points: 0,
      reason: 'wrong_answer',
      checkerMessage: 'Token 1 differs.',
    });
  });

  it('judges a limit before the output, even when the output happens to be right', async () => {
    const fake = fakeRunner(ran({ stdout: '2\n', limit: 'wall', exitCode: null, signal: 'SIGKILL' }));
    const result = await runTestCase(context(fake.run), test());
    expect(result).toMatchObject({ status: 'Wrong', reason: 'time_limit', signal: 'SIGKILL' });
  });

  it('passes a sandbox failure on rather than blaming the student', async () => {
    const run = async () => Promise.reject(new Error('bwrap vanished'));
    await expect(runTestCase(context(run), test())).rejects.toThrow('bwrap vanished');
  });
});

describe('script tests', () => {
  const script = (overrides: Partial<TestCaseSpec> = {}) =>
    test({ kind: 'script', checkScript: 'import sys\nsys.exit(0)\n', ...overrides });

  it('runs the program, then the checker in a second sandbox with /judge read-only', async () => {
    const fake = fakeRunner(
      ran({ stdout: 'hi\n', files: [{ path: 'out.txt', content: bytes('made') }] }),
      ran({ stdout: 'looks good\n' }),
    );
    const result = await runTestCase(context(fake.run), script({ driver: 'import main\n' }));
    expect(result).toMatchObject({ status: 'Correct', points: 3, checkerMessage: 'looks good' });
    const [program, checker] = fake.requests;
    expect(program!.argv).toEqual(driverArgv('_driver.py'));
    expect(program!.files.map((f) => f.path)).toEqual(['main.py', 'data.csv', '_driver.py']);
    expect(program!.collect).toEqual(['*', '*/*']);
    expect(checker!.argv).toEqual(['-S', '-c', CHECKER_WRAPPER]);
    expect(checker!.files.map((f) => f.path)).toEqual(['check.py']);
    expect(checker!.writable).toBe(false);
    expect(checker!.readOnlyDirs).toBeUndefined();
    const judge = checker!.readOnlyFiles![0]!;
    expect(judge.sandboxPath).toBe('/judge');
    const files = Object.fromEntries(judge.files.map((f) => [f.path, text(f.content)]));
    expect(files.stdout).toBe('hi\n');
    expect(files['files/out.txt']).toBe('made');
    expect(files['submission/main.py']).toBe('print(2)');
    expect(JSON.parse(files['result.json']!)).toMatchObject({ exit_code: 0, signal: null, limit: null });
  });

  it('runs the entry file when there is no driver', async () => {
    const fake = fakeRunner(ran(), ran());
    await runTestCase(context(fake.run), script({ driver: '  \n' }));
    expect(fake.requests[0]!.argv).toEqual(programArgv('main.py'));
  });

  it('is Wrong when the checker exits 1, runtime_error when the program had crashed', async () => {
    let fake = fakeRunner(ran(), ran({ exitCode: 1, stdout: 'expected 5\n' }));
    expect(await runTestCase(context(fake.run), script())).toMatchObject({
      status: 'Wrong',
      reason: 'wrong_answer',
      checkerMessage: 'expected 5',
    });
    fake = fakeRunner(ran({ exitCode: 1 }), ran({ exitCode: 1, stderr: 'no output\n' }));
    expect(await runTestCase(context(fake.run), script())).toMatchObject({
      status: 'Wrong',
      reason: 'runtime_error',
      checkerMessage: 'no output',
    });
  });

  it('lets the checker accept a program that exits non-zero on purpose', async () => {
    const fake = fakeRunner(ran({ exitCode: 2 }), ran());
    expect(await runTestCase(context(fake.run), script())).toMatchObject({ status: 'Correct' });
  });

  it('does not run the checker after a limit', async () => {
    const fake = fakeRunner(ran({ limit: 'memory', exitCode: 1 }));
    expect(await runTestCase(context(fake.run), script())).toMatchObject({ reason: 'memory_limit' });
    expect(fake.requests).toHaveLength(1);
  });

  it('reports a checker crash, odd exit or limit as checker_error', async () => {
    for (const checker of [
      ran({ exitCode: 70, stderr: 'Traceback\nZeroDivisionError: division by zero\n' }),
      ran({ exitCode: 3 }),
      ran({ exitCode: null, signal: 'SIGKILL', limit: 'wall' }),
      ran({ exitCode: 0, limit: 'output' }),
    ]) {
      const fake = fakeRunner(ran(), checker);
      const result = await runTestCase(context(fake.run), script());
      expect(result).toMatchObject({ status: 'Wrong', reason: 'checker_error' });
      expect(result.checkerMessage).toMatch(/^The check script /);
    }
  });
});

describe('judgeFiles', () => {
  it('leaves out files the program was given unchanged, keeps changed and new ones', () => {
    const files = judgeFiles({
      stdin: '',
      expectedStdout: '',
      submission: [],
      given: [
        { filename: 'main.py', content: bytes('code') },
        { filename: 'data.csv', content: bytes('a') },
      ],
      run: ran({
        files: [
          { path: 'main.py', content: bytes('code') },
          { path: 'data.csv', content: bytes('b') },
          { path: 'out/new.txt', content: bytes('n') },
        ],
      }),
    });
    expect(files.map((f) => f.path).filter((p) => p.startsWith('files/'))).toEqual([
      'files/data.csv',
      'files/out/new.txt',
    ]);
  });

  it('drops collected paths that could leave the folder', () => {
    for (const bad of ['../x', '/etc/passwd', 'a/../../b', 'a//b', './a', 'a\\b', 'a\nb', '']) {
      expect(safeRelativePath(bad)).toBeNull();
    }
    expect(safeRelativePath('dir/file.txt')).toBe('dir/file.txt');
  });
});

// The wrapper itself, run by the host's Python on checkers we wrote.
describe('the checker wrapper', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kadai-checker-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const check = (source: string) => {
    writeFileSync(path.join(dir, 'check.py'), source);
    const r = spawnSync('/usr/bin/python3', ['-I', '-S', '-c', CHECKER_WRAPPER], {
      cwd: dir,
      encoding: 'utf8',
      env: {},
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('exits 0 when the checker ends normally or calls sys.exit(0)', () => {
    expect(check('x = 1\n').code).toBe(0);
    expect(check('import sys\nprint("ok")\nsys.exit(0)\n')).toMatchObject({ code: 0, stdout: 'ok\n' });
  });

  it('exits 1 with the message for a failed assert or sys.exit(1)', () => {
    expect(check('assert 1 == 2, "expected 2"\n')).toMatchObject({ code: 1, stdout: 'expected 2\n' });
    expect(check('assert False\n')).toMatchObject({ code: 1, stdout: 'Assertion failed.\n' });
    expect(check('import sys\nsys.exit(1)\n').code).toBe(1);
    expect(check('import sys\nsys.exit("too slow")\n')).toMatchObject({ code: 1, stderr: 'too slow\n' });
  });

  it('exits 70 with the traceback when the checker itself breaks', () => {
    const r = check('def f():\n    return 1 / 0\nf()\n');
    expect(r.code).toBe(70);
    expect(r.stderr).toMatch(/ZeroDivisionError/);
  });

  it('runs the checker as __main__', () => {
    expect(check('import sys\nsys.exit(0 if __name__ == "__main__" else 1)\n').code).toBe(0);
  });
});

// The real sandbox (root, bubblewrap, python3), as the grader runs it: limits, measurement, drivers.
describe.concurrent('in the sandbox', { timeout: 20_000 }, () => {
  const real = (main: string): RunContext => ({
    ...context(runSandboxed),
    submission: [{ filename: 'main.py', content: bytes(main) }],
  });
  const burn = (ms: number) =>
    `import time\nend = time.process_time() + ${ms / 1000}\nwhile time.process_time() < end:\n    pass\nprint(2)\n`;

  it('holds an io test to its millisecond CPU limit, below the rounded-up second', async () => {
    const [slow, quick] = await Promise.all([
      runTestCase(real(burn(400)), test({ timeLimitMs: 200 })),
      runTestCase(real(burn(20)), test({ timeLimitMs: 200 })),
    ]);
    expect(slow).toMatchObject({ status: 'Wrong', reason: 'time_limit', points: 0 });
    expect(quick).toMatchObject({ status: 'Correct', reason: null, points: 3 });
  });

  it('reports the memory of an io test', async () => {
    const result = await runTestCase(
      real(
        'data = bytearray(64 * 1024 * 1024)\nfor i in range(0, len(data), 4096):\n    data[i] = 1\nprint(2)\n',
      ),
      test(),
    );
    expect(result).toMatchObject({ status: 'Correct' });
    expect(result.memoryKb).toBeGreaterThan(64 * 1024);
    expect(result.timeMs).toBeGreaterThan(0);
  });

  it('holds a script test to the same millisecond limit', async () => {
    const result = await runTestCase(
      real(burn(400)),
      test({ kind: 'script', checkScript: 'pass\n', timeLimitMs: 200 }),
    );
    expect(result).toMatchObject({ status: 'Wrong', reason: 'time_limit' });
  });

  it('gives the student’s code no driver file to read, and no expected output or check script', async () => {
    // Python folds the split constants back together in main's .pyc: __pycache__ is left out.
    const spy =
      'import glob, os\nfound = sorted(glob.glob("/job/**", recursive=True) + glob.glob("/tmp/**", recursive=True))\n' +
      'found = [f for f in found if "__pycache__" not in f]\nprint(" ".join(found))\n' +
      'print(any(s in open(f, errors="replace").read() for f in found if os.path.isfile(f) for s in ("EXPECTED-" + "SECRET", "CHECK-" + "SECRET", "DRIVER_" + "SECRET")))\n';
    const result = await runTestCase(
      real(spy),
      test({
        kind: 'script',
        driver: 'DRIVER_SECRET = 1\nimport main\n',
        expectedStdout: 'EXPECTED-SECRET',
        checkScript: '# CHECK-SECRET\nprint(open("/judge/stdout").read().strip())\n',
      }),
    );
    expect(result).toMatchObject({ status: 'Correct', stderr: '' });
    expect(result.checkerMessage).toBe('/job/ /job/data.csv /job/main.py /tmp/\nFalse');
  });
});

// The bootstrap, run by the host's Python exactly as the sandbox runs it (python3 -I -c …).
describe('the program bootstrap', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kadai-bootstrap-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (files: Record<string, string>, stdin = '') => {
    for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
    const r = spawnSync('/usr/bin/python3', ['-I', ...programArgv('main.py')], {
      cwd: dir,
      encoding: 'utf8',
      env: {},
      input: stdin,
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('lets the program import its sibling files, as a plain python3 main.py does', () => {
    expect(
      run({ 'helper.py': 'def one():\n    return 1\n', 'main.py': 'import helper\nprint(helper.one())\n' }),
    ).toMatchObject({ code: 0, stdout: '1\n' });
  });

  it('runs the file as __main__ with its own argv, file name and stdin', () => {
    const r = run(
      {
        'main.py':
          'import sys\nimport os\nprint(__name__, sys.argv, os.path.abspath(__file__) == os.path.join(os.getcwd(), "main.py"), input())\n',
      },
      'typed\n',
    );
    expect(r.stdout).toBe("__main__ ['main.py'] True typed\n");
  });

  it('shows a traceback without its own frames, and exits 1', () => {
    const r = run({ 'main.py': 'def f():\n    raise ValueError("boom")\nf()\n' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^Traceback \(most recent call last\):\n {2}File "main\.py", line 3, in <module>/,
    );
    expect(r.stderr).not.toMatch(/runpy|<string>/);
    expect(r.stderr).toMatch(/ValueError: boom\n$/);
  });

  it('has the installed packages and exit() but runs no .pth file', () => {
    const r = run({
      'main.py':
        'import sys\nprint("/usr/lib/python3/dist-packages" in sys.path, "site" in sys.modules, "certifi" in sys.modules)\nexit(4)\n',
    });
    expect(r).toMatchObject({ code: 4, stdout: 'True True False\n' });
  });

  it('leaves nothing of itself in the program’s globals, and pickles __main__ functions', () => {
    const r = run({
      'main.py':
        'import pickle\ndef f():\n    return 5\nprint(sorted(k for k in globals() if not k.startswith("__")), pickle.loads(pickle.dumps(f))())\n',
    });
    expect(r).toMatchObject({ code: 0, stdout: "['f', 'pickle'] 5\n" });
  });

  it('keeps sys.exit codes', () => {
    expect(run({ 'main.py': 'import sys\nsys.exit(3)\n' }).code).toBe(3);
  });
});
