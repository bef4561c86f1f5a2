/**
 * Paired runs in the real sandbox: the sockets between the main program and the worker, what the
 * supervisor does and measures, and that neither sandbox can reach the other.
 */
import { describe, expect, it } from 'vitest';
import { runPaired, type PairedRequest } from './pair.ts';
import { readFileSync } from 'node:fs';
import { orphanedSandboxProcesses, report } from './testing.ts';

/** CPU of this process's waited-for children and theirs (cutime + cstime), in ms. */
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** Python for the main program: `ask(command)` to the supervisor, `call(line)` to the worker. */
const MAIN = String.raw`
import os, select, socket, time
data = socket.socket(fileno=5); data.setblocking(True)
ctl = socket.socket(fileno=6); ctl.setblocking(True)
lines, replies = ctl.makefile('rb'), data.makefile('rb')
events = []
def ask(command, kind):
    if command:
        ctl.sendall(command.encode() + b'\n')
    while True:
        line = lines.readline().decode().split()
        if not line or line[0] == kind:
            return line
        events.append(line)
import json
def send(code):
    data.sendall(json.dumps(code).encode() + b'\n')
def call(code):
    send(code)
    return replies.readline().decode().strip()
SPIN = 'import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass\n'
ctl.sendall(b'start\n')
ask('spawn', 'spawned')
`;

/** Python for the worker: answers lines on descriptor 3. */
const WORKER = String.raw`
import os, sys
channel = os.fdopen(3, 'r+b', buffering=0)
def answer(text):
    os.write(3, (str(text) + '\n').encode())
import json
for line in iter(channel.readline, b''):
    exec(json.loads(line))
`;

/**
 * `forked`: the worker is `-S -c CODE`, which the supervisor forks from itself (the grader's way);
 * otherwise it is started afresh with posix_spawn.
 */
function pair(
  main: string,
  worker = WORKER,
  extra: Partial<PairedRequest['main']> = {},
  forked = true,
): PairedRequest {
  return {
    main: {
      files: [{ path: 'secret.txt', content: 'main-only' }],
      argv: ['-c', MAIN + main],
      limits: { wallMs: 20_000 },
      ...extra,
    },
    worker: {
      files: [{ path: 'main.py', content: 'x = 1\n' }],
      argv: forked ? ['-S', '-c', worker] : ['-c', worker],
      limits: { memoryBytes: 200 * 1024 * 1024, processes: 20 },
    },
  };
}

describe.concurrent('paired runs', { timeout: 60_000 }, () => {
  it('joins the main program to the worker and to its supervisor, which starts, measures and kills it', async () => {
    const result = await runPaired(
      pair(
        `
print('echo=' + call('answer(open("main.py").read().strip())'))
print('pid=' + call('answer(os.getpid())'))
call(SPIN + 'answer(1)')
usage = ask('usage', 'usage')
print('cpu_ms=%d' % (int(usage[2]) // 1000000))
print('killed=' + ' '.join(ask('kill', 'killed')[1:3]))
print('spawned=' + ask('spawn', 'spawned')[1])
print('pid2=' + call('answer(os.getpid())'))
send('os._exit(4)')
exit_line = ask(None, 'exit')
print('exit=%s %d' % (exit_line[1], os.waitstatus_to_exitcode(int(exit_line[2]))))
print('after=' + ' '.join(ask('usage', 'usage')[4:]))
`,
        WORKER,
        {},
        false,
      ),
    );
    const said = report(result.stdout);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(said).toMatchObject({
      echo: 'x = 1',
      pid: '2',
      killed: '1 9',
      spawned: '2',
      exit: '2 4',
      after: '0',
    });
    expect(Number(said.cpu_ms)).toBeGreaterThanOrEqual(300);
    expect(Number(said.cpu_ms)).toBeLessThan(1000);
    // Every incarnation's CPU, and the peak memory, reported once the supervisor has ended.
    expect(result.worker.cpuMs).toBeGreaterThanOrEqual(300);
    expect(result.worker.memoryKb).toBeGreaterThan(1000);
  });

  it('keeps the two sandboxes apart: no shared file, process or descriptor', async () => {
    const result = await runPaired(
      pair(`
print('files=' + call('answer(sorted(os.listdir(".")))'))
print('secret=' + call('answer(os.path.exists("/job/secret.txt"))'))
print('processes=' + call('answer(sorted(int(p) for p in os.listdir("/proc") if p.isdigit()))'))
print('fds=' + call('answer(sorted(int(f) for f in os.listdir("/proc/self/fd")))'))
print('mem=' + call('''
try:
    open("/proc/1/mem", "rb")
    answer("open")
except OSError as e:
    answer(e.errno)
'''))
print('limits=' + call('import resource\\nanswer(resource.getrlimit(resource.RLIMIT_AS)[0] >> 20, )'))
print('nproc=' + call('import resource\\nanswer(resource.getrlimit(resource.RLIMIT_NPROC)[0])'))
print('main=' + call('import __main__\\nanswer(sorted(n for n in vars(__main__) if not n.startswith("__")))'))
`),
    );
    const said = report(result.stdout);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(said.files).toBe("['main.py']");
    expect(said.secret).toBe('False');
    // The supervisor (1) and the worker (2): nothing of the main program's sandbox.
    expect(said.processes).toBe('[1, 2]');
    // stdin, stdout, stderr, the data socket and the listing's own: no control socket, no report pipe.
    expect(said.fds).toBe('[0, 1, 2, 3, 4]');
    expect(said.mem).toBe('13');
    // Forked from the supervisor, with the limits prlimit would have set and a __main__ of its own.
    expect(said.limits).toBe('200');
    expect(said.nproc).toBe('20');
    expect(said.main).toBe("['answer', 'channel', 'json', 'line', 'os', 'resource', 'sys']");
  });

  it('counts the CPU of a worker that hides from /proc, and of the processes it starts', async () => {
    const result = await runPaired(
      pair(String.raw`
call('import ctypes, subprocess, sys\nctypes.CDLL(None).prctl(4, 0, 0, 0, 0)\nanswer(1)')
call('p = subprocess.Popen([sys.executable, "-c", SPIN])\nanswer(1)'.replace('SPIN', repr(SPIN)))
call(SPIN + 'answer(1)')
time.sleep(0.6)
print('cpu_ms=%d' % (int(ask('usage', 'usage')[2]) // 1000000))
`),
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(Number(report(result.stdout).cpu_ms)).toBeGreaterThanOrEqual(600);
  });

  it("counts the main program's CPU among this process's children (it runs as PID 1 of its sandbox)", async () => {
    const before = childrenCpuMs();
    const result = await runPaired(
      pair(`end = time.process_time() + 0.4\nwhile time.process_time() < end:\n    pass\n`),
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(childrenCpuMs() - before).toBeGreaterThanOrEqual(400);
  });

  it('kills a worker that floods its output; the main program sees its sockets close', async () => {
    const result = await runPaired(
      pair(`
send('while True: os.write(1, b"x" * 65536)')
print('events=' + ' '.join(ask(None, 'nothing')) + str(len(events)))
`),
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.worker.killedFor).toBe('output');
    expect(report(result.stdout).events).toMatch(/^\d+$/);
  });

  it('kills both sandboxes when aborted and leaves no process behind', async () => {
    const controller = new AbortController();
    const running = runPaired({
      ...pair(`send('while True: pass')\ntime.sleep(60)\n`, WORKER, {
        signal: controller.signal,
      }),
    });
    setTimeout(() => controller.abort(new Error('stop')), 1000);
    await expect(running).rejects.toThrow('stop');
    expect(await orphanedSandboxProcesses()).toEqual([]);
  });
});
