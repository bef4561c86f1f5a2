/**
 * Kernels: outputs in nbformat's shape, state across executions, limits and how each is reported, the
 * confinement, the protocol under attack from the code, and the tree gone at the end. Needs root,
 * bubblewrap and /usr/bin/python3 like the other sandbox tests; the pandas and matplotlib cases skip
 * when Debian's packages are missing.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FrameReader, parseReply } from './kernel-protocol.ts';
import type { Kernel, KernelExit, KernelOutput, KernelResult } from './kernel-types.ts';
import { startKernel } from './kernel.ts';
import { isProcessAlive, listProcessTree } from './proc.ts';
import { orphanedSandboxProcesses, report } from './testing.ts';
import { SandboxRequestError, SandboxUnavailableError } from './types.ts';

const canImport = (module: string): Promise<boolean> =>
  promisify(execFile)('/usr/bin/python3', ['-c', `import ${module}`], { env: {} }).then(
    () => true,
    () => false,
  );
const [hasPandas, hasMatplotlib] = await Promise.all([canImport('pandas'), canImport('matplotlib')]);

const streams = (result: KernelResult, name: 'stdout' | 'stderr'): string =>
  result.outputs.map((o) => (o.output_type === 'stream' && o.name === name ? o.text : '')).join('');
const only = <T extends KernelOutput['output_type']>(result: KernelResult, type: T) =>
  result.outputs.filter((o): o is Extract<KernelOutput, { output_type: T }> => o.output_type === type);

afterAll(async () => {
  expect(await orphanedSandboxProcesses()).toEqual([]);
});

describe('protocol frames', () => {
  it('splits lines across chunks and refuses one past the cap', () => {
    const reader = new FrameReader(10);
    expect(reader.push(Buffer.from('{"a":1}\n{"b"'))).toEqual(['{"a":1}']);
    expect(reader.push(Buffer.from(':2}\n'))).toEqual(['{"b":2}']);
    expect(reader.push(Buffer.from('x'.repeat(11)))).toBeNull();
  });

  it('accepts only a well-formed reply to the request asked', () => {
    const reply = {
      id: 3,
      count: 1,
      status: 'ok',
      outputs: [],
      truncated: false,
      timedOut: false,
      fatal: null,
    };
    expect(parseReply(reply, 3)).toMatchObject({ id: 3, status: 'ok' });
    expect(parseReply(reply, 4)).toBeNull();
    expect(parseReply({ ...reply, status: 'dead' }, 3)).toBeNull();
    for (const output of [
      { output_type: 'stream', name: 'stdin', text: '' },
      { output_type: 'display_data', data: { 'text/x-evil': '' } },
      { output_type: 'error', ename: 'E', evalue: '', traceback: [1] },
      { output_type: 'execute_result', execution_count: -1, data: {} },
    ]) {
      expect(parseReply({ ...reply, outputs: [output] }, 3)).toBeNull();
    }
  });

  it('gives every text of a reply without NUL or half characters (U+FFFD in their place)', () => {
    const odd = 'a\0b\uD800';
    const outputs = [
      { output_type: 'stream', name: 'stdout', text: odd },
      { output_type: 'display_data', data: { 'text/plain': odd, 'text/html': odd, 'image/png': 'AAAA' } },
      { output_type: 'error', ename: odd, evalue: odd, traceback: [odd] },
    ];
    const parsed = parseReply(
      { id: 1, count: 1, status: 'ok', outputs, truncated: false, timedOut: false, fatal: null },
      1,
    );
    const clean = 'a\uFFFDb\uFFFD';
    expect(parsed!.outputs).toEqual([
      { output_type: 'stream', name: 'stdout', text: clean },
      { output_type: 'display_data', data: { 'text/plain': clean, 'text/html': clean, 'image/png': 'AAAA' } },
      { output_type: 'error', ename: clean, evalue: clean, traceback: [clean] },
    ]);
  });
});

describe('one kernel, many executions', { timeout: 20_000 }, () => {
  let kernel: Kernel;
  beforeAll(async () => {
    kernel = await startKernel({ limits: { outputBytes: 64 * 1024 } });
  });
  afterAll(() => kernel.shutdown());

  it('keeps state and shows the last expression like IPython', async () => {
    const first = await kernel.execute('x = 21\ndef double(n):\n    return n * 2\n');
    expect(first).toMatchObject({ status: 'ok', outputs: [], limit: null });
    const second = await kernel.execute('double(x)');
    expect(second.executionCount).toBe(first.executionCount! + 1);
    expect(second.outputs).toEqual([
      { output_type: 'execute_result', execution_count: second.executionCount, data: { 'text/plain': '42' } },
    ]);
    for (const silent of ['None', 'x = 1', 'double(x);', 'print', '']) {
      expect((await kernel.execute(silent)).outputs.length, silent).toBe(silent === 'print' ? 1 : 0);
    }
  });

  it('merges consecutive writes of one stream, and captures child processes', async () => {
    const result = await kernel.execute(
      'import sys, subprocess\nprint("a")\nprint("b", end="")\nsys.stderr.write("e\\n")\nprint("c")\nsubprocess.run(["echo", "child"])\n',
    );
    // The value of subprocess.run comes after the child's output, however late the reading thread runs
    // (under load it once ran after the value was shown: the output came last).
    expect(result.outputs.slice(0, 3), JSON.stringify(result)).toEqual([
      { output_type: 'stream', name: 'stdout', text: 'a\nb' },
      { output_type: 'stream', name: 'stderr', text: 'e\n' },
      { output_type: 'stream', name: 'stdout', text: 'c\nchild\n' },
    ]);
  });

  it('shows NUL, bytes that are not UTF-8 and half characters as U+FFFD', async () => {
    const result = await kernel.execute(
      "import sys\nprint('a\\0b')\nsys.stdout.buffer.write(b'\\xff\\x00c\\n')\nprint('\\ud800', file=sys.stderr)\n'\\ud800'",
    );
    expect(result.outputs).toEqual([
      { output_type: 'stream', name: 'stdout', text: 'a\uFFFDb\n\uFFFD\uFFFDc\n' },
      { output_type: 'stream', name: 'stderr', text: '\uFFFD\n' },
      {
        output_type: 'execute_result',
        execution_count: result.executionCount,
        data: { 'text/plain': "'\\ud800'" },
      },
    ]);
  });

  it("reports an error with the user's frames only", async () => {
    const result = await kernel.execute('def inner():\n    return 1 / 0\n\ninner()\n');
    expect(result.status).toBe('error');
    const [error] = only(result, 'error');
    expect(error).toMatchObject({ ename: 'ZeroDivisionError', evalue: 'division by zero' });
    expect(error!.traceback[0]).toBe('Traceback (most recent call last):');
    expect(error!.traceback.slice(1, -1).map((frame) => frame.split('\n')[0])).toEqual([
      `  File "<cell-${result.executionCount}>", line 4, in <module>`,
      `  File "<cell-${result.executionCount}>", line 2, in inner`,
    ]);
    expect(error!.traceback.at(-1)).toBe('ZeroDivisionError: division by zero');
    const syntax = await kernel.execute('x = (');
    expect(only(syntax, 'error')[0]).toMatchObject({ ename: 'SyntaxError' });
    expect(only(syntax, 'error')[0]!.traceback.join('\n')).not.toMatch(/<string>|Traceback/);
  });

  it('shows display() and rich representations', async () => {
    const result = await kernel.execute(`
class Rich:
    def __repr__(self): return "Rich()"
    def _repr_html_(self): return "<b>rich</b>"
    def _repr_png_(self): return b"\\x89PNG fake"
display(1, Rich())
Rich()`);
    expect(result.outputs).toEqual([
      { output_type: 'display_data', data: { 'text/plain': '1' } },
      {
        output_type: 'display_data',
        data: { 'text/plain': 'Rich()', 'text/html': '<b>rich</b>', 'image/png': 'iVBORyBmYWtl' },
      },
      {
        output_type: 'execute_result',
        execution_count: result.executionCount,
        data: { 'text/plain': 'Rich()', 'text/html': '<b>rich</b>', 'image/png': 'iVBORyBmYWtl' },
      },
    ]);
  });

  it.runIf(hasPandas)('shows a pandas DataFrame as HTML and text', async () => {
    const result = await kernel.execute('import pandas as pd\npd.DataFrame({"a": [1, 2], "b": ["x", "y"]})');
    const [value] = only(result, 'execute_result');
    expect(value!.data['text/plain']).toBe('   a  b\n0  1  x\n1  2  y');
    expect(value!.data['text/html']).toContain('<table border="1" class="dataframe">');
  });

  it.runIf(hasMatplotlib)('shows every open matplotlib figure as a PNG, then closes them', async () => {
    const result = await kernel.execute(
      'import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.figure()\nplt.bar(["a", "b"], [3, 1]);',
    );
    expect(result.status).toBe('ok');
    const figures = only(result, 'display_data');
    expect(figures).toHaveLength(2);
    for (const figure of figures) {
      expect(figure.data['image/png']).toMatch(/^[A-Za-z0-9+/]+=*$/);
      expect([...Buffer.from(figure.data['image/png']!, 'base64').subarray(0, 8)]).toEqual([
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a,
      ]);
    }
    expect((await kernel.execute('plt.get_fignums()')).outputs).toMatchObject([
      { data: { 'text/plain': '[]' } },
    ]);
  });

  it('interrupts code past its time limit and keeps the state', async () => {
    const started = performance.now();
    const stopped = await kernel.execute('kept = "yes"\nimport time\ntime.sleep(20)', { timeoutMs: 300 });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(stopped).toMatchObject({ status: 'error', limit: 'wall' });
    expect(only(stopped, 'error')[0]).toMatchObject({ ename: 'TimeoutError' });
    // Code that catches the interruption ends normally, but the result still says it ran out of time.
    const caught = await kernel.execute(
      'try:\n    time.sleep(20)\nexcept BaseException as e:\n    caught = type(e).__name__\ncaught, kept',
      { timeoutMs: 300 },
    );
    expect(caught).toMatchObject({ status: 'ok', limit: 'wall' });
    expect(only(caught, 'execute_result')[0]!.data['text/plain']).toBe("('TimeoutError', 'yes')");
  });

  it('is confined: uid 65534, no network, no host files, a writable /job', async () => {
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const result = await kernel.execute(`
import errno, os, socket
def attempt(name, action):
    try:
        action()
        print(f"{name}=ok")
    except OSError as e:
        print(f"{name}={errno.errorcode.get(e.errno, type(e).__name__)}")
attempt("loopback", lambda: socket.create_connection(("127.0.0.1", ${port}), timeout=2))
attempt("external", lambda: socket.create_connection(("192.0.2.1", 80), timeout=2))
attempt("passwd", lambda: open("/etc/passwd").read())
attempt("home", lambda: os.listdir("/home"))
attempt("usr", lambda: open("/usr/x", "w"))
attempt("job", lambda: open("/job/notes.txt", "w").write("x"))
print(f"uid={os.getuid()}\\ncwd={os.getcwd()}\\nenv={','.join(sorted(os.environ))}")`);
      expect(report(streams(result, 'stdout'))).toMatchObject({
        loopback: 'ECONNREFUSED',
        external: 'ENETUNREACH',
        passwd: 'ENOENT',
        home: 'ENOENT',
        usr: 'EROFS',
        job: 'ok',
        uid: '65534',
        cwd: '/job',
      });
    } finally {
      server.close();
    }
  });

  it('keeps the protocol out of reach of what the code prints or closes', async () => {
    const fake = `{"id": 999, "count": 1, "status": "ok", "outputs": [], "truncated": false, "timedOut": false, "fatal": null}`;
    const result = await kernel.execute(`
import os, sys
print('${fake}')
os.write(1, b'${fake}\\n')
sys.__stdout__.write("dunder\\n")
sys.stdout.close()
os.close(0); os.close(1); os.close(2)
print("still printing")`);
    expect(result.status).toBe('ok');
    const stdout = streams(result, 'stdout');
    expect(stdout.split(fake)).toHaveLength(3);
    expect(stdout).toContain('still printing');
    expect(stdout).toContain('dunder');
    const after = await kernel.execute('import os\nos.write(1, b"fd one is back\\n")\n6 * 7');
    expect(after.executionCount).toBe(result.executionCount! + 1);
    expect(streams(after, 'stdout')).toBe('fd one is back\n');
    expect(only(after, 'execute_result')[0]!.data['text/plain']).toBe('42');
  });

  it('cuts output past the budget with a visible marker and stays alive', async () => {
    const flood = await kernel.execute('for i in range(10_000):\n    print("x" * 100)\n');
    expect(flood).toMatchObject({ status: 'ok', limit: 'output' });
    const text = streams(flood, 'stdout');
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(64 * 1024 + 100);
    expect(text).toMatch(/\[output truncated\]\n$/);
    const many = await kernel.execute('for i in range(200):\n    display(i)\n');
    expect(many.outputs.length).toBeLessThanOrEqual(50);
    expect(many.outputs.at(-1)).toEqual({
      output_type: 'stream',
      name: 'stderr',
      text: '[output truncated]\n',
    });
    expect((await kernel.execute('1 + 1')).outputs).toMatchObject([{ data: { 'text/plain': '2' } }]);
  });

  it('runs concurrent calls one at a time, in the order they were made', async () => {
    await kernel.execute('order = []');
    const results = await Promise.all(
      [0.2, 0, 0.1, 0].map((pause, i) =>
        kernel.execute(`import time\ntime.sleep(${pause})\norder.append(${i})\nlen(order)`),
      ),
    );
    expect(results.map((r) => only(r, 'execute_result')[0]!.data['text/plain'])).toEqual([
      '1',
      '2',
      '3',
      '4',
    ]);
    const counts = results.map((r) => r.executionCount!);
    expect(counts).toEqual([counts[0], counts[0]! + 1, counts[0]! + 2, counts[0]! + 3]);
  });

  it('interrupts the running execution on request and keeps the state', async () => {
    expect(await kernel.interrupt()).toBe(false); // nothing runs
    await kernel.execute('survivor = "still here"');
    const spinning = kernel.execute('spins = 0\nwhile True:\n    spins += 1', { timeoutMs: 20_000 });
    const next = kernel.execute('survivor');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const asked = performance.now();
    expect(await kernel.interrupt()).toBe(true);
    const stopped = await spinning;
    expect(performance.now() - asked).toBeLessThan(1000);
    expect(stopped).toMatchObject({ status: 'error', limit: null });
    expect(only(stopped, 'error')[0]).toMatchObject({ ename: 'KeyboardInterrupt' });
    // The execution queued behind it runs normally, with the variables of before.
    expect(only(await next, 'execute_result')[0]!.data['text/plain']).toBe("'still here'");
    expect(only(await kernel.execute('spins > 0'), 'execute_result')[0]!.data['text/plain']).toBe('True');
    // Code that swallows the first interrupt hears it again.
    const stubborn = kernel.execute(
      'import time\nfor _ in range(3):\n    try:\n        time.sleep(10)\n    except KeyboardInterrupt:\n        pass\n',
      { timeoutMs: 20_000 },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await kernel.interrupt()).toBe(true);
    expect(await stubborn).toMatchObject({ status: 'ok', limit: null });
    expect(kernel.alive).toBe(true);
  });

  it('measures the Python process from the host', async () => {
    const kb = await kernel.memoryKb();
    expect(kb).toBeGreaterThan(5_000);
    expect(kb).toBeLessThan(500_000);
  });
});

/** A fresh kernel, with every exit it reports. */
async function fresh(limits = {}): Promise<{ kernel: Kernel; exits: KernelExit[] }> {
  const kernel = await startKernel({ limits, graceMs: 500 });
  const exits: KernelExit[] = [];
  kernel.onExit((exit) => exits.push(exit));
  return { kernel, exits };
}

async function expectTreeGone(
  pid: number,
  before: Awaited<ReturnType<typeof listProcessTree>>,
): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const alive = await Promise.all(before.map(isProcessAlive));
    if (!alive.includes(true)) break;
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  expect(await Promise.all(before.map(isProcessAlive))).toEqual(before.map(() => false));
  expect(await listProcessTree(pid)).toEqual([]);
}

describe.concurrent('ending a kernel', { timeout: 20_000 }, () => {
  it('ends the kernel when the code runs out of memory', async () => {
    const { kernel, exits } = await fresh({ memoryBytes: 256 * 1024 * 1024 });
    const tree = await listProcessTree(kernel.pid);
    const result = await kernel.execute(
      'blocks = []\nwhile True:\n    blocks.append(bytearray(8 * 1024 * 1024))',
    );
    expect(result).toMatchObject({ status: 'dead', limit: 'memory' });
    expect(only(result, 'error')[0]).toMatchObject({ ename: 'MemoryError' });
    expect(kernel.alive).toBe(false);
    await expectTreeGone(kernel.pid, tree);
    expect(exits).toMatchObject([{ reason: 'memory' }]);
    expect(await kernel.execute('1')).toMatchObject({ status: 'dead', executionCount: null, limit: null });
    expect(await kernel.memoryKb()).toBeNull();
  });

  it('ends the kernel at its lifetime CPU limit', async () => {
    const { kernel, exits } = await fresh({ cpuSeconds: 1 });
    const result = await kernel.execute('while True:\n    pass', { timeoutMs: 15_000 });
    expect(result).toMatchObject({ status: 'dead', limit: 'cpu' });
    expect(exits).toMatchObject([{ reason: 'cpu', signal: 'SIGXCPU' }]);
  });

  it('kills the tree when an interrupted execution does not answer', async () => {
    const { kernel, exits } = await fresh();
    const result = await kernel.execute(
      'import signal, time\nsignal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])\ntime.sleep(60)',
      { timeoutMs: 300 },
    );
    expect(result).toMatchObject({ status: 'dead', limit: 'wall' });
    expect(result.timeMs).toBeLessThan(3000);
    expect(exits).toMatchObject([{ reason: 'wall' }]);
  });

  it('ends the kernel on a malformed frame and when the process exits', async () => {
    const [forged, exited] = await Promise.all([fresh(), fresh()]);
    const garbage = await forged.kernel.execute(`
import os, stat
# The driver's private descriptors are Node's stdio socket pairs: write to each of them.
for fd in range(3, 10):
    try:
        if stat.S_ISSOCK(os.fstat(fd).st_mode):
            os.write(fd, b"not json\\n")
    except OSError:
        pass
import time
time.sleep(5)`);
    expect(garbage).toMatchObject({ status: 'dead', limit: null });
    expect(forged.exits).toMatchObject([{ reason: 'protocol' }]);
    expect(await exited.kernel.execute('import os\nos._exit(3)')).toMatchObject({
      status: 'dead',
      limit: null,
    });
    expect(exited.exits).toMatchObject([{ reason: 'exited', exitCode: 3 }]);
  });

  it('kills every process of the tree at shutdown, and reports the exit once', async () => {
    const { kernel, exits } = await fresh();
    const result = await kernel.execute(
      'import subprocess\nchild = subprocess.Popen(["sleep", "100"])\nchild.pid',
    );
    expect(result.status).toBe('ok');
    const tree = await listProcessTree(kernel.pid);
    expect(tree.map((p) => p.command)).toEqual(expect.arrayContaining(['bwrap', 'python3', 'sleep']));
    await kernel.shutdown();
    await kernel.shutdown();
    expect(kernel.alive).toBe(false);
    await expectTreeGone(kernel.pid, tree);
    expect(exits).toMatchObject([{ reason: 'shutdown' }]);
    const late: KernelExit[] = [];
    kernel.onExit((exit) => late.push(exit));
    await Promise.resolve();
    expect(late).toMatchObject([{ reason: 'shutdown' }]);
  });

  it('never starts without the sandbox, and refuses bad limits', async () => {
    await expect(startKernel({}, { bwrapPath: '/nonexistent/bwrap' })).rejects.toThrow(
      SandboxUnavailableError,
    );
    await expect(startKernel({ limits: { memoryBytes: -1 } })).rejects.toThrow(SandboxRequestError);
  });
});
