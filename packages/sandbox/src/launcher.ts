import { validateRelativePath } from './paths.ts';
import type { SandboxCollectedFile } from './types.ts';

/** The launcher reports on this descriptor (a pipe to the host). */
export const REPORT_FD = 3;
/**
 * With `resultChannel`, a pipe to the host the program itself may write to (a test harness reporting
 * its results without going through stdout). The launcher passes it on; nothing else is on it.
 */
export const RESULT_FD = 4;
/** A writable run's input files arrive on descriptors from here on (bwrap `--file`). */
export const FIRST_FILE_FD = 5;

/**
 * The launcher every run goes through: PID 1 of the sandbox (bwrap `--as-pid-1`), without rlimits.
 * It spawns the program (prlimit → python, exactly as the command line says), reaps every process of
 * the tree as it ends (orphans come to PID 1), and once the program is gone kills and reaps whatever it
 * left behind (so nothing can swap a file for a symlink while we read). Then it writes the usage of the
 * whole tree (CPU summed, peak RSS of the largest process, both from `wait4`) and the collected files
 * to fd 3 and exits with the program's status.
 * - As PID 1 of the namespace it cannot be signalled from inside (the kernel drops every signal it has
 *   no handler for, SIGKILL included), so a program cannot kill it to escape being measured.
 * - It is non-dumpable, so the program can neither open its /proc/1/fd/3 to forge the report nor
 *   ptrace it.
 * - Start-up is what it costs (~7 ms, a bare `python3 -I -S`), so it imports only what is built in or
 *   cheap: `posix` rather than `os` (~1 ms, loaded only to collect files), `_signal` rather than
 *   `signal` (its enums cost ~4 ms), `_ctypes` rather than `ctypes` (~2 ms), no `json`/`re` (~10 ms).
 */
/**
 * How a PID 1 of ours starts (the launcher, and the supervisor of a paired run's worker): non-dumpable
 * (so nothing inside can read its memory or descriptors through /proc, or ptrace it), and deaf to
 * SIGINT (Python handles it; with SIG_DFL PID 1 ignores it like any other signal from inside).
 */
export function pid1Prelude(name: string): string {
  return String.raw`
import sys, posix, _signal
try:
    from _ctypes import call_function, dlopen, dlsym
    PRCTL = dlsym(dlopen(None, 2), 'prctl')
    prctl = lambda *args: call_function(PRCTL, args)
except ImportError:
    import ctypes
    prctl = ctypes.CDLL(None).prctl
if prctl(4, 0, 0, 0, 0) != 0 or prctl(3, 0, 0, 0, 0) != 0:
    posix.write(2, b'${name}: cannot become non-dumpable\n')
    posix._exit(125)
_signal.signal(_signal.SIGINT, _signal.SIG_DFL)
`;
}

const LAUNCHER = String.raw`${pid1Prelude('launcher')}
import time
OUT = 3
posix.set_inheritable(OUT, False)
a = sys.argv
wall, max_files, max_bytes, n = int(a[1]) / 1000, int(a[2]), int(a[3]), int(a[4])
pats = [p.split('/') for p in a[5:5 + n]]
child = a[5 + n:]
JOB = '/job'

def seg(p, s):
    i = j = 0
    star, mark = -1, 0
    while j < len(s):
        if i < len(p) and (p[i] == '?' or p[i] == s[j]):
            i, j = i + 1, j + 1
        elif i < len(p) and p[i] == '*':
            star, mark, i = i, j, i + 1
        elif star >= 0:
            i, mark = star + 1, mark + 1
            j = mark
        else:
            return False
    while i < len(p) and p[i] == '*':
        i += 1
    return i == len(p)

def matches(parts):
    return any(len(p) == len(parts) and all(seg(x, y) for x, y in zip(p, parts)) for p in pats)

def walk(rel, depth, found, budget):
    try:
        entries = sorted(os.scandir(os.path.join(JOB, rel) if rel else JOB), key=lambda e: e.name)
    except OSError:
        return
    for e in entries:
        budget[0] -= 1
        if budget[0] < 0:
            return
        r = rel + '/' + e.name if rel else e.name
        if e.is_dir(follow_symlinks=False):
            if depth > 1:
                walk(r, depth - 1, found, budget)
        elif matches(r.split('/')):
            found.append(r)

# SIGCHLD stays pending for sigtimedwait; the program starts with an empty mask all the same.
_signal.pthread_sigmask(_signal.SIG_BLOCK, [_signal.SIGCHLD])
# posix_spawn (vfork) rather than fork: ~1 ms less. Python ignores these two; the program must not.
try:
    pid = posix.posix_spawn(child[0], child, posix.environ, setsigdef=(_signal.SIGPIPE, _signal.SIGXFSZ),
                            setsigmask=())
except OSError as e:
    posix.write(2, ('launcher: cannot run %s: %s\n' % (child[0], e.strerror)).encode())
    posix._exit(127)
start = time.monotonic()
cpu, rss, status, walled = 0.0, 0, None, False

def reaped(ru):
    global cpu, rss
    cpu += ru.ru_utime + ru.ru_stime
    rss = max(rss, ru.ru_maxrss)

def read(path):
    fd = posix.open(path, posix.O_RDONLY)
    try:
        return posix.read(fd, 1024)
    finally:
        posix.close(fd)

def waited():
    # The longest a single live thread has waited for a CPU while runnable (schedstat): what a busy host
    # cost the program. The longest rather than the sum, so threads of its own crowding each other
    # cannot add up to more than the time that passed. The kernel adds a wait to schedstat only when the
    # thread gets the CPU again, so a thread runnable now (state R) may be waiting still: say so.
    most, runnable = 0, False
    for p in posix.listdir('/proc'):
        if not p.isdigit() or p == '1':
            continue
        try:
            for t in posix.listdir('/proc/%s/task' % p):
                most = max(most, int(read('/proc/%s/task/%s/schedstat' % (p, t)).split()[1]))
                runnable = runnable or read('/proc/%s/task/%s/stat' % (p, t)).rsplit(b')', 1)[1][:3] == b' R '
        except (OSError, ValueError, IndexError):
            pass
    return most / 1e9, runnable

# Reap as processes end (zombies would count against RLIMIT_NPROC) until the program itself is gone.
# The wall limit is the program's own time: what passed since it started, less what it waited for a CPU,
# so a busy host costs it nothing while sleeping or blocking does. It ends the program only when nothing
# of it is runnable (a runnable thread runs, under its CPU limit, or waits for the host), and past
# 20 × the limit + 60 s whatever it waited for.
deadline = start + wall
while status is None:
    p, st, ru = posix.wait4(-1, 0 if walled or not wall else posix.WNOHANG)
    if p:
        reaped(ru)
        if p == pid:
            status = st
        continue
    now = time.monotonic()
    if now >= deadline:
        delay, runnable = waited()
        own = now - start - min(delay, now - start)
        if (own >= wall and not runnable) or now - start >= wall * 20 + 60:
            walled = True
            try:
                posix.kill(-1, _signal.SIGKILL)
            except OSError:
                pass
            continue
        deadline = now + (min(0.02, wall) if own >= wall else wall - own)
    _signal.sigtimedwait([_signal.SIGCHLD], max(0.001, deadline - now))
# Then its leftovers: a process forked while the kill went round belongs to one that dies, so kill again.
while True:
    try:
        posix.kill(-1, _signal.SIGKILL)
    except OSError:
        pass
    try:
        _, _, ru = posix.wait4(-1, 0)
    except ChildProcessError:
        break
    reaped(ru)
found = []
if pats:
    import os, stat
    walk('', max(len(p) for p in pats), found, [20000])
head, body, total = [], [], 0
head.append('usage %d %d' % (round(cpu * 1000), rss))
if walled:
    head.append('limit wall')
for r in found:
    h = r.encode('utf-8', 'surrogateescape').hex()
    full = JOB + '/' + r
    try:
        fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        head.append('skip ' + h)
        continue
    st = os.fstat(fd)
    ok = stat.S_ISREG(st.st_mode) and os.path.realpath(full) == full
    if not ok or len(body) >= max_files or total + st.st_size > max_bytes:
        os.close(fd)
        head.append('skip ' + h)
        continue
    chunks, left = [], st.st_size
    while left > 0:
        b = os.read(fd, left)
        if not b:
            break
        chunks.append(b)
        left -= len(b)
    os.close(fd)
    data = b''.join(chunks)
    body.append(data)
    total += len(data)
    head.append('file %s %d' % (h, len(data)))
head.append('end')
try:
    posix.write(OUT, ('\n'.join(head) + '\n').encode())
    for b in body:
        v = memoryview(b)
        while v:
            v = v[posix.write(OUT, v):]
except OSError:
    pass
posix.close(OUT)
posix._exit(128 + posix.WTERMSIG(status) if posix.WIFSIGNALED(status) else posix.WEXITSTATUS(status))
`;

/**
 * The launcher's own wall limit gives up after this: 20 × the limit + 60 s of time passed, however long
 * the program waited for a CPU (as the pytest harness does for a test's own time).
 */
export function launcherCeilingMs(wallMs: number): number {
  return wallMs * 20 + 60_000;
}

/**
 * `python3 -I -S -c LAUNCHER …` followed by the program's own command line. `wallMs` (0: none) is the
 * program's own time, as the launcher measures it: see `waited()` above.
 */
export function launcherArgs(
  pythonPath: string,
  wallMs: number,
  patterns: string[],
  maxFiles: number,
  maxBytes: number,
  child: string[],
): string[] {
  return [
    pythonPath,
    '-I',
    '-S',
    '-c',
    LAUNCHER,
    String(wallMs),
    String(maxFiles),
    String(maxBytes),
    String(patterns.length),
    ...patterns,
    ...child,
  ];
}

export interface LauncherReport {
  /** The launcher ended the program on its wall limit. */
  wall: boolean;
  cpuMs: number | null;
  memoryKb: number | null;
  files: SandboxCollectedFile[];
  skipped: string[];
}

/**
 * Reads what the launcher wrote. Everything in it is treated as untrusted: names are validated and
 * must match a requested pattern again, counts and sizes are capped here as well.
 */
export function parseLauncherReport(
  data: Uint8Array,
  patterns: RegExp[],
  maxFiles: number,
  maxBytes: number,
): LauncherReport {
  const report: LauncherReport = { wall: false, cpuMs: null, memoryKb: null, files: [], skipped: [] };
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let offset = 0;
  const wanted: { path: string; size: number }[] = [];
  for (;;) {
    const newline = buffer.indexOf(0x0a, offset);
    if (newline < 0 || newline - offset > 4096) return report; // cut short: the launcher died
    const [kind, first, second] = buffer.toString('latin1', offset, newline).split(' ');
    offset = newline + 1;
    if (kind === 'end') break;
    if (kind === 'usage') {
      report.cpuMs = toCount(first);
      report.memoryKb = toCount(second);
    } else if (kind === 'limit') {
      report.wall ||= first === 'wall';
    } else if (kind === 'file' || kind === 'skip') {
      const path = decodeName(first);
      if (path === null || !patterns.some((pattern) => pattern.test(path))) continue;
      const size = kind === 'file' ? toCount(second) : null;
      if (size === null) report.skipped.push(path);
      else wanted.push({ path, size });
    }
  }
  let total = 0;
  for (const { path, size } of wanted) {
    if (report.files.length >= maxFiles || total + size > maxBytes || offset + size > buffer.length) {
      report.skipped.push(path);
      offset += size;
      continue;
    }
    report.files.push({ path, content: new Uint8Array(buffer.subarray(offset, offset + size)) });
    offset += size;
    total += size;
  }
  return report;
}

function toCount(text: string | undefined): number | null {
  return text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : null;
}

function decodeName(hex: string | undefined): string | null {
  if (hex === undefined || !/^(?:[0-9a-f]{2}){1,255}$/.test(hex)) return null;
  const name = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.from(hex, 'hex'));
  try {
    return validateRelativePath(name);
  } catch {
    return null;
  }
}
