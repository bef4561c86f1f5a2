/**
 * The Python side of a kernel: `python3 -I -c DRIVER <outputBytes> <maxOutputs> <memoryExit>`, run by
 * the launcher under the same confinement as every sandboxed program (see kernel.ts for the host side
 * and kernel-protocol.ts for the frames).
 *
 * - Requests arrive on the original fd 0 and replies leave on the original fd 1, one JSON object a line.
 *   Both are first duplicated to private descriptors; fd 0 then becomes /dev/null and fd 1/2 pipes that a
 *   thread reads into the outputs, so neither `print`, `os.write(1, …)` nor `os.close(1)` can reach the
 *   protocol. The original fd 2 stays private for faulthandler, which the host keeps as a diagnostic.
 * - Code runs in the dict of a fresh `__main__` module that persists across executions. The last
 *   expression statement is evaluated separately and shown like IPython (`;` at the end hides it).
 * - A per-execution interval timer raises `TimeoutError` (a BaseException, like KeyboardInterrupt) in the
 *   user's code, again every 0.25 s should the code swallow it; the host kills the tree if even that
 *   does not bring an answer.
 * - SIGINT from the host (`Kernel.interrupt`) raises KeyboardInterrupt in the user's code, as in Jupyter;
 *   outside an execution (or inside the driver's own guard) it is ignored, so it can never end the driver.
 * - A MemoryError that reaches the top level ends the kernel: the reply says so (`fatal`) and the
 *   driver exits with <memoryExit>, since half-built state may be left in the globals. A reserve of
 *   address space is given back first, so the error can still be described and sent.
 * - All output of one execution shares a budget of <outputBytes> (UTF-8 text and base64 images); what
 *   does not fit is dropped behind a visible "[output truncated]" marker, the kernel stays alive.
 */
import { CAPTURE } from './kernel-capture.ts';

export const DRIVER = String.raw`
import ast, base64, builtins, codecs, io, json, linecache, mmap, os, select, signal, sys, threading, time, traceback, types

BUDGET, MAX_OUTPUTS, MEMORY_EXIT = (int(x) for x in sys.argv[1:4])
sys.argv = ['']
HERE = sys._getframe().f_code.co_filename
MARK = '[output truncated]'
TEXT_CAP = 20000

def unencodable(error):
    # Half a surrogate pair ('\ud800') has no UTF-8: it is sent as U+FFFD, like bytes that are not UTF-8.
    # (As bytes: the UTF-8 encoder takes only ASCII from a handler that answers with a str.)
    return b'\xef\xbf\xbd' * (error.end - error.start), error.end

codecs.register_error('kadai-fffd', unencodable)

RESERVE = mmap.mmap(-1, 4 << 20)
os.environ.update(MPLBACKEND='Agg', MPLCONFIGDIR='/tmp/matplotlib',
                  FONTCONFIG_FILE='/tmp/matplotlib/fonts.conf')
try:
    # Debian's matplotlib insists on a matplotlibrc besides its defaults, and fontconfig (which it runs)
    # on a configuration: theirs are in /etc, which the sandbox hides.
    os.mkdir('/tmp/matplotlib')
    with open('/tmp/matplotlib/matplotlibrc', 'w') as f:
        f.write('backend: Agg\n')
    with open('/tmp/matplotlib/fonts.conf', 'w') as f:
        f.write('<fontconfig><dir>/usr/share/fonts</dir><cachedir>/tmp/fontconfig</cachedir></fontconfig>\n')
except OSError:
    pass

REQ, REP, DIAG = os.dup(0), os.dup(1), os.dup(2)
NULL = os.open(os.devnull, os.O_RDWR)
OUT_R, OUT_W = os.pipe()
ERR_R, ERR_W = os.pipe()
STREAMS = {OUT_R: 'stdout', ERR_R: 'stderr'}
DECODERS = {fd: codecs.getincrementaldecoder('utf-8')('replace') for fd in STREAMS}
for fd in STREAMS:
    os.set_blocking(fd, False)

def plumb():
    # Again before every execution: the previous one may have closed or replaced them.
    os.dup2(NULL, 0)
    os.dup2(OUT_W, 1)
    os.dup2(ERR_W, 2)

plumb()
import faulthandler
faulthandler.enable(DIAG)
for s in (sys.__stdout__, sys.__stderr__):
    s.reconfigure(line_buffering=True)
LOCK = threading.RLock()
COUNT = 0
ARMED = False
TIMED_OUT = False
LIMIT = 0.0
STDIN = None

${CAPTURE}
# The user's globals are a module's, registered as __main__ so that pickle and multiprocessing find
# what the cells define; the driver's own module stays referenced here.
MAIN = types.ModuleType('__main__')
DRIVER_MODULE = sys.modules['__main__']
sys.modules['__main__'] = MAIN
NS = MAIN.__dict__
NS['__builtins__'] = builtins

def rich_repr(obj, name):
    try:
        method = getattr(obj, name, None)
        return method() if callable(method) else None
    except Exception:
        return None

def png_of(figure):
    data = io.BytesIO()
    figure.savefig(data, format='png', bbox_inches='tight')
    return base64.b64encode(data.getvalue()).decode('ascii')

def bundle(obj):
    data = {'text/plain': str.__str__(repr(obj))}
    if isinstance(obj, type):
        return data
    figure = sys.modules.get('matplotlib.figure')
    if figure is not None and isinstance(obj, figure.Figure):
        data['image/png'] = png_of(obj)
        return data
    html = rich_repr(obj, '_repr_html_')
    if isinstance(html, str):
        data['text/html'] = str.__str__(html)
    png = rich_repr(obj, '_repr_png_')
    if isinstance(png, (bytes, bytearray)):
        data['image/png'] = base64.b64encode(png).decode('ascii')
    elif isinstance(png, str):
        try:
            data['image/png'] = base64.b64encode(base64.b64decode(png)).decode('ascii')
        except ValueError:
            pass
    return data

def display(*objs):
    """Shows each object below the cell, the way the value of a cell's last line is shown."""
    for obj in objs:
        CURRENT.rich('display_data', bundle(obj))

NS['display'] = display
Timeout = type('TimeoutError', (BaseException,), {'__module__': 'builtins'})

def on_alarm(signum, frame):
    global TIMED_OUT
    # Never inside guarded() itself: that is where the driver takes back control.
    if ARMED and frame is not None and frame.f_code is not GUARD:
        TIMED_OUT = True
        raise Timeout('the execution was stopped after %g s (time limit)' % LIMIT)

def guarded(action, seconds):
    global ARMED
    ARMED = True
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001), 0.25)
    try:
        action()
        error = None
    except BaseException as e:
        error = e
    ARMED = False
    signal.setitimer(signal.ITIMER_REAL, 0, 0)
    return error

GUARD = guarded.__code__

def on_interrupt(signum, frame):
    # The host's interrupt: only the user's running code hears it, never the driver between runs.
    if ARMED and frame is not None and frame.f_code is not GUARD:
        raise KeyboardInterrupt

signal.signal(signal.SIGINT, on_interrupt)

def run_cell(code, name):
    tree = compile(code, name, 'exec', ast.PyCF_ONLY_AST, dont_inherit=True)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr) and not code.rstrip().endswith(';'):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, name, 'exec', dont_inherit=True), NS)
    if last is not None:
        value = eval(compile(last, name, 'eval', dont_inherit=True), NS)
        if value is not None:
            NS['_'] = value
            CURRENT.rich('execute_result', bundle(value))

def show_figures():
    plt = sys.modules['matplotlib.pyplot']
    try:
        for number in [] if TIMED_OUT else plt.get_fignums():
            figure = plt.figure(number)
            CURRENT.rich('display_data', {'text/plain': str.__str__(repr(figure)), 'image/png': png_of(figure)})
    finally:
        plt.close('all')

def hide_driver(te, seen):
    if te is None or id(te) in seen:
        return
    seen.add(id(te))
    te.stack = traceback.StackSummary.from_list([f for f in te.stack if f.filename != HERE])
    hide_driver(te.__cause__, seen)
    hide_driver(te.__context__, seen)
    for inner in te.exceptions or ():
        hide_driver(inner, seen)

def describe(error):
    te = traceback.TracebackException(type(error), error, error.__traceback__, compact=True)
    hide_driver(te, set())
    lines = [clip(chunk.rstrip('\n')) for chunk in te.format()]
    if len(lines) > 100:
        lines = lines[:50] + ['[%d more lines]' % (len(lines) - 99)] + lines[-49:]
    return type(error).__name__, clip(str(error)), lines

def report(outs, error):
    described = []
    if guarded(lambda: described.append(describe(error)), 0.5) is not None or not described:
        described = [(type(error).__name__, '', [])]  # e.g. a __str__ that never returns
    outs.error(*described[0])

def release():
    global RESERVE
    if RESERVE is not None:
        RESERVE.close()
        RESERVE = None

def settle():
    for s in (sys.__stdout__, sys.__stderr__):
        try:
            s.flush()
        except Exception:
            pass
    with LOCK:
        drain(list(STREAMS))

def stdin():
    global STDIN
    if STDIN is None or STDIN.closed:
        STDIN = open(os.devnull, encoding='utf-8')
    return STDIN

def execute(request):
    global COUNT, CURRENT, TIMED_OUT, LIMIT
    COUNT += 1
    code, LIMIT = request['code'], request['timeout']
    plumb()
    sys.stdout, sys.stderr, sys.stdin = OUT, ERR, stdin()
    signal.signal(signal.SIGALRM, on_alarm)
    signal.signal(signal.SIGINT, on_interrupt)
    TIMED_OUT = False
    deadline = time.monotonic() + LIMIT
    name = '<cell-%d>' % COUNT
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)
    outs = CURRENT
    error = guarded(lambda: run_cell(code, name), LIMIT)
    fatal = isinstance(error, MemoryError)
    if fatal:
        release()
    settle()
    if error is not None:
        report(outs, error)
    failed = error is not None
    error = None
    if not fatal and 'matplotlib.pyplot' in sys.modules:
        error = guarded(show_figures, max(deadline - time.monotonic(), 0.5))
        if error is not None:
            fatal, failed = isinstance(error, MemoryError), True
            report(outs, error)
            error = None
    settle()
    with LOCK:
        CURRENT = Outputs()
    return {'id': request['id'], 'count': COUNT, 'status': 'error' if failed else 'ok',
            'outputs': outs.finish(), 'truncated': outs.truncated, 'timedOut': TIMED_OUT,
            'fatal': 'memory' if fatal else None}

def forked():
    # A fork of the user's (multiprocessing): its output goes through the pipes, it keeps off the protocol.
    global LOCK, ARMED
    LOCK, ARMED = threading.RLock(), False
    for fd in (REQ, REP):
        try:
            os.close(fd)
        except OSError:
            pass
    sys.stdout = open(1, 'w', encoding='utf-8', errors='replace', buffering=1, closefd=False)
    sys.stderr = open(2, 'w', encoding='utf-8', errors='replace', buffering=1, closefd=False)

os.register_at_fork(after_in_child=forked)

def send(message):
    data = (json.dumps(message, ensure_ascii=False, separators=(',', ':')) + '\n').encode('utf-8', 'kadai-fffd')
    view = memoryview(data)
    while view:
        view = view[os.write(REP, view):]

def serve():
    requests = open(REQ, 'rb', closefd=False)
    send({'ready': True})
    while True:
        line = requests.readline()
        if not line:
            os._exit(0)
        reply = execute(json.loads(line))
        send(reply)
        if reply['fatal']:
            os._exit(MEMORY_EXIT)

try:
    serve()
except MemoryError:
    os._exit(MEMORY_EXIT)
except BaseException:
    os.write(DIAG, traceback.format_exc().encode('utf-8', 'replace'))
    os._exit(70)
`;

/** The driver's exit status when user code ran out of memory (it could not always say so in a reply). */
export const DRIVER_MEMORY_EXIT = 86;

/** `-c DRIVER …`: what follows `python3 -I` in the sandboxed command. */
export function driverArgv(outputBytes: number, maxOutputs: number): string[] {
  return ['-c', DRIVER, String(outputBytes), String(maxOutputs), String(DRIVER_MEMORY_EXIT)];
}
