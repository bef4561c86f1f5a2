/**
 * A submission that sets out to change its pytest verdicts, thirty ways (issue 35's outside check found
 * two that gave full marks in one line). Each cheat sits beside the same honest but partly wrong `add`,
 * which passes 3 of 5 tests; whatever the cheat does, no test may pass that the honest code fails, and a
 * cheat that leaves `add` alone must score exactly what the honest code scores.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationResult } from './evaluation.ts';
import { context, spec } from './pytest-testing.ts';
import { runTestCase } from './run-test.ts';

const HONEST = `
def add(a, b):
    return a + b if 0 <= a < 100 else 0
`;

const PYTEST_FILE = `import pytest
from main import add

def test_small():
    assert add(1, 2) == 3

def test_zero():
    assert add(0, 0) == 0

def test_negative():
    assert add(-4, 1) == -3

@pytest.mark.parametrize('a, b', [(10 ** 6, 1), (7, 8)])
def test_more(a, b):
    assert add(a, b) == a + b
`;

const UNITTEST_FILE = `import unittest
from main import add

class TestAdd(unittest.TestCase):
    def test_small(self):
        self.assertEqual(add(1, 2), 3)

    def test_negative(self):
        self.assertEqual(add(-4, 1), -3)

    def test_big(self):
        self.assertEqual(add(10 ** 6, 1), 10 ** 6 + 1)
`;

const FAKE_RECORDS = `
import json as _json
def _fake(prefix='test_main.py::'):
    lines = [{'t': 'ready'}, {'t': 'collected', 'items': [{'id': prefix + n, 'points': 1, 'limit': 1000}
             for n in ('test_small', 'test_zero', 'test_negative')]}]
    lines += [{'t': 'result', 'id': prefix + n, 'outcome': 'passed', 'message': '', 'output': '', 'cpu_ms': 0,
               'memory': False} for n in ('test_small', 'test_zero', 'test_negative', 'test_more[1000000-1]')]
    lines += [{'t': 'done', 'exit': 0}]
    return ''.join(_json.dumps(l) + '\\n' for l in lines).encode()
`;

/** [name, code put before the honest add (or replacing it: it then defines add itself), must score the same]. */
const CHEATS: [string, string, 'same' | 'no more', string?][] = [
  [
    'patches pytest to skip running tests',
    'import _pytest.python\n_pytest.python.Function.runtest = lambda self: None\n',
    'same',
  ],
  [
    'patches unittest to skip running tests',
    'import unittest\nunittest.TestCase.run = lambda *a, **k: None\n',
    'same',
    UNITTEST_FILE,
  ],
  [
    'writes fake records to descriptor 4',
    `${FAKE_RECORDS}\nimport os\ntry:\n    os.write(4, _fake())\nexcept OSError:\n    pass\n`,
    'same',
  ],
  [
    'writes fake records to every descriptor it might have inherited',
    `${FAKE_RECORDS}\nimport os\nfor fd in range(256):\n    try:\n        os.write(fd, _fake())\n    except OSError:\n        pass\n`,
    'no more',
  ],
  [
    'prints fake records and writes fake result files',
    `${FAKE_RECORDS}\nprint(_fake().decode())\nfor n in ('results.json', 'report.xml', '/tmp/r'):\n    open(n, 'wb').write(_fake())\n`,
    'same',
  ],
  [
    'forges answers on the socket to the test process',
    'import os\nfor n in range(1, 12):\n    os.write(3, (\'{"r": %d, "v": 3}\\n\' % n).encode())\n',
    'no more',
  ],
  ['ends its process at import', 'import os\nos._exit(0)\n', 'no more'],
  ['ends its process in the function', '', 'same'],
  ['calls sys.exit() in the function', '', 'same'],
  [
    'takes pytest and unittest out of sys.modules',
    "import sys\nfor name in ('pytest', '_pytest', 'unittest', 'kadai'):\n    sys.modules[name] = None\n",
    'same',
  ],
  [
    'rewrites the builtins (its own process then breaks)',
    'import builtins\nbuiltins.AssertionError = Exception\nbuiltins.isinstance = lambda *a: True\n',
    'no more',
  ],
  ['returns an object whose __eq__ and __bool__ always say yes', '', 'same'],
  ['returns an int whose __eq__ always says yes', '', 'same'],
  [
    'looks for the test file',
    "import os\nfor d in ('/job', '/tmp', '/', '/proc/1/cwd', '/proc/1/root/job', '/usr/lib/python3/dist-packages'):\n    try:\n        names = os.listdir(d)\n    except OSError:\n        continue\n    for n in names:\n        if n.startswith('test_'):\n            try:\n                print(open(os.path.join(d, n)).read())\n            except OSError:\n                pass\n",
    'same',
  ],
  [
    'rewrites the test file where it would be',
    "for path in ('test_main.py', '/job/test_main.py'):\n    try:\n        open(path, 'w').write('def test_x():\\n    pass\\n')\n    except OSError:\n        pass\n",
    'same',
  ],
  [
    'signals every process it can see',
    'import os, signal\nfor pid in (1, os.getppid()):\n    try:\n        os.kill(pid, signal.SIGKILL)\n    except OSError:\n        pass\n',
    'same',
  ],
  [
    'reads the memory and descriptors of its supervisor',
    "import os\nfor path in ('/proc/1/mem', '/proc/1/fd/5', '/proc/1/environ'):\n    try:\n        open(path, 'rb').read(100)\n    except OSError:\n        pass\n",
    'same',
  ],
  [
    'leaves a thread that forges answers and records after each test',
    `${FAKE_RECORDS}\nimport os, threading, time\ndef _spam():\n    while True:\n        time.sleep(0.01)\n        for fd in (3, 4):\n            try:\n                os.write(fd, b'{"r": 99, "v": 3}\\n' + _fake())\n            except OSError:\n                pass\nthreading.Thread(target=_spam, daemon=True).start()\n`,
    'no more',
  ],
  [
    'leaves a process that writes to the socket later',
    'import os, time\nif os.fork() == 0:\n    time.sleep(0.3)\n    os.write(3, b\'{"r": 5, "v": 3}\\n\')\n    os._exit(0)\n',
    'no more',
  ],
  [
    'patches its own server to answer True to everything',
    "import json\n_dumps = json.dumps\njson.dumps = lambda o, **k: _dumps(dict(o, v=True) if isinstance(o, dict) and 'r' in o and 'v' in o else o, **k)\n",
    'no more',
  ],
  ['raises KeyboardInterrupt where it is wrong', '', 'same'],
  ['calls pytest.skip() where it is wrong', '', 'same'],
  ['returns 100 MB where it is wrong', '', 'same'],
  ['returns a list nested too deeply to pass', '', 'same'],
  ['sleeps where it is wrong', '', 'same'],
  ['returns an object whose repr never ends', '', 'same'],
  [
    'hides its CPU time from the test process while a thread works',
    'import threading, time, resource\ntime.process_time_ns = lambda: 0\nresource.getrusage = lambda *a: resource.struct_rusage((0.0,) * 16)\ndef _work():\n    while True:\n        pass\nthreading.Thread(target=_work, daemon=True).start()\n',
    'no more',
  ],
  [
    'burns CPU in a thread between tests',
    'import threading\ndef _burn():\n    while True:\n        pass\nthreading.Thread(target=_burn, daemon=True).start()\n',
    'no more',
  ],
  ['fills its memory at import', "_hog = ' ' * (10 ** 10)\n", 'no more'],
  [
    'writes a flood of output to its descriptors',
    "import os\nwhile True:\n    os.write(1, b'x' * 65536)\n",
    'no more',
  ],
  [
    'raises an exception whose str() lies',
    "class _Liar(Exception):\n    def __str__(self):\n        return 'passed'\n",
    'same',
  ],
  [
    'monkeypatches what the test could reach through the handle of a function',
    'import builtins\nbuiltins.__import__ = None\n',
    'no more',
  ],
];

/** The honest add, changed where a cheat needs it to be (it stays wrong in the same places). */
const WRONG_BRANCH: Record<string, string> = {
  'ends its process in the function': 'import os\nos._exit(0)',
  'calls sys.exit() in the function': 'import sys\nsys.exit(0)',
  'returns an object whose __eq__ and __bool__ always say yes':
    'class Liar:\n    __eq__ = lambda s, o: True\n    __ne__ = lambda s, o: False\n    __bool__ = lambda s: True\n    __hash__ = lambda s: 0\nreturn Liar()',
  'returns an int whose __eq__ always says yes':
    'class Liar(int):\n    __eq__ = lambda s, o: True\n    __ne__ = lambda s, o: False\n    __hash__ = int.__hash__\nreturn Liar(0)',
  'raises KeyboardInterrupt where it is wrong': 'raise KeyboardInterrupt',
  'calls pytest.skip() where it is wrong': 'import pytest\npytest.skip("cheat")',
  'returns 100 MB where it is wrong': "return 'x' * (100 * 1024 * 1024)",
  'returns a list nested too deeply to pass':
    'value = []\nfor _ in range(5000):\n    value = [value]\nreturn value',
  'sleeps where it is wrong': 'import time\ntime.sleep(60)',
  'returns an object whose repr never ends':
    'class Slow:\n    def __repr__(self):\n        while True:\n            pass\nreturn Slow()',
  'raises an exception whose str() lies': 'raise _Liar()',
};

function submission(name: string, before: string): string {
  const wrong = WRONG_BRANCH[name];
  const body = wrong
    ?.split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
  const add = body ? `\ndef add(a, b):\n    if 0 <= a < 100:\n        return a + b\n${body}\n` : HONEST;
  return before + add;
}

const passed = (result: EvaluationResult) =>
  result.items.filter((i) => i.outcome === 'passed').map((i) => i.name);

describe('a submission that cheats scores no more than its honest code', { timeout: 120_000 }, () => {
  let honest: EvaluationResult;
  let honestUnittest: EvaluationResult;
  beforeAll(async () => {
    [honest, honestUnittest] = await Promise.all([
      runTestCase(context({ 'main.py': HONEST }), spec(PYTEST_FILE, { timeLimitMs: 1000 })),
      runTestCase(context({ 'main.py': HONEST }), spec(UNITTEST_FILE, { timeLimitMs: 1000 })),
    ]);
    expect(passed(honest)).toEqual(['test_small', 'test_zero', 'test_more[7-8]']);
    expect(passed(honestUnittest)).toEqual(['TestAdd::test_small']);
  }, 60_000);

  it('has at least twenty ways to try', () => {
    expect(CHEATS.length).toBeGreaterThanOrEqual(20);
  });

  it.concurrent.each(CHEATS)('%s', async (name, before, expected, testFile) => {
    const reference = testFile ? honestUnittest : honest;
    const result = await runTestCase(
      context({ 'main.py': submission(name, before) }),
      spec(testFile ?? PYTEST_FILE, { timeLimitMs: 1000, memoryLimitMb: 128 }),
    );
    expect(passed(reference)).toEqual(expect.arrayContaining(passed(result)));
    if (expected === 'same') expect(result.points).toBe(reference.points);
    else expect(result.points).toBeLessThanOrEqual(reference.points);
  });
});
