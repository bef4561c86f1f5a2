# Values between the test process (harness.py) and the submission's process (worker.py): one JSON object
# a line on the data socket. Plain data crosses by value, built afresh on the other side, so nothing of
# the sender's classes comes with it; everything else goes through each side's hooks (the submission's
# objects as handles, the test's functions as callbacks).
#
# A value is a JSON scalar (None, bool, int, float, str) or a list whose first element is a tag:
#   ['l', ...] list    ['t', ...] tuple    ['d', k, v, ...] dict    ['s', ...] set    ['f', ...] frozenset
#   ['b', b64] bytes   ['y', b64] bytearray   ['c', re, im] complex   ['r', start, stop, step] range
#   ['I', hex] an int too long for JSON (Python refuses over 4,300 digits)   ['E'] Ellipsis
#   ['Q', n, d] Fraction   ['D', text] Decimal   ['dt'|'da'|'ti', iso] datetime, date, time
#   ['td', days, seconds, us] timedelta   ['od'|'ct', k, v, ...] OrderedDict, Counter
#   ['dd', factory, k, v, ...] defaultdict   ['dq', maxlen, ...] deque   ['@', n] the n-th list, dict,
#   set or object of this value again (shared or cyclic)   ['NT', name, fields, ...] a namedtuple
#   ['A', module, qualname, state] an object of a class of the assignment's own files, by its state
#   ['np', dtype, shape, b64] a numpy array   ['ns', dtype, value] a numpy scalar
# Anything else is a side's hook: ['h', ...] handles, ['cb', n] callbacks, ['x', ...] exceptions, ...
#
# Decoding trusts nothing: a malformed value raises CodecError, and so does any failure while building
# it (a dict key that cannot be hashed, a bad date); nesting is limited to MAX_DEPTH.

# Only what every value needs is imported up front (start-up is most of a small run's cost); the types
# of other modules are recognised by their module's name and their module imported when one comes.
import binascii as _binascii
import sys as _codec_sys

try:
    # The json package's own modules compile regular expressions when imported (20 ms of a worker's
    # start-up): its C scanner and encoder are all a frame needs.
    import _json

    class _Scanning:
        strict = True
        object_hook = None
        object_pairs_hook = None
        parse_float = float
        parse_int = int
        parse_constant = {'NaN': float('nan'), 'Infinity': float('inf'), '-Infinity': float('-inf')}.__getitem__
        memo = {}

    _scan = _json.make_scanner(_Scanning())

    def _unencodable(value):
        raise TypeError('not JSON')

    _encode = _json.make_encoder(None, _unencodable, _json.encode_basestring_ascii, None, ':', ',', False, False,
                                 True)

    def _json_dumps(frame):
        return ''.join(_encode(frame, 0))

    def _json_loads(line):
        try:
            frame, end = _scan(line, 0)
        except StopIteration:
            raise ValueError('no JSON value') from None
        if end != len(line):
            raise ValueError('more than one JSON value')
        return frame
except (ImportError, AttributeError):
    import json as _json_module

    def _json_dumps(frame):
        return _json_module.dumps(frame, ensure_ascii=True, separators=(',', ':'))

    def _json_loads(line):
        return _json_module.loads(line)


class _LazyCollections:
    """collections, imported when a value first needs it (it costs a worker's start-up 6 ms)."""

    def __getattr__(self, name):
        return getattr(_lib('collections'), name)


_collections = _LazyCollections()

MAX_DEPTH = 200


def _b64(data):
    return _binascii.b2a_base64(data, newline=False).decode('ascii')


def _unb64(text):
    return _binascii.a2b_base64(text.encode('ascii'), strict_mode=True)


def _lib(name):
    """A library module the value's type came from: already imported when such a value exists."""
    module = _codec_sys.modules.get(name)
    if module is None:
        import importlib
        module = importlib.import_module(name)
    return module
_BIG = 10 ** 4000
_DEFAULT_FACTORIES = {'list': list, 'dict': dict, 'set': set, 'int': int, 'float': float, 'str': str,
                      'tuple': tuple, 'frozenset': frozenset, 'bool': bool, 'bytes': bytes}


class CodecError(ValueError):
    pass


class Codec:
    """encode_other(codec, value, state) -> tree; decode_other(codec, tree, state) -> value."""

    def __init__(self, encode_other, decode_other, assignment_modules=()):
        self.encode_other = encode_other
        self.decode_other = decode_other
        self.assignment_modules = frozenset(assignment_modules)
        self._nt_classes = {}

    # ── encoding ──────────────────────────────────────────────────────────────────────────────────

    def dumps(self, frame):
        return (_json_dumps(frame) + '\n').encode('ascii')

    def encode(self, value):
        return self.enc(value, _State())

    def enc(self, v, st):
        t = type(v)
        if t is str or t is bool or t is float or v is None:
            return v
        if t is int:
            return v if -_BIG < v < _BIG else ['I', format(v, 'x')]
        st.depth += 1
        try:
            if st.depth > MAX_DEPTH:
                raise CodecError('the value is nested too deeply (or contains itself) to be passed')
            mutable = t is list or t is dict or t is set or t is bytearray or (
                t.__module__ == 'collections' and t in (_collections.deque, _collections.OrderedDict,
                                                        _collections.Counter, _collections.defaultdict))
            if mutable:
                seen = st.memo.get(id(v))
                if seen is not None:
                    return ['@', seen]
                st.remember(v)
            e = self.enc
            if t is list:
                return ['l'] + [e(x, st) for x in v]
            if t is tuple:
                return ['t'] + [e(x, st) for x in v]
            if t is dict:
                return self._pairs('d', v, st)
            if t is set:
                return ['s'] + [e(x, st) for x in v]
            if t is frozenset:
                return ['f'] + [e(x, st) for x in v]
            if t is bytes:
                return ['b', _b64(v)]
            if t is bytearray:
                return ['y', _b64(bytes(v))]
            if t is complex:
                return ['c', v.real, v.imag]
            if t is range:
                return ['r', v.start, v.stop, v.step]
            if v is Ellipsis:
                return ['E']
            module = t.__module__
            if module == 'fractions' and t is _lib('fractions').Fraction:
                return ['Q', e(v.numerator, st), e(v.denominator, st)]
            if module in ('decimal', '_decimal') and t is _lib('decimal').Decimal:
                return ['D', str(v)]
            if module == 'datetime':
                datetime = _lib('datetime')
                if t is datetime.datetime:
                    return ['dt', v.isoformat()]
                if t is datetime.date:
                    return ['da', v.isoformat()]
                if t is datetime.time:
                    return ['ti', v.isoformat()]
                if t is datetime.timedelta:
                    return ['td', v.days, v.seconds, v.microseconds]
            if module == 'collections' and t is _collections.OrderedDict:
                return self._pairs('od', v, st)
            if module == 'collections' and t is _collections.Counter:
                return self._pairs('ct', v, st)
            if module == 'collections' and t is _collections.defaultdict:
                factory = v.default_factory
                name = factory.__name__ if _DEFAULT_FACTORIES.get(getattr(factory, '__name__', None)) is factory else None
                return self._pairs('dd', v, st, [name])
            if module == 'collections' and t is _collections.deque:
                return ['dq', v.maxlen] + [e(x, st) for x in v]
            if issubclass(t, tuple) and t.__bases__ == (tuple,) and isinstance(getattr(t, '_fields', None), tuple):
                tagged = self.encode_other(self, v, st)
                if tagged is not None:
                    return tagged
                return ['NT', t.__name__, [str(f) for f in t._fields]] + [e(x, st) for x in v]
            if t.__module__ == 'numpy':
                return self._numpy(v, st)
            if t.__module__ in self.assignment_modules and '<locals>' not in t.__qualname__ \
                    and not issubclass(t, BaseException):
                return self._state(v, t, st)
            return self.encode_other(self, v, st)
        finally:
            st.depth -= 1

    def _pairs(self, tag, mapping, st, head=()):
        out = [tag, *head]
        for k, x in mapping.items():
            out.append(self.enc(k, st))
            out.append(self.enc(x, st))
        return out

    def _state(self, v, t, st):
        seen = st.memo.get(id(v))
        if seen is not None:
            return ['@', seen]
        st.remember(v)
        state = {}
        d = getattr(v, '__dict__', None)
        if type(d) is dict:
            state.update(d)
        for klass in t.__mro__:
            for name in klass.__dict__.get('__slots__', ()):
                if isinstance(name, str) and name not in ('__dict__', '__weakref__') and hasattr(v, name):
                    state[name] = getattr(v, name)
        return ['A', t.__module__, t.__qualname__, self._pairs('d', state, st)]

    def _numpy(self, v, st):
        import numpy
        if isinstance(v, numpy.ndarray) and v.dtype.kind in 'biufcmMSU':
            return ['np', v.dtype.str, list(v.shape), _b64(numpy.ascontiguousarray(v).tobytes())]
        if isinstance(v, numpy.generic) and v.dtype.kind in 'biufc':
            return ['ns', v.dtype.str, self.enc(v.item(), st)]
        return self.encode_other(self, v, st)

    # ── decoding ──────────────────────────────────────────────────────────────────────────────────

    def loads(self, line):
        try:
            frame = _json_loads(line.decode('ascii') if type(line) is bytes else line)
        except Exception as e:
            raise CodecError('a frame that is not JSON: %s' % (e,)) from None
        if type(frame) is not dict:
            raise CodecError('a frame that is not an object')
        return frame

    def decode(self, tree):
        try:
            return self.dec(tree, _State())
        except CodecError:
            raise
        except Exception as e:
            raise CodecError('a value that cannot be built: %s: %s' % (type(e).__name__, e)) from None

    def dec(self, v, st):
        t = type(v)
        if t is str or t is int or t is float or t is bool or v is None:
            return v
        if t is not list or not v or type(v[0]) is not str:
            raise CodecError('a malformed value')
        st.depth += 1
        try:
            if st.depth > MAX_DEPTH:
                raise CodecError('a value nested too deeply')
            tag = v[0]
            d = self.dec
            if tag == 'l':
                out = st.remember([])
                out.extend(d(x, st) for x in v[1:])
                return out
            if tag == 't':
                return tuple(d(x, st) for x in v[1:])
            if tag == 'd':
                return self._fill(st.remember({}), v, 1, st)
            if tag == 's':
                out = st.remember(set())
                out.update(d(x, st) for x in v[1:])
                return out
            if tag == 'f':
                return frozenset(d(x, st) for x in v[1:])
            if tag == '@':
                n = v[1] if len(v) == 2 else None
                if type(n) is not int or not 0 <= n < len(st.table):
                    raise CodecError('a reference to nothing')
                return st.table[n]
            if tag == 'I':
                return int(_text(v, 1), 16)
            if tag == 'b':
                return _unb64(_text(v, 1))
            if tag == 'y':
                return st.remember(bytearray(_unb64(_text(v, 1))))
            if tag == 'c':
                return complex(_number(v, 1), _number(v, 2))
            if tag == 'r':
                return range(_int(v, 1), _int(v, 2), _int(v, 3))
            if tag == 'E':
                return Ellipsis
            if tag == 'Q':
                return _lib('fractions').Fraction(_exact_int(d(v[1], st)), _exact_int(d(v[2], st)))
            if tag == 'D':
                return _lib('decimal').Decimal(_text(v, 1))
            if tag == 'dt':
                return _lib('datetime').datetime.fromisoformat(_text(v, 1))
            if tag == 'da':
                return _lib('datetime').date.fromisoformat(_text(v, 1))
            if tag == 'ti':
                return _lib('datetime').time.fromisoformat(_text(v, 1))
            if tag == 'td':
                return _lib('datetime').timedelta(days=_int(v, 1), seconds=_int(v, 2), microseconds=_int(v, 3))
            if tag == 'od':
                return self._fill(st.remember(_collections.OrderedDict()), v, 1, st)
            if tag == 'ct':
                return self._fill(st.remember(_collections.Counter()), v, 1, st)
            if tag == 'dd':
                name = v[1] if len(v) > 1 else None
                if name is not None and name not in _DEFAULT_FACTORIES:
                    raise CodecError('a defaultdict factory that is not a builtin type')
                return self._fill(st.remember(_collections.defaultdict(_DEFAULT_FACTORIES.get(name))), v, 2, st)
            if tag == 'dq':
                maxlen = v[1] if len(v) > 1 else None
                if maxlen is not None and (type(maxlen) is not int or maxlen < 0):
                    raise CodecError('a bad deque length')
                out = st.remember(_collections.deque(maxlen=maxlen))
                out.extend(d(x, st) for x in v[2:])
                return out
            if tag == 'NT':
                name, fields = _text(v, 1), v[2] if len(v) > 2 else None
                if type(fields) is not list or not all(type(f) is str for f in fields):
                    raise CodecError('a bad namedtuple')
                key = (name, tuple(fields))
                klass = self._nt_classes.get(key)
                if klass is None:
                    klass = self._nt_classes[key] = _collections.namedtuple(name, fields, rename=True)
                return klass(*(d(x, st) for x in v[3:]))
            if tag == 'A':
                return self._object(v, st)
            if tag == 'np':
                import numpy
                shape = v[2] if len(v) > 3 else None
                if type(shape) is not list or not all(type(n) is int and n >= 0 for n in shape):
                    raise CodecError('a bad array shape')
                dtype = numpy.dtype(_text(v, 1))
                if dtype.kind not in 'biufcmMSU':
                    raise CodecError('an array of objects')
                return numpy.frombuffer(_unb64(_text(v, 3)), dtype=dtype).reshape(shape).copy()
            if tag == 'ns':
                import numpy
                dtype = numpy.dtype(_text(v, 1))
                if dtype.kind not in 'biufc':
                    raise CodecError('a bad numpy scalar')
                return dtype.type(d(v[2], st))
            return self.decode_other(self, v, st)
        finally:
            st.depth -= 1

    def _fill(self, mapping, v, start, st):
        items = v[start:]
        if len(items) % 2:
            raise CodecError('a mapping with a key and no value')
        for i in range(0, len(items), 2):
            mapping[self.dec(items[i], st)] = self.dec(items[i + 1], st)
        return mapping

    def _object(self, v, st):
        if len(v) != 4:
            raise CodecError('a malformed object')
        module, qualname = _text(v, 1), _text(v, 2)
        if module not in self.assignment_modules:
            raise CodecError('an object of a class that is not one of the assignment files\'')
        import importlib
        klass = importlib.import_module(module)
        for part in qualname.split('.'):
            klass = getattr(klass, part)
        if not isinstance(klass, type) or klass.__module__ != module or issubclass(klass, BaseException):
            raise CodecError('%s.%s is not a class of the assignment\'s files' % (module, qualname))
        out = st.remember(klass.__new__(klass))
        state = v[3]
        if type(state) is not list or not state or state[0] != 'd':
            raise CodecError('a malformed object state')
        for name, value in self._fill({}, state, 1, st).items():
            if type(name) is not str:
                raise CodecError('an attribute name that is not a string')
            object.__setattr__(out, name, value)
        return out


class _State:
    __slots__ = ('depth', 'memo', 'table')

    def __init__(self):
        self.depth = 0
        self.memo = {}
        self.table = []

    def remember(self, value):
        self.memo[id(value)] = len(self.table)
        self.table.append(value)
        return value


def _text(v, i):
    if len(v) <= i or type(v[i]) is not str:
        raise CodecError('a malformed value')
    return v[i]


def _int(v, i):
    if len(v) <= i or type(v[i]) is not int:
        raise CodecError('a malformed value')
    return v[i]


def _exact_int(x):
    if type(x) is not int:
        raise CodecError('a malformed value')
    return x


def _number(v, i):
    if len(v) <= i or type(v[i]) not in (int, float):
        raise CodecError('a malformed value')
    return v[i]


def update_in_place(original, new):
    """Copy-back: what a call did to a mutable argument, done to the caller's own object."""
    t = type(original)
    if t is not type(new):
        return
    collections = _lib('collections') if t.__module__ == 'collections' else None
    if t is list or t is bytearray:
        original[:] = new
    elif t is set:
        original.clear()
        original.update(new)
    elif collections is not None and t is collections.deque:
        original.clear()
        original.extend(new)
    elif t is dict or collections is not None and t in (collections.OrderedDict, collections.Counter,
                                                          collections.defaultdict):
        original.clear()
        original.update(new)
    elif hasattr(original, '__dict__') and type(original.__dict__) is dict:
        original.__dict__.clear()
        original.__dict__.update(new.__dict__)


def is_mutable_argument(value, assignment_modules):
    t = type(value)
    return t in (list, dict, set, bytearray) or (
        t.__module__ == 'collections' and t in (_collections.deque, _collections.OrderedDict,
                                                _collections.Counter, _collections.defaultdict)) or (
        t.__module__ in assignment_modules and not issubclass(t, BaseException))
