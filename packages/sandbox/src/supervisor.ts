import { pid1Prelude } from './launcher.ts';

/**
 * The supervisor: PID 1 of a paired run's worker sandbox (see pair.ts), in place of the launcher. Where
 * the launcher runs one program and measures it once it has ended, the supervisor keeps a worker program
 * available to the trusted program of the other sandbox, which drives it over the control socket:
 *
 *   main → supervisor   `start`   the first line, once: the supervisor starts (see supervisorArgs)
 *                       `spawn`   start an incarnation of the worker (killing any that lives)
 *                       `usage`   CPU and run-queue wait of the live incarnation so far
 *                       `kill`    kill the incarnation and everything it started
 *   supervisor → main   `spawned <seq>`                       the reply to `spawn`
 *                       `usage <seq> <cpu ns> <delay ns> <alive>`
 *                       `killed <seq> <status> <cpu ns>`      the reply to `kill`
 *                       `exit <seq> <status> <cpu ns>`        the incarnation ended by itself (unasked)
 *
 * `status` is the raw wait status of the incarnation's first process (-1: none); `cpu ns` is the CPU time
 * of every process of the incarnation (user + system, all threads, children included): live processes
 * through their CPU clocks (clock_gettime of a pid's clock needs no permission, so a process that makes
 * itself non-dumpable still counts), ended ones through wait4. `delay ns` is the time its threads waited
 * for a CPU while runnable (schedstat): what a busy host costs it, which the main program does not charge.
 *
 * Each incarnation gets the data socket as descriptor 3 (the other end is the main program's), /dev/null
 * as stdin, and the sandbox's stdout and stderr. It never gets the control socket or the report pipe:
 * both are close-on-exec here. The supervisor is what the launcher is to a run: PID 1 (nothing inside can
 * signal it), non-dumpable (nothing can read its memory or descriptors), and the only reaper of orphans.
 * When the control socket closes (the main program ended) it kills everything, reports the total CPU time
 * and the peak RSS on descriptor 3 in the launcher's format, and exits.
 */
export const SUPERVISOR = String.raw`${pid1Prelude('supervisor')}
import select, time
REPORT, DATA, CTL = 3, 4, 5
# Whatever else came down to us (bwrap's file descriptors, the host's leftovers) is not the worker's.
posix.closerange(CTL + 1, 65536)
for fd in (REPORT, DATA, CTL):
    posix.set_inheritable(fd, False)
posix.set_blocking(CTL, True)
NULL = posix.open('/dev/null', posix.O_RDWR)
child = sys.argv[1:]
TICK_NS = 10**9 // posix.sysconf('SC_CLK_TCK')
wake_r, wake_w = posix.pipe()
posix.set_blocking(wake_r, False)
posix.set_blocking(wake_w, False)
_signal.set_wakeup_fd(wake_w)
_signal.signal(_signal.SIGCHLD, lambda *args: None)

seq = 0
pid = None
status = -1
reaped_ns = 0
total_ns = 0
rss = 0

def account(ru):
    global reaped_ns, total_ns, rss
    ns = int((ru.ru_utime + ru.ru_stime) * 1e9)
    reaped_ns += ns
    total_ns += ns
    rss = max(rss, ru.ru_maxrss)

def read(path):
    fd = posix.open(path, posix.O_RDONLY)
    try:
        return posix.read(fd, 4096)
    finally:
        posix.close(fd)

def live():
    cpu = delay = 0
    for name in posix.listdir('/proc'):
        if not name.isdigit() or name == '1':
            continue
        p = int(name)
        try:
            cpu += time.clock_gettime_ns(((~p) << 3) | 2)
        except OSError:
            continue
        try:
            stat = read('/proc/%d/stat' % p)
            fields = stat[stat.rindex(b')') + 2:].split()
            cpu += (int(fields[13]) + int(fields[14])) * TICK_NS
        except (OSError, ValueError, IndexError):
            pass
        try:
            for tid in posix.listdir('/proc/%d/task' % p):
                delay += int(read('/proc/%d/task/%s/schedstat' % (p, tid)).split()[1])
        except (OSError, ValueError, IndexError):
            pass
    return cpu, delay

def kill_all():
    global pid, status
    while True:
        try:
            posix.kill(-1, _signal.SIGKILL)
        except OSError:
            pass
        try:
            p, st, ru = posix.wait4(-1, 0)
        except ChildProcessError:
            break
        account(ru)
        if p == pid:
            status = st
    pid = None

def reap():
    global pid, status
    ended = False
    while True:
        try:
            p, st, ru = posix.wait4(-1, posix.WNOHANG)
        except ChildProcessError:
            break
        if p == 0:
            break
        account(ru)
        if p == pid:
            status = st
            ended = True
    if ended:
        kill_all()
        say('exit %d %d %d' % (seq, status, reaped_ns))

def say(line):
    data = (line + '\n').encode()
    while data:
        data = data[posix.write(CTL, data):]

# A worker that is Python code given with -c (prlimit … -- python3 -I -S -c CODE ARGS…) is forked from
# this process rather than started afresh: its interpreter is already up (a Python start-up is most of
# a small worker's cost, and each restart after a time limit pays it again). The child takes the rlimits
# prlimit would have set, its descriptors and signals as a fresh start would have them, and runs CODE
# as a new __main__. Anything else is started with posix_spawn.
RLIMITS = {'--cpu': 'RLIMIT_CPU', '--as': 'RLIMIT_AS', '--nproc': 'RLIMIT_NPROC', '--fsize': 'RLIMIT_FSIZE',
           '--nofile': 'RLIMIT_NOFILE', '--core': 'RLIMIT_CORE'}

def forkable():
    if '--' not in child or not child[0].endswith('/prlimit'):
        return None
    split = child.index('--')
    limits, program = child[1:split], child[split + 1:]
    if program[1:4] != ['-I', '-S', '-c'] or len(program) < 5:
        return None
    pairs = []
    for option in limits:
        name, _, value = option.partition('=')
        if name not in RLIMITS:
            return None
        soft, _, hard = value.partition(':')
        pairs.append((RLIMITS[name], int(soft), int(hard or soft)))
    return pairs, program[4], program[5:]

FORK = forkable()

def run_forked():
    limits, code, args = FORK
    import resource, types
    posix.dup2(NULL, 0)
    posix.dup2(DATA, 3)
    # fd 3 (the report pipe here) is now the data socket; nothing else of the supervisor's stays open.
    for fd in (DATA, CTL, NULL, wake_r, wake_w):
        try:
            posix.close(fd)
        except OSError:
            pass
    _signal.set_wakeup_fd(-1)
    _signal.signal(_signal.SIGCHLD, _signal.SIG_DFL)
    _signal.signal(_signal.SIGINT, _signal.default_int_handler)
    for name, soft, hard in limits:
        resource.setrlimit(getattr(resource, name), (soft, hard))
    main = types.ModuleType('__main__')
    sys.modules['__main__'] = main
    sys.argv = ['-c'] + args
    exec(compile(code, '<string>', 'exec'), main.__dict__)
    posix._exit(0)

def spawn():
    global pid, seq, status, reaped_ns
    if pid is not None:
        kill_all()
    posix.set_blocking(DATA, False)
    try:
        while posix.read(DATA, 65536):
            pass
    except OSError:
        pass
    posix.set_blocking(DATA, True)
    seq += 1
    status = -1
    reaped_ns = 0
    if FORK is not None:
        pid = posix.fork()
        if pid == 0:
            try:
                run_forked()
            except SystemExit as e:
                code = e.code
                posix._exit(code if type(code) is int else 0 if code is None else 1)
            except BaseException:
                import traceback
                traceback.print_exc()
                posix._exit(1)
        say('spawned %d' % seq)
        return
    try:
        pid = posix.posix_spawn(child[0], child, posix.environ,
                                file_actions=[(posix.POSIX_SPAWN_DUP2, NULL, 0),
                                              (posix.POSIX_SPAWN_DUP2, DATA, 3)],
                                setsigdef=(_signal.SIGPIPE, _signal.SIGXFSZ))
    except OSError as e:
        posix.write(2, ('supervisor: cannot run %s: %s\n' % (child[0], e.strerror)).encode())
        pid = None
        say('exit %d %d 0' % (seq, 127 << 8))
        return
    say('spawned %d' % seq)

pending = b''
while True:
    try:
        ready = select.select([CTL, wake_r], [], [])[0]
    except InterruptedError:
        continue
    if wake_r in ready:
        try:
            while posix.read(wake_r, 512):
                pass
        except OSError:
            pass
        reap()
    if CTL not in ready:
        continue
    chunk = posix.read(CTL, 4096)
    if not chunk:
        break
    pending += chunk
    if len(pending) > 65536:
        break
    while b'\n' in pending:
        line, pending = pending.split(b'\n', 1)
        if line == b'spawn':
            spawn()
        elif line == b'usage':
            if pid is None:
                say('usage %d %d 0 0' % (seq, reaped_ns))
            else:
                cpu, delay = live()
                say('usage %d %d %d 1' % (seq, reaped_ns + cpu, delay))
        elif line == b'kill':
            was = pid
            kill_all()
            say('killed %d %d %d' % (seq, status if was is not None else -1, reaped_ns))
kill_all()
try:
    posix.write(REPORT, ('usage %d %d\nend\n' % (total_ns // 1000000, rss)).encode())
except OSError:
    pass
posix._exit(0)
`;

/**
 * The worker sandbox's PID 1: a shell that waits for the main program's first line on the control
 * socket (`start`), then becomes the supervisor (`python3 -I -S -c SUPERVISOR` and the worker's own
 * command line). Until then nothing starts — no Python competing for the
 * CPU with the main program's own start-up, and none at all in a run that never needs the worker.
 */
export function supervisorArgs(pythonPath: string, child: string[]): string[] {
  return [
    '/usr/bin/sh',
    '-c',
    `read -r line <&5 && [ "$line" = start ] && exec "$@"`,
    'supervisor',
    pythonPath,
    '-I',
    '-S',
    '-c',
    SUPERVISOR,
    ...child,
  ];
}
