# The test process's side of the data and control sockets (part of the harness: see harness.py).
#
# The link sends requests to the submission's process (worker.py) and waits for the answers, serving
# the callbacks it makes meanwhile; it starts that process, restarts it after a test that killed it, and
# holds every call to the test's limits: CPU time and the worker's own time (wall time waiting for it,
# less the time it spent waiting for a CPU: a busy host is not the student's doing). Time spent in the
# test's own code, in pytest, or serving callbacks is never counted. All of it runs in this trusted
# process, which never runs a line of the submission.
#
# CPU time: every message of the worker says how much it has used so far (its own clock, free to read),
# and each test is charged what that grew by. The worker could lie, so the supervisor — whose figures
# the worker cannot touch — is asked (a round trip that wakes two processes, about the cost of a call)
# whenever it matters: while a call runs long, when a test nears its limit, and every CHECK_EVERY tests.
# What it measured beyond what the worker said is charged to the test then running; beyond SLACK_NS (a
# worker that hid its CPU time), every test since the last check is judged over its limit: their results
# are held until then (`finish` returns the tests whose accounting is final).

import os as _os
import select as _select
import threading as _threading
import time as _time

DATA_FD, CONTROL_FD = 5, 6
CHECK_EVERY = 8
SLACK_NS = 30_000_000
MAX_FRAME = 32 << 20
INFRA_EXIT = 76
# Waiting this long for the supervisor, or for a new worker to say it is ready, is the host's fault.
HOST_PATIENCE = 60.0
_NCPU = max(1, min(_os.cpu_count() or 1, 4))


class TestCodeTimeout(BaseException):
    """The test's own code (not the submission's) ran far too long; a BaseException, so no `except
    Exception:` of the test's keeps it going."""


class TimeLimitExceeded(Exception):
    """The submission's code ran past this test's time limit; its process was stopped."""


class SubmissionEnded(Exception):
    """The submission's process ended (os._exit, a signal, its memory) while the test was using it."""


class SubmissionProtocolError(Exception):
    """The submission's process sent something it could not have sent honestly."""


class CannotCross(TypeError):
    """A value of the test that cannot be passed to the submission's code."""


class StaleObject(RuntimeError):
    """An object of a process of the submission that has been replaced since."""


class Budget:
    """One test's (or one import's) limits and what it has spent of them, in nanoseconds."""

    def __init__(self, cpu_ms, label='this test'):
        self.label = label
        self.cpu_limit = cpu_ms * 1_000_000
        self.own_limit = (2 * cpu_ms + 500) * 1_000_000
        self.hard_limit = self.own_limit * 20 + 60_000_000_000
        self.cpu = 0
        self.wall = 0
        self.delay = 0
        self.timed_out = False
        self.over_cpu = False
        self.ended = None        # how the process ended during it, when it did
        self.protocol = None
        self.memory = False
        self.touched = False
        self.harness_timeout = False
        self.hid_cpu = False

    @property
    def own(self):
        return max(0, self.wall - self.delay)

    def describe_timeout(self):
        if self.hid_cpu:
            return ('Stopped: the process of the submission used CPU time it did not account for, so %s and '
                    'those before it since the last check are judged over their limits.' % self.label)
        if self.over_cpu or self.cpu > self.cpu_limit:
            return ('Stopped: %s used more than %d ms of CPU time, its limit.'
                    % (self.label, self.cpu_limit // 1_000_000))
        return ('Stopped: %s waited or slept for more than %d ms (its CPU time limit is %d ms).'
                % (self.label, self.own_limit // 1_000_000, self.cpu_limit // 1_000_000))


def describe_status(status):
    if status is None or status < 0:
        return 'it was stopped'
    try:
        code = _os.waitstatus_to_exitcode(status)
    except ValueError:
        return 'wait status %d' % status
    if code < 0:
        import signal
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = 'signal %d' % -code
        hints = {'SIGSEGV': ' (a crash, or out of memory)', 'SIGKILL': ' (killed)', 'SIGXCPU': ' (CPU time)',
                 'SIGABRT': ' (aborted)'}
        return 'killed by %s%s' % (name, hints.get(name, ''))
    return 'exit code %d' % code


def _read_lines(fd, pending, most):
    """Reads what a non-blocking descriptor holds into `pending` and takes the whole lines out of it.
    Returns (lines, still open), or (None, …) when a line grows past `most` bytes."""
    open_ = True
    while True:
        try:
            chunk = _os.read(fd, 65536)
        except BlockingIOError:
            break
        except OSError:
            chunk = b''
        if not chunk:
            open_ = False
            break
        pending.extend(chunk)
        if len(pending) > most and pending.find(b'\n') < 0:
            return None, open_
    lines = []
    while True:
        end = pending.find(b'\n')
        if end < 0:
            return lines, open_
        lines.append(bytes(pending[:end]))
        del pending[:end + 1]


class Link:
    def __init__(self, codec, infra, on_output):
        self.codec = codec
        self.infra = infra                  # infra(message): report a host failure and leave
        self.on_output = on_output          # on_output(stdout_text, stderr_text)
        self.lock = _threading.RLock()
        self.inbox = []
        self.pending = bytearray()
        self.ctl_pending = bytearray()
        self.events = []
        self.seq = None                     # the live incarnation, when there is one
        self.ready = False
        self.gone = False                   # the worker sandbox itself has ended
        self.started = False                # `start` has been said to the worker sandbox
        self.asked = 0
        self.cpu_seen = 0                   # the supervisor's figure for the live incarnation, last asked
        self.delay_seen = 0
        self.said = 0                       # the worker's own figure, last told
        self.said_checked = 0               # … as it was at the supervisor's last figure
        self.unchecked = []                 # tests finished since the last check
        self.hid_cpu = False                # the worker said less than it used: the window is over
        self.budget = None
        self.default_budget = None
        self.serve_callback = None          # serve_callback(frame) -> reply frame
        self.on_restart = None              # on_restart(): re-import what the test had imported
        self.releases = []
        for fd in (DATA_FD, CONTROL_FD):
            _os.set_inheritable(fd, False)
            _os.set_blocking(fd, False)

    # ── the control socket ─────────────────────────────────────────────────────────────────────

    def _ctl_send(self, line):
        data = memoryview((line + '\n').encode())
        deadline = _time.monotonic() + HOST_PATIENCE
        while data:
            try:
                data = data[_os.write(CONTROL_FD, data):]
            except BlockingIOError:
                if _time.monotonic() > deadline:
                    self.infra('The worker sandbox stopped reading its control socket.')
                _select.select([], [CONTROL_FD], [], 1.0)
            except OSError:
                self._worker_gone()
                return

    def _ctl_pump(self):
        """Reads what the supervisor has said; returns False when the control socket has closed."""
        lines, open_ = _read_lines(CONTROL_FD, self.ctl_pending, 65536)
        for line in lines:
            self._ctl_line(line.decode('ascii', 'replace').split())
        if not open_:
            self._worker_gone()
        return open_

    def _ctl_line(self, parts):
        try:
            kind, seq = parts[0], int(parts[1])
            numbers = [int(p) for p in parts[2:]]
        except (IndexError, ValueError):
            self.infra('The supervisor said something unexpected: %r' % (parts,))
            return
        if kind == 'spawned':
            self.seq, self.ready = seq, False
            self.cpu_seen = self.delay_seen = self.said = self.said_checked = 0
        elif kind == 'exit':
            if seq == self.seq:
                self._checked(numbers[1], self.delay_seen)
                self._ended(numbers[0])
        else:
            self.events.append((kind, seq, numbers))

    def _worker_gone(self):
        if not self.gone:
            self.gone = True
            self.seq = None
            if self.budget is not None:
                self.budget.ended = self.budget.ended or 'the sandbox of the submission was stopped'
            self.worker_gone_hook()

    def worker_gone_hook(self):
        pass

    def _ended(self, status):
        self.seq = None
        self.ready = False
        if self.budget is not None and self.budget.ended is None:
            self.budget.ended = describe_status(status)

    def _ctl_ask(self, command, kind):
        """Sends a command (None: nothing) and waits for the supervisor's answer of that kind."""
        if command is not None:
            self._ctl_send(command)
        deadline = _time.monotonic() + HOST_PATIENCE
        while not self.gone:
            for i, event in enumerate(self.events):
                if event[0] == kind:
                    del self.events[i]
                    return event
            if kind == 'spawned' and self.seq is not None and not self.ready:
                return ('spawned', self.seq, [])
            left = deadline - _time.monotonic()
            if left <= 0:
                self.infra('The worker sandbox did not answer %r within %d s.' % (command, HOST_PATIENCE))
            _select.select([CONTROL_FD], [], [], left)
            self._ctl_pump()
        return None

    def _told(self, said):
        """The worker's own figure, on one of its messages: what it grew by is the running test's."""
        if type(said) is not int or said <= self.said:
            return
        if self.budget is not None:
            self.budget.cpu += said - self.said
        self.said = said

    def _checked(self, cpu, delay, quiet=False):
        """The supervisor's figure: what it grew by beyond what the worker said is charged now. `quiet`:
        no call is running (the worker has answered them all), so its word should be up to date."""
        budget = self.budget
        hidden = (cpu - self.cpu_seen) - (self.said - self.said_checked)
        if budget is not None:
            budget.cpu += max(0, hidden)
            budget.delay += max(0, delay - self.delay_seen)
        if quiet and hidden > SLACK_NS:
            self.hid_cpu = True
        self.cpu_seen, self.delay_seen = cpu, delay
        self.said = self.said_checked = max(self.said, cpu)

    def usage(self, quiet=False):
        if self.seq is None or self.gone:
            return
        answer = self._ctl_ask('usage', 'usage')
        if answer is None:
            return
        _, seq, (cpu, delay, alive) = answer
        if seq == self.seq:
            self._checked(cpu, delay, quiet)

    def kill(self):
        """Stops the live incarnation and everything it started; throws away what it had sent."""
        if self.seq is None or self.gone:
            return
        answer = self._ctl_ask('kill', 'killed')
        if answer is not None and answer[1] == self.seq:
            self._checked(answer[2][1], self.delay_seen)
        self.seq = None
        self.ready = False
        self._drain()

    def _drain(self):
        self.inbox.clear()
        self.pending.clear()
        while True:
            try:
                if not _os.read(DATA_FD, 65536):
                    break
            except (BlockingIOError, OSError):
                break

    # ── starting ───────────────────────────────────────────────────────────────────────────────

    def ensure(self):
        """A live, ready incarnation, with the test's modules imported again after a restart."""
        if self.gone:
            raise SubmissionEnded('The sandbox of the submission was stopped; nothing of it can run.')
        if self.seq is not None and self.ready:
            return
        restarted = False
        if self.seq is None:
            self._drain()
            if not self.started:
                # The worker sandbox waits for this before its supervisor even starts.
                self.started = True
                self._ctl_send('start')
            if self._ctl_ask('spawn', 'spawned') is None:
                raise SubmissionEnded('The sandbox of the submission was stopped; nothing of it can run.')
            restarted = True
        deadline = _time.monotonic() + HOST_PATIENCE
        while not self.inbox:
            left = deadline - _time.monotonic()
            if left <= 0:
                self.infra('A new process of the submission did not start within %d s.' % HOST_PATIENCE)
            ready = _select.select([DATA_FD, CONTROL_FD], [], [], left)[0]
            if CONTROL_FD in ready:
                self._ctl_pump()
            if self.seq is None:
                raise SubmissionEnded('A new process of the submission ended as it started.')
            if DATA_FD in ready:
                self._read_data()
        frame = self.inbox.pop(0)
        if frame.get('ready') != 1:
            self._protocol('a first message that is not "ready"')
        self.ready = True
        self.releases.clear()
        if restarted and self.on_restart is not None:
            self.on_restart()

    # ── the data socket ────────────────────────────────────────────────────────────────────────

    def _read_data(self):
        lines, _ = _read_lines(DATA_FD, self.pending, MAX_FRAME)
        if lines is None:
            self._protocol('a message over %d MiB' % (MAX_FRAME >> 20))
        for line in lines:
            try:
                self.inbox.append(self.codec.loads(line))
            except ValueError as e:
                self._protocol(str(e))

    def _protocol(self, what):
        self.kill()
        if self.budget is not None:
            self.budget.protocol = what
        raise SubmissionProtocolError('The process of the submission sent %s; it was stopped.' % what)

    def _send(self, frame, budget):
        data = memoryview(self.codec.dumps(frame))
        while data:
            try:
                data = data[_os.write(DATA_FD, data):]
            except BlockingIOError:
                self._wait_io(budget, write=True)
            except OSError:
                self._check_alive()
                raise SubmissionEnded('The process of the submission ended (%s).' % describe_status(-1))

    def _check_alive(self):
        self._ctl_pump()
        if self.seq is None:
            budget = self.budget
            raise SubmissionEnded('The process of the submission ended during this call (%s).'
                                  % (budget.ended if budget is not None and budget.ended else 'it was stopped'))

    def request(self, build):
        """Sends the request build() makes (once a process is ready: its handles must be current) and
        returns the answer frame, for the caller to decode."""
        with self.lock:
            self.ensure()
            budget = self.budget or self.default_budget
            if budget.timed_out:
                raise TimeLimitExceeded(budget.describe_timeout())
            if budget.ended is not None and budget is not self.default_budget:
                raise SubmissionEnded('The process of the submission ended earlier in this test (%s).' % budget.ended)
            frame = build()
            budget.touched = True
            self.asked += 1
            number = frame['i'] = self.asked
            if self.releases:
                frame['rel'] = self.releases[:]
                self.releases.clear()
            self._send(frame, budget)
            return self._wait(number, budget)

    def _wait_io(self, budget, write=False):
        """Waits for the worker (readable data, or room to write) within the budget's limits."""
        started = _time.monotonic_ns()
        while True:
            remaining_cpu = budget.cpu_limit - budget.cpu
            remaining_own = budget.own_limit - budget.own
            timeout = max(0.005, min(remaining_cpu / _NCPU, remaining_own) / 1e9)
            r, w, _ = _select.select([DATA_FD, CONTROL_FD], [DATA_FD] if write else [], [], timeout)
            now = _time.monotonic_ns()
            budget.wall += now - started
            started = now
            if CONTROL_FD in r:
                self._ctl_pump()
            if self.seq is None:
                self._check_alive()
            if w or (DATA_FD in r and not write):
                return
            if not r:
                self.usage()
                if self.seq is None:
                    self._check_alive()
                if budget.cpu > budget.cpu_limit or budget.own > budget.own_limit:
                    budget.timed_out = True
                    budget.over_cpu = budget.cpu > budget.cpu_limit
                    self.kill()
                    raise TimeLimitExceeded(budget.describe_timeout())
                if budget.wall > budget.hard_limit:
                    self.infra('The host was too busy: the submission waited %d s for a CPU in one test.'
                               % (budget.wall // 1_000_000_000))

    def _wait(self, number, budget):
        while True:
            while not self.inbox:
                self._wait_io(budget)
                self._read_data()
            frame = self.inbox.pop(0)
            self._told(frame.pop('c', None))
            out, err = frame.pop('o', None), frame.pop('e', None)
            if out or err:
                self.on_output(out, err)
            if 'i' in frame:
                # A callback: the test's own code, run here. Only time in _wait_io is the submission's.
                self._send(self.serve_callback(frame), budget)
                continue
            if frame.get('r') != number:
                self._protocol('an answer to a question that was not asked')
            return frame

    def released(self, seq, hid):
        if seq == self.seq:
            self.releases.append(hid)

    # ── budgets ────────────────────────────────────────────────────────────────────────────────

    def begin(self, budget):
        self.budget = budget

    def run_with(self, budget, fn):
        """fn() with `budget` in force (an import), closing its accounting before the previous returns."""
        with self.lock:
            saved, self.budget = self.budget, budget
            try:
                return fn()
            finally:
                if self.seq is not None and not self.gone and budget.touched:
                    self.usage(quiet=True)
                self.budget = saved

    def finish(self, budget, last=False):
        """Ends the test's budget. Returns the budgets whose accounting is now final, in order: this one,
        and those held since the supervisor was last asked when it is asked now."""
        with self.lock:
            self.budget = None
            if not budget.touched:
                return (self._close(True) if last else []) + [budget]
            self.unchecked.append(budget)
            return self._close(last or len(self.unchecked) >= CHECK_EVERY or budget.cpu * 2 > budget.cpu_limit)

    def _close(self, due):
        alive = self.seq is not None and not self.gone
        if not self.unchecked or (alive and not due):
            return []
        if alive:
            # What the supervisor finds beyond the worker's word goes to the last test that used it.
            self.budget = self.unchecked[-1]
            try:
                self.usage(quiet=True)
            finally:
                self.budget = None
        done, self.unchecked = self.unchecked, []
        for held in done:
            held.hid_cpu = self.hid_cpu
            if held.cpu > held.cpu_limit:
                held.over_cpu = True
        self.hid_cpu = False
        return done
