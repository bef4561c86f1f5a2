import { validateRelativePath } from './paths.ts';
import type { SandboxCollectedFile } from './types.ts';

/** The launcher reports on this descriptor (a pipe to the host). */
export const REPORT_FD = 3;
/** A writable run's input files arrive on descriptors from here on (bwrap `--file`). */
export const FIRST_FILE_FD = 4;

/**
 * The launcher of a `writable` run with `collect`: a /job tmpfs vanishes with the sandbox, so something
 * inside must hand the files out. It runs inside the same sandbox (same uid, same namespaces) but
 * without rlimits: forks the program (prlimit → python, exactly as in any other run),
 * waits for it, kills whatever it left behind (so nothing can swap a file for a symlink while we read),
 * then writes the wait4 usage and the collected files to fd 3 and exits with the program's status.
 * It is non-dumpable, so the program cannot open its /proc/<pid>/fd/3 to forge the report.
 * No `json`/`re` imports: they cost ~10 ms of start-up.
 */
const LAUNCHER = String.raw`
import os, sys, stat, signal, time, ctypes
ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)
OUT = 3
os.set_inheritable(OUT, False)
a = sys.argv
max_files, max_bytes, n = int(a[1]), int(a[2]), int(a[3])
pats = [p.split('/') for p in a[4:4 + n]]
child = a[4 + n:]
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

pid = os.fork()
if pid == 0:
    try:
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
        os.execv(child[0], child)
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
try:
    os.kill(-1, signal.SIGKILL)
except OSError:
    pass
me = str(os.getpid())
for _ in range(200):
    if all(p in ('1', me) for p in os.listdir('/proc') if p.isdigit()):
        break
    time.sleep(0.002)
found = []
if pats:
    walk('', max(len(p) for p in pats), found, [20000])
head, body, total = [], [], 0
head.append('usage %d %d' % (round((ru.ru_utime + ru.ru_stime) * 1000), ru.ru_maxrss))
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
    os.write(OUT, ('\n'.join(head) + '\n').encode())
    for b in body:
        v = memoryview(b)
        while v:
            v = v[os.write(OUT, v):]
except OSError:
    pass
os.close(OUT)
os._exit(128 + os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status))
`;

/** `python3 -I -S -c LAUNCHER …` followed by the program's own command line. */
export function launcherArgs(
  pythonPath: string,
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
    String(maxFiles),
    String(maxBytes),
    String(patterns.length),
    ...patterns,
    ...child,
  ];
}

export interface LauncherReport {
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
  const report: LauncherReport = { cpuMs: null, memoryKb: null, files: [], skipped: [] };
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
