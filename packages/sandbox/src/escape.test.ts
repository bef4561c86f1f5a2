/**
 * The escape catalogue, part 1: network, host files, other jobs, the environment, descriptors and
 * path tricks. Every attack must be contained, and each test asserts how, not merely that nothing
 * crashed. Needs root, bubblewrap and /usr/bin/python3 (`npm test` installs them).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSandboxed } from './run.ts';
import { TRY, python, report } from './testing.ts';
import { SandboxRequestError } from './types.ts';

describe.concurrent('network', { timeout: 20_000 }, () => {
  const server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  let connections = 0;
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('cannot reach a server on the host loopback, only its own empty one', async () => {
    const result = await python(
      `${TRY}
attempt("loopback", lambda: socket.create_connection(("127.0.0.1", ${port}), timeout=2))
attempt("localhost6", lambda: socket.create_connection(("::1", ${port}), timeout=2))
print("interfaces=" + ",".join(name for _, name in socket.if_nameindex()))`,
    );
    expect(report(result.stdout)).toMatchObject({ loopback: 'ECONNREFUSED', interfaces: 'lo' });
    expect(connections).toBe(0);
  });

  it('has no route to any other address (TEST-NET, so a broken sandbox still stays off the internet)', async () => {
    const result = await python(`${TRY}
attempt("external", lambda: socket.create_connection(("192.0.2.1", 80), timeout=2))
attempt("udp", lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("192.0.2.1", 53)))`);
    expect(report(result.stdout)).toEqual({ external: 'ENETUNREACH', udp: 'ENETUNREACH' });
  });

  it('cannot resolve names', async () => {
    const result = await python(`
import socket
try:
    socket.getaddrinfo("example.com", 80)
    print("dns=resolved")
except socket.gaierror as e:
    print("dns=gaierror")`);
    expect(report(result.stdout)).toEqual({ dns: 'gaierror' });
  });
});

describe.concurrent('host files and other jobs', { timeout: 20_000 }, () => {
  it('sees none of /etc, /root or /home, and no host file at all outside /usr', async () => {
    const result = await python(`${TRY}
attempt("shadow", lambda: open("/etc/shadow").read())
attempt("passwd", lambda: open("/etc/passwd").read())
attempt("root", lambda: os.listdir("/root"))
attempt("home", lambda: os.listdir("/home"))
attempt("hosttmp", lambda: print("tmp=" + ",".join(os.listdir("/tmp")) + "|"))
print("top=" + ",".join(sorted(os.listdir("/"))))
print("etc=" + ",".join(sorted(os.listdir("/etc"))))`);
    expect(report(result.stdout)).toEqual({
      shadow: 'ENOENT',
      passwd: 'ENOENT',
      root: 'ENOENT',
      home: 'ENOENT',
      tmp: '|', // the sandbox's own empty tmpfs, not the host's /tmp with its job dirs
      hosttmp: 'ok',
      top: 'bin,dev,etc,job,lib,lib64,proc,tmp,usr',
      etc: 'alternatives,localtime', // Debian's library links and the time zone, nothing else
    });
  });

  it("cannot find another job's files while both run", async () => {
    const marker = `secret-${randomUUID()}.txt`;
    const first = runSandboxed({
      files: [
        { path: 'main.py', content: 'import time\ntime.sleep(4)\n' },
        { path: marker, content: 'the other job' },
      ],
    });
    // Find the first job's dir on the host and hand its path to the second job.
    const root = path.join(os.tmpdir(), 'kadai-sandbox');
    let hostDir: string | undefined;
    for (let i = 0; i < 100 && !hostDir; i++) {
      const dirs = (await readdir(root).catch((): string[] => [])).map((name) => path.join(root, name));
      hostDir = dirs.find((dir) => existsSync(path.join(dir, marker)));
      if (!hostDir) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(hostDir).toBeDefined();
    const second = await python(
      `${TRY}
target = sys.argv[1]
attempt("hostdir", lambda: os.listdir(target))
attempt("hostfile", lambda: open(target + "/${marker}").read())
attempt("hostbase", lambda: os.listdir(os.path.dirname(target)))
found = []
for top in ("/", "/tmp", "/job", "/dev"):
    for root, dirs, files in os.walk(top):
        if root == "/":
            dirs[:] = [d for d in dirs if d not in ("proc", "usr")]
        found += [f for f in files if f.startswith("secret-")]
print("found=" + ",".join(found))
print("pids=" + ",".join(p for p in os.listdir("/proc") if p.isdigit()))`,
      { argv: ['main.py', hostDir!] },
    );
    expect(report(second.stdout)).toEqual({
      hostdir: 'ENOENT',
      hostfile: 'ENOENT',
      hostbase: 'ENOENT',
      found: '',
      pids: '1,2',
    });
    expect((await first).exitCode).toBe(0);
  });

  it("never sees the server's environment", async () => {
    const secret = `s3cret-${randomUUID()}`;
    process.env.KADAI_SANDBOX_TEST_SECRET = secret;
    try {
      const result = await python(`
import os
blobs = [repr(dict(os.environ))]
for pid in [p for p in os.listdir("/proc") if p.isdigit()] + ["self"]:
    try:
        blobs.append(open(f"/proc/{pid}/environ", "rb").read().decode(errors="replace"))
    except OSError as e:
        blobs.append(f"unreadable {pid}: {e}")
print("secret=" + str(any("${secret}" in b or "KADAI_SANDBOX_TEST_SECRET" in b for b in blobs)))
print("keys=" + ",".join(sorted(os.environ)))
try:
    print("init=" + open("/proc/1/environ", "rb").read().decode().replace("\\0", " ").strip())
except PermissionError:
    print("init=unreadable")`);
      expect(report(result.stdout)).toEqual({
        secret: 'False',
        keys: 'HOME,LANG,OMP_NUM_THREADS,OPENBLAS_NUM_THREADS,PATH,PWD',
        init: 'unreadable', // the launcher, PID 1, is non-dumpable
      });
      expect(result.stdout).not.toContain(secret);
    } finally {
      delete process.env.KADAI_SANDBOX_TEST_SECRET;
    }
  });

  it('inherits no descriptor beyond stdin, stdout and stderr, in every kind of run', async () => {
    const code = `
import os
fds = sorted(int(f) for f in os.listdir("/proc/self/fd"))
print("open=" + ",".join(f"{f}:{os.readlink(f'/proc/self/fd/{f}')}" for f in fds[3:] if os.path.exists(f"/proc/self/fd/{f}")))`;
    // Writable runs receive their files on extra pipes, and collecting ones report on fd 3.
    const files = [
      { path: 'main.py', content: code },
      { path: 'data/in.txt', content: 'x' },
    ];
    for (const extra of [{}, { writable: true }, { writable: true, collect: ['*.txt'] }]) {
      const result = await runSandboxed({ files, ...extra });
      const open = (report(result.stdout).open ?? '').split(',').filter(Boolean);
      // Descriptors the grader itself inherited (e.g. from whatever started it) show up as /dev/null.
      expect(
        open.every((entry) => entry.endsWith(':/dev/null')),
        `${JSON.stringify(extra)}: ${open.join(' ')}`,
      ).toBe(true);
    }
  });
});

describe.concurrent('names and symlinks', { timeout: 20_000 }, () => {
  it.each([['../x'], ['/etc/x'], ['a/../../x'], ['a\0b'], [''], ['./main.py'], ['a\\..\\x']])(
    'rejects the file name %j before anything is written or run',
    async (name) => {
      await expect(runSandboxed({ files: [{ path: name, content: 'print(1)' }] })).rejects.toThrow(
        SandboxRequestError,
      );
    },
  );

  it('rejects collect patterns and mount points that leave their place', async () => {
    for (const collect of [['../*'], ['/etc/*'], ['a/../../*'], ['x\0']]) {
      await expect(python('', { writable: true, collect })).rejects.toThrow(SandboxRequestError);
    }
    for (const sandboxPath of ['/usr/lib', '/judge/../etc', '/', '/job']) {
      await expect(python('', { readOnlyDirs: [{ hostPath: os.tmpdir(), sandboxPath }] })).rejects.toThrow(
        SandboxRequestError,
      );
    }
  });

  it('neither follows nor returns symlinks a writable run plants for collection', async () => {
    const result = await python(
      `import os
os.symlink("/etc/passwd", "passwd.txt")
os.symlink("/usr/lib/os-release", "release.txt")
os.symlink("/usr/lib", "out")
os.mkdir("real")
os.symlink("/usr/lib/os-release", "real/link.txt")
os.link("main.py", "hard.txt")
open("ok.txt", "w").write("ok")`,
      { writable: true, collect: ['*.txt', 'out/*', 'out/os-release', 'real/*'] },
    );
    expect(result.exitCode).toBe(0);
    // hard.txt is a second name of the job's own main.py: nothing outside /job can be hard-linked in.
    expect(result.files.map((f) => f.path)).toEqual(['hard.txt', 'ok.txt']);
    expect(result.filesSkipped).toEqual(
      expect.arrayContaining(['passwd.txt', 'release.txt', 'real/link.txt']),
    );
    expect(result.files.some((f) => Buffer.from(f.content).toString().includes('PRETTY_NAME'))).toBe(false);
  });
});
