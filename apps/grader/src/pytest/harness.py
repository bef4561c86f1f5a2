# The test process of a pytest test case, run in a sandbox of its own as the main program of a paired
# run (packages/sandbox/src/pair.ts). Preceded by codec.py and link.py in one `python3 -I -S -c` script.
#
# It collects and runs the teacher's test module with Debian's pytest, and never runs a line of the
# submission: `import main` (any of the submission's modules) gives a proxy, and what the test does with
# it — calls, attribute reads, comparisons, iteration — happens in the submission's own process
# (worker.py) in the other sandbox. Plain data comes back by value, so comparisons run here; objects of
# the submission's classes stay there as handles. The verdict of every test is decided here and sent on
# descriptor 4, one JSON object a line (see apps/grader/src/pytest-results.ts).
#
# argv: <test file> <mode: run|collect> <default limit ms> <memory MB> <student modules>
#       <assignment modules> <student files> <modules to stand in for (collect)>

import builtins as _builtins_h
import importlib as _importlib
import io as _io
import sys as _sys
import types as _types
import weakref as _weakref

# pytest leaves out of a test's traceback every frame of a module with this: all of this script's.
__tracebackhide__ = True
LINK = None
CODEC = None
OBJECTS = None
STUDENT_MODULES = frozenset()
ASSIGNMENT_MODULES = frozenset()
STUB_MODULES = frozenset()
STUDENT_FILES = ()
DEFAULT_LIMIT_MS = 2000
MEMORY_MB = 256
RESULTS = 4

# Builtins the submission may hand back by name: types, exceptions and functions without effects.
_SAFE_BUILTINS = {'abs', 'all', 'any', 'ascii', 'bin', 'callable', 'chr', 'divmod', 'format', 'hash',
                  'hex', 'id', 'isinstance', 'issubclass', 'iter', 'len', 'max', 'min', 'next', 'oct',
                  'ord', 'pow', 'repr', 'round', 'sorted', 'sum', 'zip', 'map', 'filter', 'enumerate',
                  'reversed'}
_STREAM_METHODS = ('write', 'writelines', 'read', 'readline', 'readlines', 'getvalue', 'seek', 'tell',
                   'truncate', 'flush')
# Names Python and pytest look up on any object to learn what it is: answered here, without a round trip.
_PROBES = frozenset({'__wrapped__', '__test__', '__signature__', '__pytest_wrapped__', '__func__',
                     '__array_interface__', '__array_struct__', '__array_priority__', '__origin__',
                     '__mro_entries__', '__fspath__', '_pytestfixturefunction', '__unittest_skip__'})


def _remote():
    if OBJECTS is None:
        raise RuntimeError('The submission cannot be reached in this mode.')
    return OBJECTS


def _is_builtin(obj):
    name = getattr(obj, '__name__', None)
    return type(name) is str and getattr(_builtins_h, name, None) is obj


# ── proxies ─────────────────────────────────────────────────────────────────────────────────────

class RemoteObject:
    """An object of the submission's process: what is done to it is done there."""
    __slots__ = ('_kadai_seq', '_kadai_hid', '_kadai_path', '__weakref__')
    _kadai_generated = True
    _kadai_methods = frozenset()

    def __init_subclass__(cls, **kwargs):
        if not cls.__dict__.get('_kadai_generated'):
            raise TypeError('A class of the submission cannot be subclassed in a test: its objects live '
                            'in the submission\'s own process.')
        super().__init_subclass__(**kwargs)

    def __getattr__(self, name):
        if name.startswith('_kadai') or name in _PROBES:
            raise AttributeError(name)
        if name in type(self)._kadai_methods:
            return RemoteMethod(self, name)
        return _remote().get(self, name)

    def __setattr__(self, name, value):
        if name.startswith('_kadai'):
            object.__setattr__(self, name, value)
        else:
            _remote().set(self, name, value)

    def __delattr__(self, name):
        _remote().delete(self, name)

    def __dir__(self):
        return _remote().op('dir', self)

    def __repr__(self):
        try:
            text = _remote().op('repr', self)
        except Exception:
            return '<%s object of the submission>' % type(self).__name__
        return text if type(text) is str else '<%s object of the submission>' % type(self).__name__

    def __copy__(self):
        return _remote().op('copy', self)

    def __deepcopy__(self, memo):
        return _remote().op('deepcopy', self)

    def __reduce_ex__(self, protocol):
        raise TypeError('An object of the submission cannot be pickled in a test.')

    def __del__(self):
        try:
            LINK.released(self._kadai_seq, self._kadai_hid)
        except Exception:
            pass


class RemoteMethod:
    """`obj.method` of a submission's object: calling it is one round trip."""
    __slots__ = ('owner', 'name')

    def __init__(self, owner, name):
        self.owner = owner
        self.name = name

    def __call__(self, *args, **kwargs):
        return _remote().call(self.owner, args, kwargs, method=self.name)

    def __getattr__(self, name):
        if name in _PROBES:
            raise AttributeError(name)
        return getattr(_remote().get(self.owner, self.name), name)

    def __repr__(self):
        return '<bound method %s.%s of the submission>' % (type(self.owner).__name__, self.name)


def _unary(op):
    return lambda self: _remote().op(op, self)


def _binary(op):
    return lambda self, other: _remote().op(op, self, other)


def _compare(op):
    # Compared with a plain value, an object of the submission is never equal to it: asking its __eq__
    # would hand the test's expected value to the submission (which could then say "equal" to anything).
    def method(self, other):
        if isinstance(other, RemoteObject):
            return _remote().op(op, self, other)
        return NotImplemented
    return method


def _optional(op):
    def method(self, *args):
        return _remote().op(op, self, *args)
    return method


def _exit(self, kind, value, traceback):
    try:
        _remote().encodable(value)
    except Exception:
        kind, value = None, None
    return _remote().op('exit', self, kind, value, None)


_FORWARD = {
    '__len__': _unary('len'), '__iter__': _unary('iter'), '__next__': _unary('next'),
    '__contains__': _binary('contains'), '__getitem__': _binary('getitem'),
    '__setitem__': lambda self, key, value: _remote().op('setitem', self, key, value),
    '__delitem__': _binary('delitem'),
    '__call__': lambda self, *args, **kwargs: _remote().call(self, args, kwargs),
    '__bool__': _unary('bool'), '__hash__': _unary('hash'), '__str__': _unary('str'),
    '__format__': _binary('format'), '__reversed__': _unary('reversed'), '__enter__': _unary('enter'),
    '__exit__': _exit, '__length_hint__': _unary('length_hint'),
    '__eq__': _compare('eq'), '__ne__': _compare('ne'), '__lt__': _compare('lt'), '__le__': _compare('le'),
    '__gt__': _compare('gt'), '__ge__': _compare('ge'),
    '__neg__': _unary('neg'), '__pos__': _unary('pos'), '__abs__': _unary('abs'),
    '__invert__': _unary('invert'), '__int__': _unary('int'), '__float__': _unary('float'),
    '__index__': _unary('index'), '__complex__': _unary('complex'), '__round__': _optional('round'),
    '__trunc__': _unary('trunc'), '__floor__': _unary('floor'), '__ceil__': _unary('ceil'),
    '__divmod__': _binary('divmod'), '__rdivmod__': _binary('rdivmod'), '__pow__': _optional('pow'),
    '__rpow__': _binary('rpow'), '__ipow__': _binary('ipow'),
}
for _name in ('add', 'sub', 'mul', 'truediv', 'floordiv', 'mod', 'matmul', 'and', 'or', 'xor', 'lshift',
              'rshift'):
    for _prefix in ('', 'r', 'i'):
        _FORWARD['__%s%s__' % (_prefix, _name)] = _binary(_prefix + _name)


class RemoteMeta(type):
    """The metaclass of the submission's classes as the test sees them: calling one builds an object
    there, and its attributes are read there."""

    def __call__(cls, *args, **kwargs):
        return _remote().call(cls, args, kwargs)

    def __getattr__(cls, name):
        if name.startswith('_kadai') or name in _PROBES or (name.startswith('__') and name.endswith('__')):
            raise AttributeError(name)
        return _remote().get(cls, name)

    def __setattr__(cls, name, value):
        if name.startswith('_kadai') or (name.startswith('__') and name.endswith('__')):
            type.__setattr__(cls, name, value)
        else:
            _remote().set(cls, name, value)

    def __delattr__(cls, name):
        _remote().delete(cls, name)

    def __dir__(cls):
        return _remote().op('dir', cls)


def _exception_str(self):
    message = self.__dict__.get('_kadai_message')
    if message is not None:
        return message
    for klass in type(self).__mro__:
        if klass.__module__ == 'builtins':
            return klass.__str__(self)
    return Exception.__str__(self)


class RemoteError(Exception):
    """An exception of the submission whose class the test cannot know (a library's, say)."""


class SubmissionInterrupt(Exception):
    """The submission raised KeyboardInterrupt or GeneratorExit: reported, never obeyed here."""


class SubmissionImportError(ImportError):
    def __init__(self, message, reason=None):
        super().__init__(message)
        self.reason = reason


class SubmissionModule(_types.ModuleType):
    """A module of the submission, as `import main` gives it to the test."""

    def __getattr__(self, name):
        if name.startswith('__') and name.endswith('__') or name.startswith('_kadai'):
            raise AttributeError(name)
        return _remote().get_module_attribute(self.__name__, name)

    def __setattr__(self, name, value):
        if name.startswith('__') and name.endswith('__') or name.startswith('_kadai'):
            super().__setattr__(name, value)
        else:
            _remote().set(self, name, value)

    def __delattr__(self, name):
        if name.startswith('__') and name.endswith('__'):
            super().__delattr__(name)
        else:
            _remote().delete(self, name)

    def __dir__(self):
        return _remote().op('dir', self)


class _Stub:
    """Collecting without a solution: every name of the submission exists and does nothing."""

    def __call__(self, *args, **kwargs):
        return self

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        return self

    def __iter__(self):
        return iter(())

    def __repr__(self):
        return '<stand-in for the submission>'


class StubModule(_types.ModuleType):
    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        return _Stub()


class SubmissionFinder:
    """`import main` of any of the submission's modules: a proxy, never the file (which is not here)."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        top = fullname.partition('.')[0]
        if top not in STUDENT_MODULES:
            return None
        if top != fullname:
            raise ModuleNotFoundError('No module named %r (%s.py is a module, not a package)' % (fullname, top),
                                      name=fullname)
        return _importlib.machinery.ModuleSpec(fullname, SubmissionLoader(), origin='/job/%s.py' % fullname)


class SubmissionLoader:
    @staticmethod
    def create_module(spec):
        stub = OBJECTS is None or spec.name in STUB_MODULES
        return (StubModule if stub else SubmissionModule)(spec.name)

    @staticmethod
    def exec_module(module):
        if isinstance(module, SubmissionModule):
            OBJECTS.import_module(module.__name__, module, reload=module.__name__ in OBJECTS.imported)


# ── the submission's objects, types and the test's callbacks ────────────────────────────────────

class Objects:
    def __init__(self, link, codec):
        self.link = link
        self.codec = codec
        self.proxies = _weakref.WeakValueDictionary()   # (seq, hid) -> proxy
        self.descriptors = {}                           # (seq, tid) -> descriptor
        self.mirrors = {}                               # (seq, tid) or path -> class
        self.callbacks = {}                             # number -> the test's object
        self.callback_numbers = {}                      # id(object) -> number
        self.imported = []                              # modules imported, in order
        self.modules = {}
        link.serve_callback = self.serve_callback
        link.on_restart = self.reimport

    # types ─────────────────────────────────────────────────────────────────────────────────────

    def register(self, types_map):
        if not types_map:
            return
        if type(types_map) is not dict:
            self.link._protocol('a malformed class description')
        for tid, desc in types_map.items():
            try:
                tid = int(tid)
            except ValueError:
                self.link._protocol('a malformed class description')
            if type(desc) is not dict or type(desc.get('n')) is not str or type(desc.get('q')) is not str \
                    or type(desc.get('m')) is not str or desc.get('k') not in ('s', 'x', 'n', 'o'):
                self.link._protocol('a malformed class description')
            self.descriptors[(self.link.seq, tid)] = desc

    def mirror(self, tid):
        if type(tid) is not int:
            raise CodecError('a malformed class reference')
        seq = self.link.seq
        found = self.mirrors.get((seq, tid))
        if found is not None:
            return found
        desc = self.descriptors.get((seq, tid))
        if desc is None:
            raise CodecError('a class that was never described')
        path = desc.get('p')
        key = tuple(path) if type(path) is list and path and all(type(p) is str for p in path) else None
        cls = self.mirrors.get(key) if key else None
        if cls is None:
            cls = self._build(desc, key)
            if key:
                self.mirrors[key] = cls
        cls._kadai_tids[seq] = tid
        self.mirrors[(seq, tid)] = cls
        return cls

    def _build(self, desc, path):
        kind, name = desc['k'], desc['n']
        doc = desc.get('d') if type(desc.get('d')) is str else None
        common = {'__module__': desc['m'], '__qualname__': desc['q'], '_kadai_generated': True,
                  '_kadai_mirror': True, '_kadai_class_path': list(path) if path else None, '_kadai_tids': {}}
        if kind == 'n':
            fields = desc.get('f')
            if type(fields) is not list or not all(type(f) is str for f in fields):
                raise CodecError('a malformed namedtuple description')
            try:
                cls = _collections.namedtuple(name, fields, rename=True)
            except ValueError:
                cls = _collections.namedtuple('Record', fields, rename=True)
            for key, value in common.items():
                setattr(cls, key, value)
            return cls
        bases = tuple(self.mirror(b) for b in desc.get('b') or () if type(b) is int)
        if kind == 'x':
            builtin_bases = tuple(getattr(_builtins_h, n) for n in desc.get('eb') or ()
                                  if type(n) is str and isinstance(getattr(_builtins_h, n, None), type)
                                  and issubclass(getattr(_builtins_h, n), Exception))
            namespace = dict(common, __str__=_exception_str, __doc__=doc)
            for candidate in (bases or builtin_bases[:1] or (Exception,), (Exception,)):
                try:
                    return type(name, candidate, namespace)
                except TypeError:
                    continue
        namespace = dict(common, __slots__=(), __doc__=doc,
                         _kadai_methods=frozenset(m for m in desc.get('me') or () if type(m) is str))
        specials = desc.get('sp') or ()
        for special in specials:
            if special in _FORWARD:
                namespace[special] = _FORWARD[special]
        if 'nohash' in specials:
            namespace['__hash__'] = None
        elif '__hash__' not in specials:
            namespace['__hash__'] = object.__hash__
        if kind != 's' and '__doc__' not in specials:
            namespace['__doc__'] = property(lambda self: _remote().get(self, '__doc__'))
        return RemoteMeta(name, bases or (RemoteObject,), namespace)

    def class_ref(self, cls):
        tid = cls._kadai_tids.get(self.link.seq)
        if tid is not None:
            return ['C', tid]
        if cls._kadai_class_path:
            return ['p'] + cls._kadai_class_path
        raise StaleObject('%s was a class of a process of the submission that has been replaced since (after a '
                          'time limit or a crash in an earlier test).' % cls.__qualname__)

    # objects ───────────────────────────────────────────────────────────────────────────────────

    def proxy(self, hid, tid):
        if type(hid) is not int:
            raise CodecError('a malformed handle')
        seq = self.link.seq
        found = self.proxies.get((seq, hid))
        if found is not None:
            return found
        cls = self.mirror(tid)
        if not issubclass(cls, RemoteObject):
            raise CodecError('a handle of a class that is not an object class')
        obj = object.__new__(cls)
        object.__setattr__(obj, '_kadai_seq', seq)
        object.__setattr__(obj, '_kadai_hid', hid)
        object.__setattr__(obj, '_kadai_path', None)
        self.proxies[(seq, hid)] = obj
        if hid in self.link.releases:
            self.link.releases.remove(hid)
        return obj

    def ref(self, obj):
        if obj._kadai_seq == self.link.seq:
            return ['h', obj._kadai_hid]
        if obj._kadai_path:
            return ['p'] + obj._kadai_path
        raise StaleObject('This object belonged to a process of the submission that has been replaced since '
                          '(after a time limit or a crash in an earlier test); make it again in this test.')

    def callback_number(self, obj):
        number = self.callback_numbers.get(id(obj))
        if number is None or self.callbacks.get(number) is not obj:
            number = len(self.callbacks) + 1
            self.callbacks[number] = obj
            self.callback_numbers[id(obj)] = number
        return number

    # values ────────────────────────────────────────────────────────────────────────────────────

    def encode_other(self, codec, v, st):
        if isinstance(v, RemoteObject):
            return self.ref(v)
        if isinstance(v, (SubmissionModule, StubModule)):
            return ['M', v.__name__]
        t = type(v)
        if isinstance(v, type):
            if _is_builtin(v):
                return ['B', v.__name__]
            if v.__dict__.get('_kadai_mirror'):
                return self.class_ref(v)
            raise CannotCross('The class %s of the test cannot be passed to the submission\'s code (only plain '
                              'data, the submission\'s own objects and functions cross).' % v.__qualname__)
        if issubclass(t, tuple) and hasattr(t, '_fields'):
            if t.__dict__.get('_kadai_mirror'):
                return ['nt', self.class_ref(t)] + [codec.enc(x, st) for x in v]
            return None
        if isinstance(v, BaseException):
            return self.encode_exception(v)
        if t is _types.BuiltinFunctionType and _is_builtin(v):
            return ['B', v.__name__]
        if t in (_types.MethodDescriptorType, _types.WrapperDescriptorType, _types.ClassMethodDescriptorType) \
                and _is_builtin(getattr(v, '__objclass__', None)):
            return ['B', '%s.%s' % (v.__objclass__.__name__, v.__name__)]
        if isinstance(v, RemoteMethod):
            return ['bm', self.ref(v.owner), v.name]
        if isinstance(v, (_io.StringIO, _io.BytesIO)):
            return ['ob', self.callback_number(v)]
        if callable(v):
            return ['cb', self.callback_number(v)]
        raise CannotCross('A %s of the test cannot be passed to the submission\'s code: only plain data (numbers, '
                          'strings, lists, dicts, sets, tuples, …), the submission\'s own objects and the '
                          'test\'s functions cross.' % t.__qualname__)

    def encode_exception(self, e):
        cls = type(e)
        if _is_builtin(cls):
            ref = ['B', cls.__name__]
        elif cls.__dict__.get('_kadai_mirror') and cls._kadai_tids.get(self.link.seq) is not None:
            ref = ['C', cls._kadai_tids[self.link.seq]]
        else:
            ref = ['X', '%s.%s' % (cls.__module__, cls.__qualname__)]
        args = []
        for arg in e.args:
            try:
                args.append(self.codec.encode(arg))
            except Exception:
                args.append(repr(arg)[:1000])
        return ['x', ref, args, str(e)[:4000]]

    def encodable(self, value):
        self.codec.encode(value)

    def decode_other(self, codec, v, st):
        tag = v[0]
        if tag == 'h':
            return self.proxy(v[1], v[2] if len(v) > 2 else None)
        if tag == 'C':
            return self.mirror(v[1])
        if tag == 'B':
            parts = str(v[1]).split('.')
            found = getattr(_builtins_h, parts[0], None)
            if not (isinstance(found, type) or parts[0] in _SAFE_BUILTINS) or len(parts) > 2:
                raise CodecError('a builtin the submission may not hand back')
            if len(parts) == 2:
                found = getattr(found, parts[1])
            return found
        if tag == 'M':
            if v[1] not in STUDENT_MODULES:
                raise CodecError('a module that is not the submission\'s')
            return _importlib.import_module(v[1])
        if tag == 'nt':
            cls = self.mirror(v[1])
            if not (issubclass(cls, tuple) and hasattr(cls, '_fields')):
                raise CodecError('a namedtuple of a class that is not one')
            return cls(*(codec.dec(x, st) for x in v[2:]))
        if tag == 'x':
            return self.decode_exception(v, st)
        if tag in ('cb', 'ob'):
            found = self.callbacks.get(v[1])
            if found is None:
                raise CodecError('a function of the test that was never passed')
            return found
        raise CodecError('a value of an unknown kind')

    def decode_exception(self, v, st):
        if len(v) != 4 or type(v[1]) is not list or not v[1] or type(v[2]) is not list or type(v[3]) is not str:
            raise CodecError('a malformed exception')
        ref, message = v[1], v[3]
        args = tuple(self.codec.dec(a, st) for a in v[2])
        cls = None
        if ref[0] == 'B':
            found = getattr(_builtins_h, str(ref[1]), None)
            if isinstance(found, type) and issubclass(found, BaseException):
                cls = found
        elif ref[0] == 'C':
            found = self.mirror(ref[1])
            if issubclass(found, BaseException):
                cls = found
        if cls is None:
            return RemoteError('%s: %s' % (ref[1] if len(ref) > 1 else '?', message))
        if cls in (KeyboardInterrupt, GeneratorExit) or not issubclass(cls, Exception) and cls is not SystemExit:
            return SubmissionInterrupt('The submission raised %s%s' % (cls.__name__, ': ' + message if message else ''))
        try:
            error = cls(*args)
        except Exception:
            error = cls.__new__(cls)
            error.args = args
        if cls.__dict__.get('_kadai_mirror'):
            error._kadai_message = message
        return error

    # requests ──────────────────────────────────────────────────────────────────────────────────

    def _exchange(self, build, arguments=None):
        def frame():
            return build()
        answer = self.link.request(frame)
        return self.answer(answer, arguments)

    def answer(self, frame, arguments=None):
        self.register(frame.get('ty'))
        if 'x' in frame:
            error = self.codec.decode(frame['x'])
            trace = frame.get('tb')
            if type(trace) is str and trace:
                try:
                    error._kadai_traceback = trace
                except Exception:
                    pass
            if isinstance(error, MemoryError) and self.link.budget is not None:
                self.link.budget.memory = True
            raise error
        value = self.codec.decode(frame.get('v'))
        if arguments is not None:
            args, kwargs = arguments
            for back in frame.get('mb') or ():
                if type(back) is list and len(back) == 2 and type(back[0]) is int and 0 <= back[0] < len(args):
                    update_in_place(args[back[0]], self.codec.decode(back[1]))
            for back in frame.get('mbk') or ():
                if type(back) is list and len(back) == 2 and back[0] in kwargs:
                    update_in_place(kwargs[back[0]], self.codec.decode(back[1]))
        return value

    def call(self, target, args, kwargs, method=None):
        args = list(args)

        def build():
            frame = {'op': 'callm' if method else 'call', 't': self._target(target),
                     'a': self.codec.encode(args), 'k': self.codec.encode(dict(kwargs))}
            if method:
                frame['n'] = method
            mut = [i for i, a in enumerate(args) if is_mutable_argument(a, ASSIGNMENT_MODULES)]
            if mut:
                frame['mut'] = mut
            mutk = [k for k, a in kwargs.items() if is_mutable_argument(a, ASSIGNMENT_MODULES)]
            if mutk:
                frame['mutk'] = mutk
            return frame
        return self.answer(self.link.request(build), (args, kwargs))

    def _target(self, target):
        if isinstance(target, RemoteObject):
            return self.ref(target)
        if isinstance(target, SubmissionModule):
            return ['M', target.__name__]
        if isinstance(target, type) and target.__dict__.get('_kadai_mirror'):
            return self.class_ref(target)
        raise TypeError('not an object of the submission')

    def get(self, target, name):
        value = self.answer(self.link.request(lambda: {'op': 'get', 't': self._target(target), 'n': name}))
        if isinstance(target, SubmissionModule):
            path = [target.__name__]
        elif isinstance(target, type):
            path = target.__dict__.get('_kadai_class_path')
        else:
            path = target._kadai_path
        if isinstance(value, RemoteObject) and value._kadai_path is None and path:
            object.__setattr__(value, '_kadai_path', list(path) + [name])
        return value

    def get_module_attribute(self, module, name):
        return self.get(_sys.modules[module], name)

    def set(self, target, name, value):
        self.answer(self.link.request(
            lambda: {'op': 'set', 't': self._target(target), 'n': name, 'v': self.codec.encode(value)}))

    def delete(self, target, name):
        self.answer(self.link.request(lambda: {'op': 'del', 't': self._target(target), 'n': name}))

    def op(self, name, *operands):
        return self.answer(self.link.request(
            lambda: {'op': 'op', 'n': name, 'a': self.codec.encode(list(operands)), 'k': ['d']}))

    # imports ───────────────────────────────────────────────────────────────────────────────────

    def import_module(self, name, module, reload=False):
        budget = Budget(DEFAULT_LIMIT_MS, 'importing %s.py' % name)
        try:
            answer = self.link.run_with(budget, lambda: self.link.request(
                lambda: {'op': 'import', 'm': name, 'reload': bool(reload)}))
            result = self.answer(answer)
        except TimeLimitExceeded:
            raise SubmissionImportError(
                '%s.py did not finish being imported: %s (Is there an endless loop, or slow work, at the top '
                'level of the file? Put it in a function or under `if __name__ == "__main__":`.)'
                % (name, budget.describe_timeout()), 'time_limit') from None
        except SubmissionEnded as e:
            raise SubmissionImportError('%s.py ended its process while it was being imported (%s).'
                                        % (name, budget.ended or e), 'ended') from None
        except SubmissionProtocolError as e:
            raise SubmissionImportError('%s.py could not be imported: %s' % (name, e)) from None
        except (StaleObject, CannotCross):
            raise
        except Exception as e:
            raise SubmissionImportError(explain_student_import(name, e),
                                        'memory_limit' if isinstance(e, MemoryError) else None) from None
        if type(result) is dict and type(result.get('all')) is list:
            names = [n for n in result['all'] if type(n) is str]
            _types.ModuleType.__setattr__(module, '__all__', names)
            if type(result.get('doc')) is str:
                _types.ModuleType.__setattr__(module, '__doc__', result['doc'])
        if name not in self.imported:
            self.imported.append(name)

    def reimport(self):
        for name in list(self.imported):
            module = _sys.modules.get(name)
            if isinstance(module, SubmissionModule):
                try:
                    self.import_module(name, module)
                except SubmissionImportError as e:
                    raise SubmissionEnded('The submission\'s process was restarted after an earlier test, and '
                                          'importing it again failed: %s' % e) from None

    # callbacks ─────────────────────────────────────────────────────────────────────────────────

    def serve_callback(self, frame):
        number = frame.get('i')
        try:
            self.register(frame.get('ty'))
            op = frame.get('op')
            if op == 'input':
                result = _builtins_h.input(self.codec.decode(frame.get('p', '')))
            elif op == 'stdin':
                method = frame.get('n')
                if method not in ('read', 'readline', 'readlines'):
                    raise ValueError('an unknown stdin method')
                result = getattr(_sys.stdin, method)(*self._arguments(frame)[0])
            elif op in ('cb', 'ob'):
                target = self.callbacks.get(frame.get('f'))
                if target is None:
                    raise LookupError('a function of the test that was never passed')
                args, kwargs = self._arguments(frame)
                if op == 'ob':
                    method = frame.get('n')
                    if method not in _STREAM_METHODS:
                        raise AttributeError('%s has no usable attribute %r' % (type(target).__name__, method))
                    target = getattr(target, method)
                result = target(*args, **kwargs)
            else:
                raise ValueError('an unknown request')
            return {'r': number, 'v': self.codec.encode(result)}
        except OSError as e:
            if 'reading from stdin while output is captured' in str(e):
                e = OSError('input() was called (or sys.stdin read), but this test gives the code no input')
            return {'r': number, 'x': self.encode_exception(e)}
        except Exception as e:
            return {'r': number, 'x': self.encode_exception(e)}
        except BaseException:
            # pytest.fail(), pytest.skip() in the test's callback: the test ends here, and the submission's
            # process, halfway through the call, is stopped (not charged).
            self.link.kill()
            raise

    def _arguments(self, frame):
        args = self.codec.decode(frame.get('a', ['l']))
        kwargs = self.codec.decode(frame.get('k', ['d']))
        if type(args) is not list or type(kwargs) is not dict or not all(type(k) is str for k in kwargs):
            raise TypeError('bad arguments')
        return args, kwargs


def explain_student_import(name, e):
    """The last, meaningful line first; then where in the submission's files it happened."""
    trace = getattr(e, '_kadai_traceback', '') or ''
    where = ''
    import re
    places = re.findall(r'^  File "(.*)", line (\d+), in (.*)$', trace, re.M)
    if places:
        file, line, function = places[-1]
        where = ', %s, line %s%s' % (file, line, '' if function == '<module>' else ', in ' + function)
    if isinstance(e, OSError) and 'gives the code no input' in str(e):
        head = ('%s.py calls input() when it is imported%s. Code under test must not read input at import: '
                'put the reading under `if __name__ == "__main__":`.' % (name, where and ' (' + where[2:] + ')'))
    elif isinstance(e, SystemExit):
        head = '%s.py called exit() or sys.exit() when it was imported%s.' % (name, where and ' (' + where[2:] + ')')
    else:
        head = '%s: %s\n(raised by %s.py when the tests imported it%s)' % (type(e).__name__, e, name, where)
    return head + ('\n\n' + trace if trace else '')
