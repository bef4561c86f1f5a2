# The submission's process of a pytest test case: each incarnation of the worker of a paired run
# (packages/sandbox/src/pair.ts), started by the worker sandbox's supervisor, answering the test process
# (harness.py) on descriptor 3. It imports the submission's modules, keeps its objects in a table and
# does to them what the test asks: read an attribute, call, compare, iterate. Values go back through the
# codec (codec.py, prepended to this file): plain data by value, everything else as a handle.
#
# Everything here runs beside the student's code and is as untrusted as it: the test process believes
# nothing it says beyond values the code could have returned honestly, and measures time itself (through
# the supervisor). So this file keeps no secret and guards nothing; it only has to be right for honest
# code: faithful to what `import main` in the test's own process would have done.
#
# argv: <student modules, comma-separated> <assignment modules, comma-separated> <entry file> <out cap>


def _kadai_worker(argv):
    import builtins, importlib, math, operator, os, resource, site, sys, time, types
    sys.path.extend(p for p in site.getsitepackages() if os.path.isdir(p) and p not in sys.path)
    site.setquit()
    site.sethelper()
    sys.dont_write_bytecode = True
    modules = frozenset(m for m in argv[1].split(',') if m and m not in sys.stdlib_module_names)
    assignment_modules = frozenset(m for m in argv[2].split(',') if m)
    sys.argv = [argv[3]]
    out_cap = int(argv[4])
    sys.path.insert(0, '/job')
    DATA = 3
    os.set_inheritable(DATA, False)

    objects = {}      # handle id -> object (kept alive while the test holds a handle)
    handles = {}      # id(object) -> handle id
    counter = [0]
    described = set()
    pending_types = {}
    callbacks = {}

    def handle_of(obj):
        hid = handles.get(id(obj))
        if hid is None or objects.get(hid) is not obj:
            counter[0] += 1
            hid = counter[0]
            objects[hid] = obj
            handles[id(obj)] = hid
        return hid

    def release(hid):
        obj = objects.pop(hid, None)
        if obj is not None and handles.get(id(obj)) == hid:
            del handles[id(obj)]

    # ── classes: each described once to the test process ───────────────────────────────────────────

    SPECIALS = (
        '__len__', '__iter__', '__next__', '__contains__', '__getitem__', '__setitem__', '__delitem__',
        '__call__', '__bool__', '__eq__', '__ne__', '__lt__', '__le__', '__gt__', '__ge__', '__hash__',
        '__str__', '__format__', '__reversed__', '__enter__', '__exit__', '__length_hint__',
        '__neg__', '__pos__', '__abs__', '__invert__', '__int__', '__float__', '__index__', '__complex__',
        '__round__', '__trunc__', '__floor__', '__ceil__',
        '__add__', '__radd__', '__iadd__', '__sub__', '__rsub__', '__isub__', '__mul__', '__rmul__',
        '__imul__', '__truediv__', '__rtruediv__', '__itruediv__', '__floordiv__', '__rfloordiv__',
        '__ifloordiv__', '__mod__', '__rmod__', '__imod__', '__pow__', '__rpow__', '__ipow__',
        '__matmul__', '__rmatmul__', '__imatmul__', '__and__', '__rand__', '__iand__', '__or__', '__ror__',
        '__ior__', '__xor__', '__rxor__', '__ixor__', '__lshift__', '__rlshift__', '__ilshift__',
        '__rshift__', '__rrshift__', '__irshift__', '__divmod__', '__rdivmod__',
    )
    BUILTIN_EXCEPTIONS = {name for name, value in vars(builtins).items()
                          if isinstance(value, type) and issubclass(value, BaseException)}

    def is_builtin(obj):
        name = getattr(obj, '__name__', None)
        return type(name) is str and getattr(builtins, name, None) is obj

    def path_of(cls):
        module = sys.modules.get(getattr(cls, '__module__', None))
        qualname = getattr(cls, '__qualname__', '')
        if module is None or type(qualname) is not str or '<' in qualname:
            return None
        found = module
        for part in qualname.split('.'):
            found = getattr(found, part, None)
        return [cls.__module__] + qualname.split('.') if found is cls else None

    def class_ref(cls):
        hid = handle_of(cls)
        if hid not in described:
            described.add(hid)
            pending_types[str(hid)] = describe(cls)
        return hid

    def describe(cls):
        student = cls.__module__ in modules
        fields = getattr(cls, '_fields', None)
        if issubclass(cls, BaseException):
            kind = 'x'
        elif issubclass(cls, tuple) and cls.__bases__ == (tuple,) and isinstance(fields, tuple):
            kind = 'n'
        elif student:
            kind = 's'
        else:
            kind = 'o'
        desc = {'k': kind, 'n': str(cls.__name__), 'q': str(cls.__qualname__), 'm': str(cls.__module__),
                'p': path_of(cls)}
        doc = cls.__dict__.get('__doc__')
        if student and type(doc) is str:
            desc['d'] = doc[:4000]
        if kind in ('s', 'x'):
            desc['b'] = [class_ref(b) for b in cls.__bases__ if b.__module__ in modules]
        if kind == 'x':
            desc['eb'] = [b.__name__ for b in cls.__mro__
                          if b.__name__ in BUILTIN_EXCEPTIONS and getattr(builtins, b.__name__) is b
                          and issubclass(b, Exception)]
            return desc
        if kind == 'n':
            desc['f'] = [str(f) for f in fields]
            return desc
        if kind == 's':
            methods = set()
            for klass in cls.__mro__:
                if klass.__module__ not in modules:
                    continue
                for name, attr in vars(klass).items():
                    if not name.startswith('__') and isinstance(attr, (types.FunctionType, staticmethod, classmethod)):
                        methods.add(name)
            desc['me'] = sorted(methods)
        specials = []
        for name in SPECIALS:
            attr = getattr(cls, name, None)
            if name == '__hash__':
                if attr is None:
                    specials.append('nohash')
                elif attr is not object.__hash__:
                    specials.append(name)
            elif attr is not None and attr is not getattr(object, name, None):
                specials.append(name)
        desc['sp'] = specials
        return desc

    # ── values ────────────────────────────────────────────────────────────────────────────────────

    def encode_other(codec, v, st):
        t = type(v)
        if isinstance(v, type):
            return ['B', v.__name__] if is_builtin(v) else ['C', class_ref(v)]
        if issubclass(t, tuple) and t.__bases__ == (tuple,) and hasattr(t, '_fields'):
            return ['nt', class_ref(t)] + [codec.enc(x, st) for x in v] if t.__module__ in modules else None
        if isinstance(v, BaseException):
            return encode_exception(v, st)
        if t is types.ModuleType and v.__name__ in modules:
            return ['M', v.__name__]
        if t is types.BuiltinFunctionType and is_builtin(v):
            return ['B', v.__name__]
        if t is Callback:
            return ['cb', v.number]
        if t is TestObject:
            return ['ob', v.number]
        for base, plain in ((bool, None), (int, int.__int__), (float, float.__float__), (str, str.__str__),
                            (bytes, bytes), (complex, complex), (list, list.copy), (dict, dict.copy),
                            (tuple, lambda x: tuple.__getitem__(x, slice(None))), (set, set.copy),
                            (frozenset, frozenset), (bytearray, bytearray)):
            if isinstance(v, base):
                if plain is None:
                    break
                return codec.enc(plain(v), st)
        return ['h', handle_of(v), class_ref(t)]

    def exception_type_ref(cls):
        if cls.__name__ in BUILTIN_EXCEPTIONS and is_builtin(cls):
            return ['B', cls.__name__]
        if cls.__module__ in modules:
            return ['C', class_ref(cls)]
        return ['X', '%s.%s' % (cls.__module__, cls.__qualname__)]

    def encode_exception(e, st=None):
        try:
            message = str(e)
        except BaseException:
            message = '<str() of the exception failed>'
        args = []
        for arg in getattr(e, 'args', ()):
            try:
                args.append(codec.encode(arg))
            except BaseException:
                args.append(safe_repr(arg))
        return ['x', exception_type_ref(type(e)), args, message[:4000]]

    def safe_repr(value):
        try:
            return repr(value)[:1000]
        except BaseException:
            return '<repr() failed>'

    def decode_other(codec, v, st):
        tag = v[0]
        if tag in ('h', 'C'):
            hid = v[1] if len(v) > 1 else None
            if hid not in objects:
                raise LookupError('an object this process does not hold (it was restarted?)')
            return objects[hid]
        if tag == 'p':
            if len(v) < 3 or not all(type(part) is str for part in v[1:]) or v[1] not in modules:
                raise LookupError('a bad path')
            found = importlib.import_module(v[1])
            for part in v[2:]:
                found = getattr(found, part)
            return found
        if tag == 'M':
            if len(v) != 2 or v[1] not in modules:
                raise LookupError('not a module of the submission')
            return importlib.import_module(v[1])
        if tag == 'B':
            found = builtins
            for part in str(v[1]).split('.'):
                found = getattr(found, part)
            return found
        if tag == 'cb':
            number = v[1]
            found = callbacks.get(number)
            if found is None:
                found = callbacks[number] = Callback(number)
            return found
        if tag == 'nt':
            cls = codec.dec(v[1], st)
            return cls(*(codec.dec(x, st) for x in v[2:]))
        if tag == 'bm':
            return getattr(codec.dec(v[1], st), str(v[2]))
        if tag == 'ob':
            number = v[1]
            found = callbacks.get(('ob', number))
            if found is None:
                found = callbacks[('ob', number)] = TestObject(number)
            return found
        if tag == 'x':
            cls = codec.dec(v[1], st) if v[1][0] != 'X' else Exception
            args = tuple(codec.dec(a, st) for a in v[2])
            if cls is Exception and v[1][0] == 'X':
                return Exception('%s: %s' % (v[1][1], v[3]))
            if cls.__module__ == 'builtins':
                return cls(*args)
            error = cls.__new__(cls)
            error.args = args
            return error
        raise LookupError('an unknown value tag %r' % (tag,))

    codec = Codec(encode_other, decode_other, assignment_modules)

    # ── output and input ──────────────────────────────────────────────────────────────────────────

    class Capture:
        """sys.stdout and sys.stderr: what the code prints goes to the test with the next message."""

        def __init__(self, key):
            self.key = key
            self.parts = []
            self.size = 0
            self.cut = False
            self.buffer = _Bytes(self)

        def write(self, text):
            if type(text) is not str:
                raise TypeError('write() argument must be str, not %s' % type(text).__name__)
            if self.size < out_cap:
                self.parts.append(text[:out_cap - self.size])
                self.size += len(text)
            elif not self.cut:
                self.cut = True
                self.parts.append('\n… (output truncated)\n')
            return len(text)

        def writelines(self, lines):
            for line in lines:
                self.write(line)

        def take(self):
            text = ''.join(self.parts)
            self.parts = []
            return text

        def flush(self):
            pass

        def isatty(self):
            return False

        def fileno(self):
            raise OSError('the output of code under test has no file descriptor')

        encoding = 'utf-8'
        errors = 'strict'
        closed = False

    class _Bytes:
        def __init__(self, text):
            self.text = text

        def write(self, data):
            self.text.write(bytes(data).decode('utf-8', 'replace'))
            return len(data)

        def flush(self):
            pass

    stdout, stderr = Capture('o'), Capture('e')
    sys.stdout, sys.stderr = stdout, stderr

    def take_output(frame):
        for stream in (stdout, stderr):
            if stream.parts:
                frame[stream.key] = stream.take()
        stdout.size = stderr.size = 0

    class Lines:
        """Iterating a file object: its lines, by readline(), to the first empty one."""

        def __iter__(self):
            return self

        def __next__(self):
            line = self.readline()
            if not line:
                raise StopIteration
            return line

    class Stdin(Lines):
        """sys.stdin: read from the test process's sys.stdin (what a test gives with monkeypatch)."""

        def read(self, size=-1):
            return ask({'op': 'stdin', 'n': 'read', 'a': codec.encode([size])})

        def readline(self, size=-1):
            return ask({'op': 'stdin', 'n': 'readline', 'a': codec.encode([size])})

        def readlines(self, hint=-1):
            return ask({'op': 'stdin', 'n': 'readlines', 'a': codec.encode([hint])})

        def isatty(self):
            return False

        def fileno(self):
            raise OSError('the standard input of code under test has no file descriptor')

        encoding = 'utf-8'
        closed = False

    sys.stdin = Stdin()

    def kadai_input(prompt=''):
        return ask({'op': 'input', 'p': codec.encode(str(prompt))})

    builtins.input = kadai_input

    class Callback:
        """A function of the test, passed in: calling it runs it in the test process."""

        def __init__(self, number):
            self.number = number

        def __call__(self, *args, **kwargs):
            return ask({'op': 'cb', 'f': self.number, 'a': codec.encode(list(args)),
                        'k': codec.encode(dict(kwargs))})

        def __repr__(self):
            return '<function of the test>'

    class TestObject(Lines):
        """A file-like object of the test (io.StringIO, io.BytesIO): its methods run in the test process."""

        def __init__(self, number):
            self.number = number

        def __getattr__(self, name):
            if name not in ('write', 'writelines', 'read', 'readline', 'readlines', 'getvalue', 'seek', 'tell',
                            'truncate', 'flush'):
                raise AttributeError(name)
            return lambda *args, **kwargs: ask({'op': 'ob', 'f': self.number, 'n': name,
                                                'a': codec.encode(list(args)), 'k': codec.encode(dict(kwargs))})

        def __enter__(self):
            return self

        def __exit__(self, *args):
            return False

        def __repr__(self):
            return '<file of the test>'

    # ── the socket ────────────────────────────────────────────────────────────────────────────────

    inbox = []
    pending = bytearray()
    asked = [0]

    def send(frame):
        # What this process (and the children it waited for) has used so far, on every message: the test
        # process charges each test what it grew by, and has the supervisor check it now and then.
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        frame['c'] = time.process_time_ns() + int((children.ru_utime + children.ru_stime) * 1e9)
        if pending_types:
            frame['ty'] = dict(pending_types)
            pending_types.clear()
        data = memoryview(codec.dumps(frame))
        while data:
            data = data[os.write(DATA, data):]

    def receive():
        while not inbox:
            chunk = os.read(DATA, 65536)
            if not chunk:
                os._exit(0)
            pending.extend(chunk)
            while True:
                end = pending.find(b'\n')
                if end < 0:
                    break
                inbox.append(codec.loads(bytes(pending[:end])))
                del pending[:end + 1]
        return inbox.pop(0)

    def ask(frame):
        """A request to the test process (a callback, input); serves its requests while waiting."""
        asked[0] += 1
        number = frame['i'] = asked[0]
        take_output(frame)
        send(frame)
        while True:
            message = receive()
            if 'i' in message:
                serve(message)
            elif message.get('r') == number:
                if 'x' in message:
                    raise codec.decode(message['x'])
                return codec.decode(message.get('v'))
            else:
                os._exit(0)

    # ── what the test can ask ─────────────────────────────────────────────────────────────────────

    def public_names(module):
        names = getattr(module, '__all__', None)
        if isinstance(names, (list, tuple)) and all(type(n) is str for n in names):
            return list(names)
        return [n for n in vars(module) if not n.startswith('_')]

    def op_import(f):
        name = f.get('m')
        if name not in modules:
            raise ImportError('%s is not a module of the submission' % (name,))
        if f.get('reload') and name in sys.modules:
            module = importlib.reload(sys.modules[name])
        else:
            module = importlib.import_module(name)
        return {'all': public_names(module), 'doc': module.__doc__ if type(module.__doc__) is str else None}, None

    def arguments(f):
        args = codec.decode(f.get('a', ['l']))
        kwargs = codec.decode(f.get('k', ['d']))
        if type(args) is not list or type(kwargs) is not dict or not all(type(k) is str for k in kwargs):
            raise TypeError('bad arguments')
        return args, kwargs

    def copied_back(f, args, kwargs):
        back = {}
        mut = f.get('mut')
        if mut:
            back['mb'] = [[i, codec.encode(args[i])] for i in mut if type(i) is int and 0 <= i < len(args)]
        mutk = f.get('mutk')
        if mutk:
            back['mbk'] = [[k, codec.encode(kwargs[k])] for k in mutk if k in kwargs]
        return back

    def op_call(f):
        target = codec.decode(f['t'])
        args, kwargs = arguments(f)
        result = target(*args, **kwargs)
        return result, copied_back(f, args, kwargs)

    def op_callm(f):
        target = getattr(codec.decode(f['t']), f['n'])
        args, kwargs = arguments(f)
        result = target(*args, **kwargs)
        return result, copied_back(f, args, kwargs)

    def op_get(f):
        return getattr(codec.decode(f['t']), f['n']), None

    def op_set(f):
        setattr(codec.decode(f['t']), f['n'], codec.decode(f['v']))
        return None, None

    def op_del(f):
        delattr(codec.decode(f['t']), f['n'])
        return None, None

    OPERATORS = {
        'len': len, 'iter': iter, 'next': next, 'contains': lambda o, x: x in o,
        'getitem': operator.getitem, 'setitem': operator.setitem, 'delitem': operator.delitem,
        'bool': bool, 'str': str, 'repr': repr, 'format': format, 'hash': hash, 'dir': dir,
        'eq': operator.eq, 'ne': operator.ne, 'lt': operator.lt, 'le': operator.le, 'gt': operator.gt,
        'ge': operator.ge, 'reversed': reversed, 'length_hint': operator.length_hint,
        'enter': lambda o: o.__enter__(), 'exit': lambda o, *a: o.__exit__(*a),
        'neg': operator.neg, 'pos': operator.pos, 'abs': abs, 'invert': operator.invert, 'int': int,
        'float': float, 'index': operator.index, 'complex': complex, 'round': round, 'trunc': math.trunc,
        'floor': math.floor, 'ceil': math.ceil, 'copy': lambda o: __import__('copy').copy(o),
        'deepcopy': lambda o: __import__('copy').deepcopy(o),
        'divmod': divmod, 'rdivmod': lambda a, b: divmod(b, a), 'pow': pow, 'rpow': lambda a, b: pow(b, a),
    }
    for name in ('add', 'sub', 'mul', 'truediv', 'floordiv', 'mod', 'matmul', 'and', 'or', 'xor',
                 'lshift', 'rshift'):
        binary = getattr(operator, name + '_' if name in ('and', 'or') else name)
        OPERATORS[name] = binary
        OPERATORS['r' + name] = (lambda f: lambda a, b: f(b, a))(binary)
        OPERATORS['i' + name] = getattr(operator, 'i' + name)
    OPERATORS['ipow'] = operator.ipow

    def op_op(f):
        fn = OPERATORS.get(f.get('n'))
        if fn is None:
            raise TypeError('an unknown operation')
        args, _ = arguments(f)
        return fn(*args), None

    OPS = {'import': op_import, 'call': op_call, 'callm': op_callm, 'get': op_get, 'set': op_set,
           'del': op_del, 'op': op_op}

    sources = {}

    def source_line(path, number):
        # Not linecache or traceback: their imports compile regular expressions (20 ms of a worker).
        if path not in sources:
            try:
                with open(path, encoding='utf-8', errors='replace') as f:
                    sources[path] = f.read(1 << 20).split('\n')
            except OSError:
                sources[path] = []
        lines = sources[path]
        return lines[number - 1].strip() if 0 < number <= len(lines) else ''

    def student_traceback(e):
        lines = []
        tb = e.__traceback__
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename.startswith('/job/'):
                lines.append('  File "%s", line %s, in %s' % (code.co_filename[5:], tb.tb_lineno, code.co_name))
                line = source_line(code.co_filename, tb.tb_lineno)
                if line:
                    lines.append('    ' + line)
            tb = tb.tb_next
        return '\n'.join(lines[-40:])[-8000:]

    def serve(frame):
        number = frame.get('i')
        for hid in frame.get('rel') or ():
            release(hid)
        try:
            fn = OPS.get(frame.get('op'))
            if fn is None:
                raise ValueError('an unknown request')
            value, extra = fn(frame)
            reply = {'r': number, 'v': codec.encode(value)}
            if extra:
                reply.update(extra)
        except BaseException as e:
            try:
                reply = {'r': number, 'x': encode_exception(e), 'tb': student_traceback(e)}
            except BaseException:
                reply = {'r': number, 'x': ['x', ['B', 'RuntimeError'], [], 'an exception that cannot be described']}
        take_output(reply)
        send(reply)

    send({'ready': 1})
    while True:
        message = receive()
        if 'i' not in message:
            os._exit(0)
        serve(message)


import sys
_kadai_worker(sys.argv)
