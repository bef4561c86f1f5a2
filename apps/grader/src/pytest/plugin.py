# The pytest side of the harness (the last part of the script: codec.py, link.py, harness.py, this).
#
# Records on descriptor 4, one JSON object a line (read by apps/grader/src/pytest-results.ts):
#   {"t": "ready"}                                   pytest is imported (else exit 75: no pytest here)
#   {"t": "error", "message", "reason", "cause"}     the module could not be collected, and why; `cause`
#                                                    says it again as data ({"code", "module", "name",
#                                                    "file", "line", "files", "detail"}) for a reader's
#                                                    own language, `detail` the words it leaves out
#   {"t": "collected", "items": [{"id", "points", "limit"}]}
#   {"t": "result", "id", "outcome", "message", "output", "cpu_ms", "memory"}
#   {"t": "worker-gone"}                             the submission's sandbox ended under us
#   {"t": "infra", "message"}                        the host failed us: exit 76, the run is retried
#   {"t": "done", "exit"}                            the end; the process leaves with os._exit


def _kadai_main(argv):
    global LINK, CODEC, OBJECTS, STUDENT_MODULES, ASSIGNMENT_MODULES, STUDENT_FILES, DEFAULT_LIMIT_MS, MEMORY_MB
    global STUB_MODULES
    import os, site
    sys = _sys
    sys.path.extend(p for p in site.getsitepackages() if os.path.isdir(p) and p not in sys.path)
    site.setquit()
    site.sethelper()
    sys.dont_write_bytecode = True
    for key in [k for k in os.environ if k.startswith('PYTEST') or k.startswith('PY_COLORS')]:
        del os.environ[key]
    os.environ['PYTEST_DISABLE_PLUGIN_AUTOLOAD'] = '1'
    os.set_inheritable(RESULTS, False)
    test_file, mode = argv[1], argv[2]
    DEFAULT_LIMIT_MS, MEMORY_MB = int(argv[3]), int(argv[4])
    # A submitted random.py is the submission's own module there; here `import random` stays the library.
    STUDENT_MODULES = frozenset(m for m in argv[5].split(',') if m and m not in sys.stdlib_module_names)
    ASSIGNMENT_MODULES = frozenset(m for m in argv[6].split(',') if m)
    STUDENT_FILES = tuple(f for f in argv[7].split(',') if f)
    # Collecting without one of the submission's files: those modules are stand-ins that have every name.
    STUB_MODULES = frozenset(m for m in argv[8].split(',') if m) if len(argv) > 8 else frozenset()
    STUDENT_MODULES |= STUB_MODULES
    import gc, json, signal, time

    current = [None]  # the budget of the test running now

    def test_overran(number, frame):
        if current[0] is not None:
            current[0].harness_timeout = True
        raise TestCodeTimeout('The test\'s own code ran too long.')
    signal.signal(signal.SIGPROF, test_overran)
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

    def leave(code):
        send({'t': 'done', 'exit': int(code)})
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(0)

    def infra(message):
        send({'t': 'infra', 'message': str(message)[:2000]})
        os._exit(INFRA_EXIT)

    # Start-up: no collections while ~270 modules load, and a stand-in for importlib.metadata (and the
    # email/zipfile/csv modules it loads), which pluggy and pytest import only to look for plugin entry
    # points: autoload is off. Both end when the session starts, before the test module loads.
    gc.disable()
    metadata = _types.ModuleType('importlib.metadata')
    metadata.distributions = lambda **kw: iter(())
    metadata.entry_points = lambda **kw: ()
    sys.modules['importlib.metadata'] = _importlib.metadata = metadata

    def restore():
        if sys.modules.get('importlib.metadata') is metadata:
            del sys.modules['importlib.metadata'], _importlib.metadata
        gc.enable()

    try:
        import pytest
    except ImportError as e:
        sys.stderr.write('kadai: pytest is not installed for /usr/bin/python3: %s\n' % e)
        os._exit(75)
    send({'t': 'ready'})

    def on_output(out, err):
        if out:
            sys.stdout.write(out)
        if err:
            sys.stderr.write(err)

    CODEC = Codec(lambda c, v, st: OBJECTS.encode_other(c, v, st),
                  lambda c, v, st: OBJECTS.decode_other(c, v, st), ASSIGNMENT_MODULES)
    LINK = Link(CODEC, infra, on_output)
    LINK.default_budget = Budget(DEFAULT_LIMIT_MS, 'code run while the tests were collected')
    told = []

    def gone():
        if not told:
            told.append(1)
            send({'t': 'worker-gone'})
    LINK.worker_gone_hook = gone
    OBJECTS = Objects(LINK, CODEC)

    kadai = _types.ModuleType('kadai')
    kadai.__doc__ = 'Helpers for Kadai test files.'

    def points(n):
        """What a test is worth (default 1): @points(2) def test_x(): ..."""
        return pytest.mark.points(n)

    def time_limit(ms):
        """This test's own CPU time limit in milliseconds: @time_limit(5000) def test_big(): ..."""
        return pytest.mark.time_limit(ms)

    kadai.points = points
    kadai.time_limit = time_limit
    sys.modules['kadai'] = kadai
    sys.path.insert(0, '/job')
    sys.meta_path.insert(0, SubmissionFinder)

    def limit_of(item):
        marker = item.get_closest_marker('time_limit')
        if marker is not None:
            value = marker.args[0] if marker.args else marker.kwargs.get('ms')
            return value if type(value) is int and 1 <= value <= 60000 else -1
        marker = item.get_closest_marker('timeout')
        if marker is not None:
            value = marker.args[0] if marker.args else marker.kwargs.get('timeout')
            return int(value * 1000) if type(value) in (int, float) and 0 < value <= 60 else -1
        return DEFAULT_LIMIT_MS

    def remote_trace(error):
        seen = set()
        while error is not None and id(error) not in seen:
            seen.add(id(error))
            trace = getattr(error, '_kadai_traceback', None)
            if trace:
                return trace
            error = error.__cause__ or error.__context__
        return None

    def result_of(budget):
        nodeid, state, own = budget.item
        outcome, message = state['outcome'], state['message']
        if budget.harness_timeout:
            outcome, message = 'error', ('The test\'s own code (not the submission\'s) ran for more than %d s '
                                         'of CPU time and was stopped.' % own)
        elif budget.hid_cpu or budget.timed_out or budget.over_cpu:
            outcome, message = 'time_limit', budget.describe_timeout()
        elif budget.ended is not None:
            outcome = 'error'
            message = 'The process of the submission ended during this test (%s).\n%s' % (budget.ended, message)
        elif budget.protocol is not None:
            outcome = 'error'
        elif budget.memory and outcome != 'passed':
            message = 'The submission ran out of memory (its limit is %d MB).\n%s' % (MEMORY_MB, message)
        return {'t': 'result', 'id': nodeid, 'outcome': outcome, 'message': cap(message.strip()),
                'output': cap(''.join(state['output'])), 'cpu_ms': budget.cpu // 1_000_000,
                'memory': budget.memory}

    class Plugin:
        def __init__(self):
            self.state = {}
            self.assertion = {}
            self.limits = {}

        def pytest_configure(self, config):
            config.addinivalue_line('markers', 'points(n): what the test is worth (a whole number, default 1)')
            config.addinivalue_line('markers', 'time_limit(ms): the test\'s own CPU time limit in milliseconds')
            config.addinivalue_line('markers', 'timeout(seconds): the test\'s own time limit (as pytest-timeout)')
            # What -vv --tb=short would set: full assertion diffs, short tracebacks. Without the terminal
            # plugin nothing is printed, only reported here.
            config.option.verbose = 2
            config.option.tbstyle = 'short'

        def pytest_sessionstart(self, session):
            self.session = session
            restore()

        def pytest_collection(self, session):
            # The test module is imported here first (assertions are rewritten by now), so that an error
            # in it, or in importing the submission, is told in words a student can act on. pytest's own
            # collection then finds it imported.
            try:
                _importlib.import_module(os.path.basename(test_file)[:-3])
            except BaseException as e:
                reason = 'time_limit' if isinstance(e, TimeLimitExceeded) else getattr(e, 'reason', None)
                message, cause = explain_collection(e, test_file)
                cause['detail'] = cap(cause.get('detail', ''))
                send({'t': 'error', 'message': cap(message), 'reason': reason, 'cause': cause})
                leave(2)

        def pytest_collectreport(self, report):
            if report.failed:
                text = cap(report.longreprtext)
                send({'t': 'error', 'message': text,
                      'cause': {'code': 'collection_error', 'file': os.path.basename(test_file), 'detail': text}})

        def pytest_collection_finish(self, session):
            items = []
            for item in session.items:
                marker = item.get_closest_marker('points')
                worth = 1
                if marker is not None:
                    value = marker.args[0] if marker.args else marker.kwargs.get('n')
                    worth = value if type(value) is int and 0 <= value <= 1000 else -1
                limit = self.limits[item.nodeid] = limit_of(item)
                items.append({'id': item.nodeid, 'points': worth, 'limit': limit})
            send({'t': 'collected', 'items': items})

        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_protocol(self, item, nextitem):
            budget = current[0] = Budget(max(1, self.limits.get(item.nodeid, DEFAULT_LIMIT_MS)))
            if LINK is not None:
                LINK.begin(budget)
            # The test's own code (not the submission's) is stopped too, after far longer: CPU time of this
            # process, which waiting for the submission does not use.
            own = max(10_000, 5 * budget.cpu_limit // 1_000_000) / 1000
            signal.setitimer(signal.ITIMER_PROF, own)
            try:
                yield
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
                current[0] = None
            state = self.state.pop(item.nodeid, {'outcome': 'error', 'message': 'No report.', 'output': []})
            budget.item = (item.nodeid, state, own)
            final = [budget]
            if LINK is not None:
                if budget.harness_timeout:
                    LINK.kill()  # it may have been stopped halfway through a message
                final = LINK.finish(budget, last=nextitem is None)
                if budget.memory:
                    LINK.kill()  # what a MemoryError left half-built is not the next test's
            # A test's CPU time is final once the supervisor has checked it: its record waits till then.
            for done in final:
                send(result_of(done))

        def pytest_runtest_makereport(self, item, call):
            if call.excinfo is None:
                return
            if call.when == 'call':
                self.assertion[item.nodeid] = call.excinfo.errisinstance(AssertionError)
            trace = remote_trace(call.excinfo.value)
            if trace:
                self.state.setdefault(item.nodeid, {'outcome': 'passed', 'message': '', 'output': []})['trace'] = trace

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
                return
            if report.when == 'call':
                state['outcome'] = 'failed' if self.assertion.get(report.nodeid, False) else 'error'
                state['message'] = report.longreprtext
            else:
                state['outcome'] = 'error'
                state['message'] = '%s failed:\n%s' % (report.when, report.longreprtext)
            if state.get('trace'):
                state['message'] += '\n\nIn the submission:\n' + state['trace']

    plugin = Plugin()
    args = [test_file, '-c', '/dev/null', '--rootdir', '/job', '--noconftest',
            '-p', 'no:terminal', '-p', 'no:cacheprovider', '-p', 'no:stepwise', '-p', 'no:pastebin',
            '-p', 'no:junitxml', '-p', 'no:doctest', '-p', 'no:nose']
    if mode != 'run':
        args.append('--collect-only')
    try:
        code = pytest.main(args, plugins=[plugin])
    except BaseException as e:
        detail = cap(repr(e))
        send({'t': 'error', 'message': 'pytest stopped: ' + detail,
              'cause': {'code': 'pytest_error', 'detail': detail}})
        code = 3
    restore()
    leave(code)


def explain_collection(e, test_file):
    """
    Why the test module could not be imported: the meaningful line first, then where; and the same as a
    cause the check shows in the reader's language (its `detail`: the words of Python or the submission
    that the code's sentence leaves out).
    """
    import os
    import traceback
    name = os.path.basename(test_file)
    if isinstance(e, SubmissionImportError):
        return str(e), submission_import_cause(e)
    if isinstance(e, SyntaxError):
        file = os.path.basename(e.filename or name)
        where = '%s, line %s' % (file, e.lineno)
        text = (e.text or '').rstrip('\n')
        caret = ''
        if text and e.offset:
            stripped = text.lstrip()
            caret = '\n    ' + ' ' * max(0, e.offset - 1 - (len(text) - len(stripped))) + '^'
            text = stripped
        detail = '%s%s%s' % (e.msg, '\n    ' + text if text else '', caret)
        cause = {'code': 'syntax_error', 'file': file, 'detail': detail}
        if type(e.lineno) is int:
            cause['line'] = e.lineno
        return '%s: %s' % (where, detail), cause
    frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename.startswith('/job/')]
    where = ' (%s, line %d)' % (os.path.basename(frames[-1].filename), frames[-1].lineno) if frames else ''
    # Where it happened: the test module, or a helper file of the assignment it imports.
    place = {'file': os.path.basename(frames[-1].filename), 'line': frames[-1].lineno} if frames else {'file': name}
    if isinstance(e, ModuleNotFoundError) and e.name and e.name.partition('.')[0] not in STUDENT_MODULES:
        return (('%s imports the module %r%s, which is neither a file of the submission (%s) nor one of the '
                 'assignment\'s files. Is the module\'s name right?'
                 % (name, e.name, where, ', '.join(STUDENT_FILES) or 'none')),
                dict(place, code='unknown_module', module=e.name, files=list(STUDENT_FILES)))
    if isinstance(e, ImportError) and e.name in STUDENT_MODULES and str(e).startswith('cannot import name'):
        import re
        missing = re.match(r"cannot import name '([^']*)'", str(e))
        cause = dict(place, code='missing_name', module=e.name)
        if missing:
            cause['name'] = missing.group(1)
        return (('%s imports %s from %s.py%s, but %s.py does not define it.'
                 % (name, missing.group(1) if missing else 'a name', e.name, where, e.name)), cause)
    detail = '%s: %s' % (type(e).__name__, e)
    message = '%s\n(raised by %s when it was imported%s)' % (detail, name, where and ', ' + where[2:-1])
    if frames:
        trace = '\n\n' + ''.join(traceback.format_list(frames)).rstrip()
        message += trace
        detail += trace
    trace = getattr(e, '_kadai_traceback', None)
    if trace:
        message += '\n\nIn the submission:\n' + trace
        detail += '\n\nIn the submission:\n' + trace
    return message, dict(place, code='import_error', detail=detail)


def submission_import_cause(e):
    """The cause of a submission's module that could not be imported (Objects.import_module's words)."""
    module = None
    tb = e.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code is Objects.import_module.__code__:
            module = tb.tb_frame.f_locals.get('name')
        tb = tb.tb_next
    # The exception import_module caught and explained (raised `from None`, still its context).
    inner = e.__context__
    trace = getattr(inner, '_kadai_traceback', '') or ''
    if e.reason == 'time_limit':
        cause = {'code': 'submission_time_limit', 'detail': str(inner or '')}
    elif e.reason == 'ended':
        cause = {'code': 'submission_ended', 'detail': str(inner or '')}
    elif isinstance(inner, OSError) and 'gives the code no input' in str(inner):
        cause = {'code': 'submission_input', 'detail': trace}
    elif isinstance(inner, SystemExit):
        cause = {'code': 'submission_exit', 'detail': trace}
    elif inner is not None and not isinstance(inner, SubmissionProtocolError):
        cause = {'code': 'submission_error',
                 'detail': '%s: %s%s' % (type(inner).__name__, inner, '\n\n' + trace if trace else '')}
    else:
        cause = {'code': 'submission_error', 'detail': str(inner or e)}
    if type(module) is str:
        cause['module'] = module
    return cause


_kadai_main(_sys.argv)
