/**
 * The few lines of Python the grader puts in front of programs and check scripts. They run inside the
 * sandbox, started as `python3 -I -S -c <snippet> …`:
 *
 * - `-I` (the sandbox's) implies `-P` on 3.11+, so a program's own folder is not on `sys.path` and
 *   `import helper` of a submitted `helper.py` would fail: the snippet puts the folder back.
 * - `-S` skips `site`'s start-up work: no `.pth` file of the host runs code in the sandbox (a stray one
 *   here imported certifi, pathlib and re on every start, a third of a run). The installed packages
 *   (numpy, …) are still on `sys.path`, and `exit()`, `quit()` and `help()` still exist.
 * - The file runs as `__main__` in the real `__main__` module (pickle and multiprocessing work), with
 *   nothing of the snippet left in its globals. `runpy` is not used: its imports (pkgutil, typing, re)
 *   cost about 12 ms per run.
 */
const RUN_AS_MAIN = `
def _kadai_run(path, argv, remove=False):
    import os, site, sys
    sys.path.extend(p for p in site.getsitepackages() if os.path.isdir(p) and p not in sys.path)
    site.setquit()
    site.sethelper()
    sys.argv = argv
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    with open(path, 'rb') as f:
        code = compile(f.read(), path, 'exec', dont_inherit=True)
    if remove:
        os.unlink(path)
    g = sys.modules['__main__'].__dict__
    keep = ('__name__', '__doc__', '__package__', '__loader__', '__spec__', '__annotations__', '__builtins__')
    for name in [n for n in g if n not in keep]:
        del g[name]
    g['__file__'] = path
    g['__cached__'] = None
    exec(code, g)
`;

const TRIM_TRACEBACKS = `
import sys
def _hook(kind, value, tb, sys=sys):
    while tb is not None and tb.tb_frame.f_code.co_filename.startswith('<'):
        tb = tb.tb_next
    sys.__excepthook__(kind, value.with_traceback(tb), tb)
sys.excepthook = _hook
`;

/**
 * Runs the file named after the snippet (`… -c PROGRAM_BOOTSTRAP main.py`) as `python3 main.py` would,
 * and trims the snippet's own frames from tracebacks, so students see what a plain run shows.
 */
export const PROGRAM_BOOTSTRAP = `${RUN_AS_MAIN}${TRIM_TRACEBACKS}
_kadai_run(sys.argv[1], sys.argv[1:])
`;

/**
 * The same for an instructor's driver, which is removed from the folder once compiled: the student's
 * code it then imports finds no driver file to read (or to hand on through /judge/files). It still runs
 * in the same process, so the driver's code and data stay reachable from Python (frames, `__main__`):
 * a driver must hold nothing secret (see docs/grading.md).
 */
export const DRIVER_BOOTSTRAP = `${RUN_AS_MAIN}${TRIM_TRACEBACKS}
_kadai_run(sys.argv[1], sys.argv[1:], remove=True)
`;

export function programArgv(file: string): string[] {
  return ['-S', '-c', PROGRAM_BOOTSTRAP, file];
}

export function driverArgv(file: string): string[] {
  return ['-S', '-c', DRIVER_BOOTSTRAP, file];
}

/**
 * Runs `check.py` as `__main__`: exit 0 (or falling off the end) is Correct; `sys.exit(1)`, any other
 * `sys.exit(message)` or a failed `assert` is Wrong; any other exception is the checker's own error
 * (exit 70), reported as such rather than blamed on the student.
 */
export const CHECKER_WRAPPER = `${RUN_AS_MAIN}
def _check():
    import sys, traceback
    try:
        _kadai_run('check.py', ['check.py'])
    except SystemExit:
        raise
    except AssertionError as e:
        print(str(e) or 'Assertion failed.')
        sys.exit(1)
    except BaseException:
        traceback.print_exc()
        sys.exit(70)
_check()
`;

export const CHECKER_ARGV = ['-S', '-c', CHECKER_WRAPPER];
