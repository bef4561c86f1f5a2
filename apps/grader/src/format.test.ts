import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  SYNTAX_CHECK_SOURCE,
  checkFiles,
  extensionOf,
  pythonFiles,
  syntaxCheckRequest,
  syntaxProblem,
  type AssignmentFormat,
  type NamedFile,
} from './format.ts';
import type { SandboxResult } from './types.ts';

const text = (s: string) => new TextEncoder().encode(s);
const file = (filename: string, content = 'print(1)\n'): NamedFile => ({ filename, content: text(content) });

const format: AssignmentFormat = {
  entryFile: 'main.py',
  requiredFiles: ['util.py'],
  allowedExtensions: ['.py', '.txt'],
  maxFiles: 3,
  maxFileBytes: 100,
};

describe('checkFiles', () => {
  it('accepts the entry file, the required files and allowed extras', () => {
    expect(checkFiles(format, [file('main.py'), file('util.py'), file('notes.TXT')])).toBeNull();
  });

  it('names the missing entry file', () => {
    expect(checkFiles(format, [file('util.py'), file('other.py')])).toBe(
      'main.py is missing: it is the program the tests run.',
    );
  });

  it('names the missing required files', () => {
    expect(checkFiles(format, [file('main.py')])).toBe('Required file missing: util.py.');
    const two = { ...format, requiredFiles: ['a.py', 'b.py'] };
    expect(checkFiles(two, [file('main.py')])).toBe('Required files missing: a.py, b.py.');
  });

  it('refuses an extension that is not allowed, and names without one', () => {
    expect(checkFiles(format, [file('main.py'), file('util.py'), file('x.exe')])).toMatch(
      /^x\.exe: files ending in \.exe are not accepted \(allowed: \.py, \.txt\)\.$/,
    );
    expect(checkFiles(format, [file('main.py'), file('util.py'), file('Makefile')])).toMatch(
      /files without an extension are not accepted/,
    );
  });

  it('accepts files the editor named whatever their extension', () => {
    const data = { ...format, requiredFiles: ['data.csv'] };
    expect(checkFiles(data, [file('main.py'), file('data.csv')])).toBeNull();
  });

  it('refuses too many files, too large a file, and an empty submission', () => {
    const four = [file('main.py'), file('util.py'), file('a.py'), file('b.py')];
    expect(checkFiles(format, four)).toBe('4 files were submitted; at most 3 are allowed.');
    expect(checkFiles(format, [file('main.py', 'x'.repeat(101)), file('util.py')])).toBe(
      'main.py is 101 bytes; at most 100 are allowed.',
    );
    expect(checkFiles(format, [])).toMatch(/no files/);
  });

  it('refuses path tricks, duplicates and reserved or taken names', () => {
    for (const name of ['../main.py', 'a/b.py', '.hidden.py', 'a..py', '', 'x'.repeat(101)]) {
      expect(checkFiles(format, [file('main.py'), file('util.py'), file(name)])).toMatch(
        /is not a valid file name/,
      );
    }
    expect(checkFiles(format, [file('main.py'), file('main.py')])).toBe('main.py was submitted twice.');
    expect(checkFiles(format, [file('main.py'), file('_driver.py')])).toMatch(/reserved/);
    expect(checkFiles(format, [file('main.py'), file('util.py')], ['util.py'])).toMatch(
      /name of a file provided with the assignment/,
    );
  });
});

describe('helpers', () => {
  it('finds extensions in lower case, none for dot-less names', () => {
    expect(extensionOf('A.PY')).toBe('.py');
    expect(extensionOf('archive.tar.gz')).toBe('.gz');
    expect(extensionOf('README')).toBe('');
  });

  it('compiles only Python files', () => {
    expect(pythonFiles([file('main.py'), file('data.txt'), file('b.PY')])).toEqual(['main.py', 'b.PY']);
    const request = syntaxCheckRequest([file('main.py'), file('data.txt')]);
    expect(request.argv!.slice(3)).toEqual(['main.py']);
    expect(request.writable).toBe(false);
  });
});

const result = (stdout: string, overrides: Partial<SandboxResult> = {}): SandboxResult => ({
  exitCode: 0,
  signal: null,
  timeMs: 10,
  cpuMs: 10,
  memoryKb: 1000,
  stdout,
  stderr: '',
  stdoutTruncated: false,
  stderrTruncated: false,
  limit: null,
  files: [],
  ...overrides,
});

describe('syntaxProblem', () => {
  it('reads the verdict line', () => {
    expect(syntaxProblem(result('{"ok": true}\n'))).toBeNull();
    expect(
      syntaxProblem(result('{"ok": false, "file": "main.py", "line": 3, "message": "invalid syntax"}')),
    ).toBe('Syntax error in main.py, line 3: invalid syntax');
  });

  it('treats a crash, garbage or a limit as a problem, never as success', () => {
    expect(syntaxProblem(result('', { exitCode: -11, signal: 'SIGSEGV' }))).toMatch(/stopped unexpectedly/);
    expect(syntaxProblem(result('[1]'))).toMatch(/stopped unexpectedly/);
    expect(syntaxProblem(result('{"ok": true}', { limit: 'cpu' }))).toMatch(/too long/);
  });
});

// The checking script itself, run by the host's Python on files we wrote (it compiles, never runs them).
describe('the syntax check script', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kadai-syntax-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const check = (files: Record<string, string>) => {
    for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
    const stdout = execFileSync(
      '/usr/bin/python3',
      ['-I', '-S', '-c', SYNTAX_CHECK_SOURCE, ...Object.keys(files)],
      {
        cwd: dir,
        encoding: 'utf8',
        env: {},
      },
    );
    return syntaxProblem(result(stdout));
  };

  it('passes valid code without running it', () => {
    expect(check({ 'ok.py': 'import os\nos._exit(3)\nprint("never")\n' })).toBeNull();
  });

  it('reports the file and line of a syntax error', () => {
    expect(check({ 'good.py': 'x = 1\n', 'bad.py': 'x = 1\n\ndef f(:\n  pass\n' })).toMatch(
      /^Syntax error in bad\.py, line 3: /,
    );
  });

  it('catches indentation errors and compile-time errors ast.parse would miss', () => {
    expect(check({ 'indent.py': 'if True:\nprint(1)\n' })).toMatch(/indent\.py, line 2/);
    expect(check({ 'ret.py': 'x = 1\nreturn x\n' })).toMatch(/ret\.py, line 2: 'return' outside function/);
  });

  it('reports null bytes and undecodable files', () => {
    expect(check({ 'nul.py': 'x = 1\0\n' })).toMatch(/nul\.py/);
    expect(check({ 'latin.py': 'x = "\xff"\n' })).toBeNull();
    writeFileSync(path.join(dir, 'bytes.py'), Buffer.from([0x78, 0x3d, 0x22, 0xff, 0x22, 0x0a]));
    const stdout = execFileSync('/usr/bin/python3', ['-I', '-S', '-c', SYNTAX_CHECK_SOURCE, 'bytes.py'], {
      cwd: dir,
      encoding: 'utf8',
      env: {},
    });
    expect(syntaxProblem(result(stdout))).toMatch(/^Syntax error in bytes\.py, line 1/);
  });
});
