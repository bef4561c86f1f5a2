/**
 * The output half of the kernel's driver (kernel-driver.ts splices it in; it uses the driver's globals):
 * one execution's outputs with their shared budget, the thread that reads fd 1 and 2 (so output of
 * child processes and `os.write` arrive too), and the objects put in place of sys.stdout/sys.stderr.
 *
 * - Consecutive writes to one stream merge into one output, as nbformat expects.
 * - The budget counts UTF-8 bytes of text and base64 bytes of images; the output that crosses it is cut
 *   with a visible marker, and everything after it dropped. At most `MAX_OUTPUTS - 3` outputs come
 *   before the marker: the last places are kept for the marker and up to two errors.
 * - fd 1 and 2 are read by a thread (their pipes would otherwise fill and block a child process), and
 *   drained before each rich output (a value, display(), a figure) and at the end of each execution:
 *   such output may come after text Python printed meanwhile, never after a later rich output.
 */
export const CAPTURE = String.raw`
def size(text):
    return len(text) if text.isascii() else len(text.encode('utf-8', 'replace'))

def clip(text):
    return text if len(text) <= TEXT_CAP else text[:TEXT_CAP] + '\n' + MARK

class Outputs:
    def __init__(self):
        self.items, self.left, self.truncated = [], BUDGET, False

    def _fit(self, text):
        n = size(text)
        if n <= self.left:
            self.left -= n
            return text, False
        kept = text.encode('utf-8', 'replace')[:self.left].decode('utf-8', 'ignore')
        self.left, self.truncated = 0, True
        return kept, True

    def _room(self):
        # Two places stay free for errors, one for the marker.
        if len(self.items) < MAX_OUTPUTS - 3:
            return True
        self.truncated = True
        self.items.append({'output_type': 'stream', 'name': 'stderr', 'parts': [MARK + '\n']})
        return False

    def stream(self, name, text):
        with LOCK:
            if self.truncated or not text:
                return
            last = self.items[-1] if self.items else None
            if last is None or last.get('name') != name:
                if not self._room():
                    return
                last = {'output_type': 'stream', 'name': name, 'parts': []}
                self.items.append(last)
            kept, cut = self._fit(text)
            last['parts'].append(kept + ('\n' + MARK + '\n' if cut else ''))

    def rich(self, kind, data):
        # What child processes wrote to fd 1 and 2 before this output comes before it (a value shown
        # right after subprocess.run, say), even when the reading thread has not had its turn yet.
        settle()
        with LOCK:
            if self.truncated or not self._room():
                return
            fitted = {}
            for mime in ('text/plain', 'text/html'):
                if mime in data and not self.truncated:
                    kept, cut = self._fit(data[mime])
                    fitted[mime] = kept + ('\n' + MARK if cut else '')
            png = data.get('image/png')
            if png is not None and not self.truncated:
                if len(png) <= self.left:
                    self.left -= len(png)
                    fitted['image/png'] = png
                else:
                    self.truncated = True
                    fitted['text/plain'] = fitted.get('text/plain', '') + '\n' + MARK
            item = {'output_type': kind, 'data': fitted}
            if kind == 'execute_result':
                item['execution_count'] = COUNT
            self.items.append(item)

    def error(self, ename, evalue, lines):
        with LOCK:
            self.items.append({'output_type': 'error', 'ename': ename, 'evalue': evalue, 'traceback': lines})

    def finish(self):
        with LOCK:
            return [dict(output_type='stream', name=i['name'], text=''.join(i['parts'])) if 'parts' in i else i
                    for i in self.items]

CURRENT = Outputs()

def drain(fds):
    ended = []
    for fd in fds:
        while True:
            try:
                chunk = os.read(fd, 1 << 16)
            except BlockingIOError:
                break
            except OSError:
                chunk = b''
            if not chunk:
                ended.append(fd)
                break
            CURRENT.stream(STREAMS[fd], DECODERS[fd].decode(chunk))
    return ended

def pump():
    # The timer's signal must reach the main thread, where the user's code runs.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    fds = list(STREAMS)
    while fds:
        ready = select.select(fds, [], [])[0]
        with LOCK:
            for fd in drain(ready):
                fds.remove(fd)

threading.stack_size(256 << 10)
threading.Thread(target=pump, name='kernel-output', daemon=True).start()
threading.stack_size(0)

class Capture(io.TextIOBase):
    encoding, errors = 'utf-8', 'replace'

    def __init__(self, name, fd):
        self.name, self._stream, self._fd = '<%s>' % name, name, fd
        self.buffer = CaptureBytes(self)

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError('write() argument must be str, not ' + type(text).__name__)
        CURRENT.stream(self._stream, str.__str__(text))
        return len(text)

    def writable(self):
        return True

    def fileno(self):
        return self._fd

    def isatty(self):
        return False

    def flush(self):
        pass

    def close(self):
        pass  # a closed sys.stdout would break every later print

class CaptureBytes:
    def __init__(self, text):
        self._text = text

    def write(self, data):
        self._text.write(bytes(data).decode('utf-8', 'replace'))
        return len(data)

    def flush(self):
        pass

OUT, ERR = Capture('stdout', 1), Capture('stderr', 2)
`;
