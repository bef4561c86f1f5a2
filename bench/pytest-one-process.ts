/**
 * The reference of `bench:grading -- --pytest`: how a pytest test case ran until issue 35 — the test
 * module and the submission in one sandboxed process (the harness of commit 08b5b6e, unchanged but for
 * this comment). It is kept only so that the bench can measure the two-process design against it in the
 * same run; it is not safe to grade with (a submission can change its verdicts: docs/grading.md).
 */
export const PYTEST_HARNESS = String.raw`
def _kadai_pytest(test_file, budget_ms):
    import os, site, sys
    sys.path.extend(p for p in site.getsitepackages() if os.path.isdir(p) and p not in sys.path)
    site.setquit()
    site.sethelper()
    sys.dont_write_bytecode = True
    for key in [k for k in os.environ if k.startswith('PYTEST') or k.startswith('PY_COLORS')]:
        del os.environ[key]
    os.environ['PYTEST_DISABLE_PLUGIN_AUTOLOAD'] = '1'
    RESULTS = 4
    os.set_inheritable(RESULTS, False)
    import gc, importlib, json, time, types
    CAP = 16384
    room = [1024 * 1024]  # all items' texts together; then 512 characters each

    def cap(text):
        text = str(text)
        limit = max(512, min(CAP, room[0]))
        if len(text) > limit:
            text = text[:limit] + '\n… (truncated)'
        room[0] -= len(text)
        return text

    def send(record):
        data = memoryview((json.dumps(record) + '\n').encode('utf-8', 'replace'))
        while data:
            data = data[os.write(RESULTS, data):]

    # Start-up: no collections while ~270 modules load, and a stand-in for importlib.metadata (and
    # the email/zipfile/csv modules it loads), which pluggy and pytest import only to look for plugin
    # entry points: autoload is off. Both end when the session starts, before the test module loads.
    gc.disable()
    metadata = types.ModuleType('importlib.metadata')
    metadata.distributions = lambda **kw: iter(())
    metadata.entry_points = lambda **kw: ()
    sys.modules['importlib.metadata'] = importlib.metadata = metadata

    def restore():
        if sys.modules.get('importlib.metadata') is metadata:
            del sys.modules['importlib.metadata'], importlib.metadata
        gc.enable()

    try:
        import pytest
    except ImportError as e:
        sys.stderr.write('kadai: pytest is not installed for /usr/bin/python3: %s\n' % e)
        os._exit(75)
    send({'t': 'ready'})

    kadai = types.ModuleType('kadai')
    kadai.__doc__ = 'Helpers for Kadai test files.'
    def points(n):
        """What a test is worth (default 1): @points(2) def test_x(): ..."""
        return pytest.mark.points(n)
    kadai.points = points
    sys.modules['kadai'] = kadai
    sys.path.insert(0, '/job')

    class Plugin:
        def __init__(self):
            self.state = {}
            self.assertion = {}

        def pytest_configure(self, config):
            config.addinivalue_line('markers', 'points(n): what the test is worth (a whole number, default 1)')
            # What -vv --tb=short would set: full assertion diffs, short tracebacks. Without the terminal
            # plugin nothing is printed (nothing a student's output could flood), only reported here.
            config.option.verbose = 2
            config.option.tbstyle = 'short'

        def pytest_collectreport(self, report):
            if report.failed:
                send({'t': 'error', 'message': cap(report.longreprtext)})

        def pytest_collection_finish(self, session):
            items = []
            for item in session.items:
                marker = item.get_closest_marker('points')
                worth = 1
                if marker is not None:
                    value = marker.args[0] if marker.args else marker.kwargs.get('n')
                    worth = value if type(value) is int and 0 <= value <= 1000 else -1
                items.append({'id': item.nodeid, 'points': worth})
            send({'t': 'collected', 'items': items})

        def pytest_runtest_makereport(self, item, call):
            if call.when == 'call' and call.excinfo is not None:
                self.assertion[item.nodeid] = call.excinfo.errisinstance(AssertionError)

        def pytest_runtest_logreport(self, report):
            state = self.state.setdefault(report.nodeid, {'outcome': 'passed', 'message': '', 'output': []})
            for name, content in report.sections:
                if content and name.startswith('Captured ') and content not in state['output']:
                    state['output'].append(content)
            if report.passed or state['outcome'] != 'passed':
                return
            if report.skipped:
                reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longreprtext
                xfail = getattr(report, 'wasxfail', '')
                state['outcome'] = 'skipped'
                state['message'] = 'xfail: ' + xfail if xfail else str(reason)
            elif report.when == 'call':
                state['outcome'] = 'failed' if self.assertion.get(report.nodeid, False) else 'error'
                state['message'] = report.longreprtext
            else:
                state['outcome'] = 'error'
                state['message'] = '%s failed:\n%s' % (report.when, report.longreprtext)

        def pytest_runtest_logfinish(self, nodeid, location):
            state = self.state.pop(nodeid, {'outcome': 'error', 'message': 'No report.', 'output': []})
            send({'t': 'result', 'id': nodeid, 'outcome': state['outcome'],
                  'message': cap(state['message']), 'output': cap(''.join(state['output']))})
            if budget_ms > 0 and time.process_time() * 1000 > budget_ms:
                self.session.shouldstop = 'time limit'

        def pytest_sessionstart(self, session):
            self.session = session
            restore()

    plugin = Plugin()
    args = [test_file, '-c', '/dev/null', '--rootdir', '/job', '--noconftest',
            '-p', 'no:terminal', '-p', 'no:cacheprovider', '-p', 'no:stepwise', '-p', 'no:pastebin',
            '-p', 'no:junitxml', '-p', 'no:doctest', '-p', 'no:nose']
    try:
        code = pytest.main(args, plugins=[plugin])
    except BaseException as e:
        send({'t': 'error', 'message': cap('pytest stopped: %r' % (e,))})
        code = 3
    restore()
    stopped = plugin.session.shouldstop if hasattr(plugin, 'session') else False
    send({'t': 'done', 'exit': int(code), 'stopped': bool(stopped)})
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(0)

import sys
_kadai_pytest(sys.argv[1], int(sys.argv[2]))
`;

export function pytestArgv(testFile: string, budgetMs: number): string[] {
  return ['-S', '-c', PYTEST_HARNESS, testFile, String(budgetMs)];
}
