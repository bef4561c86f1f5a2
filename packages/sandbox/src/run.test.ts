/** What a program gets and what comes back: stdin, exit codes, text, writable runs, mounts, abort, probe. */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from './probe.ts';
import { sandboxProcesses } from './testing.ts';
import { runSandboxed } from './run.ts';
import { SandboxRequestError, SandboxUnavailableError, type SandboxRequest } from './types.ts';

// Job dirs of this file go to a base of their own, so the test can see that every one is removed.
let jobBase = '';
beforeAll(async () => {
  jobBase = await mkdtemp(path.join(os.tmpdir(), 'kadai-sandbox-test-'));
  await chmod(jobBase, 0o711); // bwrap binds as uid 65534, which must be able to pass through
});
afterAll(async () => {
  // The shared kadai-sandbox dir stays; every run's dir inside it is gone.
  expect(await readdir(jobBase)).toEqual(['kadai-sandbox']);
  expect(await readdir(path.join(jobBase, 'kadai-sandbox'))).toEqual([]);
  await rm(jobBase, { recursive: true, force: true });
});

const run = (request: SandboxRequest) => runSandboxed(request, { jobBase });
const python = (code: string, extra: Partial<SandboxRequest> = {}) =>
  run({ files: [{ path: 'main.py', content: code }], ...extra });
const text = (content: Uint8Array) => Buffer.from(content).toString('utf8');

describe.concurrent('running a program', { timeout: 20_000 }, () => {
  it('delivers stdin and argv, and runs in /job as an unprivileged user', async () => {
    const result = await python(
      'import os, sys\nnumbers = [int(x) for x in sys.stdin.read().split()]\nprint(sum(numbers), sys.argv[1:], os.getcwd(), os.getuid())\n',
      { stdin: '1 2 3\n4\n', argv: ['main.py', 'a', 'b c'] },
    );
    expect(result).toMatchObject({ exitCode: 0, signal: null, limit: null, stderr: '' });
    expect(result.stdout).toBe("10 ['a', 'b c'] /job 65534\n");
    expect(result.cpuMs).toBeGreaterThanOrEqual(0);
    expect(result.memoryKb).toBeGreaterThan(1000);
    expect(result.files).toEqual([]);
  });

  it('reports exit codes and uncaught exceptions', async () => {
    const [three, raised, killed] = await Promise.all([
      python('import sys\nsys.exit(3)\n'),
      python('raise ValueError("nope")\n'),
      python('import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\n'),
    ]);
    expect(three).toMatchObject({ exitCode: 3, signal: null, limit: null });
    expect(raised).toMatchObject({ exitCode: 1, limit: null });
    expect(raised.stderr).toContain('ValueError: nope');
    expect(killed).toMatchObject({ exitCode: null, signal: 'SIGTERM', limit: null });
  });

  it('passes Japanese through stdin, stdout, stderr and file names', async () => {
    const result = await run({
      files: [
        {
          path: 'main.py',
          content:
            'import sys\nname = input()\nprint(f"こんにちは、{name}さん")\nprint(open("データ/名前.txt").read(), file=sys.stderr)\n',
        },
        { path: 'データ/名前.txt', content: '山田' },
      ],
      stdin: '太郎\n',
    });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'こんにちは、太郎さん\n', stderr: '山田\n' });
  });

  it('takes bytes as file contents and stdin', async () => {
    const result = await run({
      files: [
        {
          path: 'main.py',
          content: 'import sys\nprint(open("blob", "rb").read().hex(), sys.stdin.buffer.read().hex())\n',
        },
        { path: 'blob', content: new Uint8Array([0, 255, 10]) },
      ],
      stdin: new Uint8Array([1, 2]),
    });
    expect(result.stdout).toBe('00ff0a 0102\n');
  });

  it('has the standard library (site-packages included) and a working multiprocessing lock', async () => {
    const result = await python(
      'import json, sqlite3, decimal, fractions, statistics, multiprocessing, sys\nmultiprocessing.Lock()\nprint(any(p.endswith("dist-packages") for p in sys.path))\n',
    );
    expect(result).toMatchObject({ exitCode: 0, stdout: 'True\n', stderr: '' });
  });
});

describe.concurrent('Debian packages', { timeout: 20_000 }, () => {
  it.runIf(existsSync('/usr/lib/python3/dist-packages/numpy'))(
    'imports numpy under the default limits, and a too-large array is a memory limit',
    async () => {
      const result = await python(
        'import numpy as np\nprint(np.arange(10).sum())\nnp.ones((10000, 10000))\n',
      );
      expect(result).toMatchObject({ stdout: '45\n', exitCode: 1, limit: 'memory' });
      expect(result.stderr).toContain('Unable to allocate');
    },
  );
});

describe.concurrent('writable runs', { timeout: 20_000 }, () => {
  it('returns the files that match, from a writable copy of the job', async () => {
    const result = await run({
      files: [
        {
          path: 'main.py',
          content:
            'import os\nos.mkdir("out")\nfor n in ("a", "b"):\n    open(f"out/{n}.txt", "w").write(n * 3)\nopen("結果.txt", "w").write("済")\nopen("input.txt", "a").write("+")\nopen("skip.log", "w").write("no")\n',
        },
        { path: 'input.txt', content: 'in' },
      ],
      writable: true,
      collect: ['*.txt', 'out/*'],
    });
    expect(result.exitCode).toBe(0);
    expect(result.files.map((f) => [f.path, text(f.content)])).toEqual([
      ['input.txt', 'in+'],
      ['out/a.txt', 'aaa'],
      ['out/b.txt', 'bbb'],
      ['結果.txt', '済'],
    ]);
    expect(result.cpuMs).toBeGreaterThanOrEqual(0);
    expect(result.memoryKb).toBeGreaterThan(1000);
  });

  it('caps collected files at 20 and 1 MiB, skipping the rest', async () => {
    const result = await python(
      'for i in range(25):\n    open(f"f{i:02}.txt", "w").write("x")\nopen("big.bin", "wb").write(b"y" * (1024 * 1024 + 1))\n',
      { writable: true, collect: ['*.txt', 'big.bin'], limits: { fileSizeBytes: 2 * 1024 * 1024 } },
    );
    expect(result.files).toHaveLength(20);
    expect(result.filesSkipped).toEqual(expect.arrayContaining(['big.bin', 'f24.txt']));
  });

  it('gives a writable run without collect a writable copy of its files, and nothing to collect', async () => {
    const result = await run({
      files: [
        {
          path: 'main.py',
          content:
            'import os\nopen("データ/a/x.txt", "a").write("+")\nprint(open("データ/a/x.txt").read(), open("bin", "rb").read().hex(), oct(os.stat("main.py").st_mode), os.getppid())\n',
        },
        { path: 'データ/a/x.txt', content: 'x' },
        { path: 'bin', content: new Uint8Array([0, 255]) },
      ],
      writable: true,
    });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'x+ 00ff 0o100644 1\n', files: [] });
    const tooMany = Array.from({ length: 257 }, (_, i) => ({ path: `f${i}`, content: '' }));
    await expect(run({ files: tooMany, writable: true })).rejects.toThrow(SandboxRequestError);
  });

  it('bounds a writable /job by tmpBytes', async () => {
    const result = await python(
      'import errno\ntry:\n    for i in range(100):\n        open(f"part{i}", "wb").write(b"x" * 512 * 1024)\nexcept OSError as e:\n    print(errno.errorcode[e.errno], i)\n',
      { writable: true, limits: { tmpBytes: 2 * 1024 * 1024 } },
    );
    expect(result.stdout).toMatch(/^ENOSPC [3-5]\n$/);
  });

  it('hands a result channel on fd 4 to the program, and nothing else on it', async () => {
    const code =
      'import os\nos.write(4, b"result 1\\n")\nprint("fake result on stdout")\nos.write(4, b"result 2\\n")\n';
    const result = await python(code, {
      writable: true,
      resultChannel: true,
      files: [
        { path: 'main.py', content: code },
        { path: 'data.txt', content: 'still fd 5+' },
      ],
    });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'fake result on stdout\n', channelTruncated: false });
    expect(text(result.channel!)).toBe('result 1\nresult 2\n');
    // Without the option there is no descriptor 4 and no channel.
    const without = await python('import os\nos.write(4, b"x")\n');
    expect(without.exitCode).toBe(1);
    expect(without.stderr).toMatch(/Bad file descriptor/);
    expect(without.channel).toBeUndefined();
  });

  it('refuses collect without writable and bad collect patterns', async () => {
    await expect(python('', { collect: ['*.txt'] })).rejects.toThrow(SandboxRequestError);
    await expect(python('', { writable: true, collect: ['../*'] })).rejects.toThrow(SandboxRequestError);
  });
});

describe.concurrent('mounts, names and failures', { timeout: 20_000 }, () => {
  it('mounts a checker input read-only at /judge, from a host dir or from contents', async () => {
    const host = await mkdtemp(path.join(os.tmpdir(), 'kadai-judge-test-'));
    try {
      await expect(python('', { readOnlyDirs: [{ hostPath: host, sandboxPath: '/judge' }] })).rejects.toThrow(
        /cannot read/,
      ); // mkdtemp makes it 0700
      await chmod(host, 0o755);
      await mkdir(path.join(host, 'files'));
      await writeFile(path.join(host, 'files', 'answer.txt'), '42');
      const result = await run({
        files: [
          {
            path: 'main.py',
            content:
              'import os\nprint(open("/judge/files/answer.txt").read(), open("/data/out/x.txt").read())\ntry:\n    open("/judge/new", "w")\nexcept OSError as e:\n    print(e.errno)\n',
          },
        ],
        readOnlyDirs: [{ hostPath: host, sandboxPath: '/judge' }],
        readOnlyFiles: [{ sandboxPath: '/data/out', files: [{ path: 'x.txt', content: 'student' }] }],
      });
      expect(result).toMatchObject({ exitCode: 0, stdout: '42 student\n30\n' });
    } finally {
      await rm(host, { recursive: true, force: true });
    }
  });

  it('rejects mounts outside /data and /judge, nested mounts and missing host dirs', async () => {
    const mount = (sandboxPath: string, hostPath = os.tmpdir()) =>
      python('', { readOnlyDirs: [{ hostPath, sandboxPath }] });
    await expect(mount('/usr/lib')).rejects.toThrow(SandboxRequestError);
    await expect(mount('/judge/../etc')).rejects.toThrow(SandboxRequestError);
    await expect(mount('/judge', '/nonexistent-kadai')).rejects.toThrow(SandboxRequestError);
    await expect(
      python('', {
        readOnlyFiles: [
          { sandboxPath: '/data', files: [] },
          { sandboxPath: '/data/x', files: [] },
        ],
      }),
    ).rejects.toThrow(/nest/);
  });

  it('kills the tree and rejects when aborted', async () => {
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(new Error('grading cancelled')), 300);
    await expect(python('import time\ntime.sleep(30)\n', { signal: controller.signal })).rejects.toThrow(
      'grading cancelled',
    );
    expect(performance.now() - started).toBeLessThan(3000);
    await expect(python('print(1)', { signal: AbortSignal.abort(new Error('too late')) })).rejects.toThrow(
      'too late',
    );
  });

  it('sweeps away job dirs that dead graders left behind, and only those', async () => {
    const base = await mkdtemp(path.join(os.tmpdir(), 'kadai-sweep-'));
    try {
      await chmod(base, 0o711);
      const root = path.join(base, 'kadai-sandbox');
      for (const name of ['job-99999999-1', `job-${process.pid}-7`, 'job-1-1', 'job-1-1-ro-0']) {
        await mkdir(path.join(root, name), { recursive: true });
        await writeFile(path.join(root, name, 'main.py'), '');
      }
      const result = await runSandboxed(
        { files: [{ path: 'main.py', content: 'print(1)' }] },
        { jobBase: base },
      );
      expect(result.stdout).toBe('1\n');
      expect((await readdir(root)).sort()).toEqual(['job-1-1', 'job-1-1-ro-0']); // pid 1 is alive
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  it('throws SandboxUnavailableError when the job base is closed to the sandbox user', async () => {
    const closed = await mkdtemp(path.join(os.tmpdir(), 'kadai-closed-'));
    try {
      await expect(
        runSandboxed({ files: [{ path: 'main.py', content: 'print(1)' }] }, { jobBase: closed }),
      ).rejects.toThrow(/cannot traverse/);
    } finally {
      await rm(closed, { recursive: true, force: true });
    }
  });

  it('throws SandboxUnavailableError, never running unsandboxed, when a binary is missing', async () => {
    for (const options of [
      { bwrapPath: '/nonexistent/bwrap' },
      { setprivPath: '/nonexistent/setpriv' },
      { prlimitPath: '/usr/nonexistent/prlimit' },
      { pythonPath: '/usr/bin/nonexistent-python3' },
    ]) {
      await expect(
        runSandboxed({ files: [{ path: 'main.py', content: 'print(1)' }] }, { ...options, jobBase }),
      ).rejects.toThrow(SandboxUnavailableError);
    }
  });

  it('probes with a real sandboxed run, and says what is missing', async () => {
    const ok = await probeSandbox({ maxAgeMs: 0 });
    expect(ok.ok, ok.detail).toBe(true);
    expect(ok.detail).toMatch(/bubblewrap .*sandboxed run ok/);
    expect(await probeSandbox()).toBe(await probeSandbox()); // cached
    const missing = await probeSandbox({ bwrapPath: '/nonexistent/bwrap', maxAgeMs: 0 });
    expect(missing).toMatchObject({ ok: false, detail: expect.stringContaining('bubblewrap') });
  });
});

// The host's own event loop can be busy when a run ends (a grader parsing a large report, say): the
// run's end and a timer then come due together, and the timer must not turn a finished run into a limit.
describe('a run that ends while the host is busy', { timeout: 30_000 }, () => {
  it('keeps its result', async () => {
    const marker = `busy-host-${process.pid}`;
    const pending = python('import time\ntime.sleep(0.2)\n', {
      argv: ['main.py', marker],
      limits: { wallMs: 400 },
    });
    while ((await sandboxProcesses(marker)).length === 0) await new Promise((r) => setTimeout(r, 10));
    const until = performance.now() + 1500;
    while (performance.now() < until); // the event loop held past the end of the run and its wall limit
    expect(await pending).toMatchObject({ limit: null, exitCode: 0 });
  });
});
