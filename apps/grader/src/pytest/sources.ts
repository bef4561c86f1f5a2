/**
 * The Python of pytest test cases, read once from the files beside this one: the harness (the test
 * process: codec.py, link.py, harness.py and plugin.py as one script) and the worker (the submission's
 * process: codec.py and worker.py). Each runs as `python3 -I -S -c …` in its own sandbox of a paired
 * run; docs/grading.md, "pytest tests", says what each does.
 *
 * Compiling the harness costs about 15 ms of CPU a run, the worker 5 ms: each script is compiled once
 * per process by the same /usr/bin/python3 the sandbox runs, and its bytecode handed over in the command
 * line (base64, in pieces under the kernel's 128 KiB limit per argument). Without that Python here, the
 * source is handed over instead.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const read = (name: string): string => readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');

const CODEC = read('codec.py');

export const HARNESS_SCRIPT = [CODEC, read('link.py'), read('harness.py'), read('plugin.py')].join('\n');
export const WORKER_SCRIPT = [CODEC, read('worker.py')].join('\n');

const PYTHON = '/usr/bin/python3';
const PIECE = 96 * 1024;
/** Runs the bytecode in argv[2 : 2 + argv[1]] as __main__, with the arguments after it as its argv. */
const BOOTSTRAP =
  'import sys, marshal, binascii\n' +
  'n = int(sys.argv[1])\n' +
  "code = marshal.loads(binascii.a2b_base64(''.join(sys.argv[2:2 + n])))\n" +
  'sys.argv = sys.argv[:1] + sys.argv[2 + n:]\n' +
  'del n\n' +
  'exec(code)\n';

const compiled = new Map<string, string[] | null>();

function bytecodeArgs(name: string, source: string): string[] | null {
  if (!compiled.has(name)) {
    let pieces: string[] | null;
    try {
      const bytes = execFileSync(
        PYTHON,
        [
          '-I',
          '-S',
          '-c',
          'import sys, marshal\n' +
            `sys.stdout.buffer.write(marshal.dumps(compile(sys.stdin.read(), '<kadai ${name}>', 'exec')))`,
        ],
        { input: source, env: {}, maxBuffer: 16 * 1024 * 1024, timeout: 30_000 },
      );
      const text = bytes.toString('base64');
      pieces = [];
      for (let at = 0; at < text.length; at += PIECE) pieces.push(text.slice(at, at + PIECE));
    } catch {
      pieces = null;
    }
    compiled.set(name, pieces);
  }
  return compiled.get(name) ?? null;
}

function argvOf(name: string, source: string, args: string[]): string[] {
  const pieces = bytecodeArgs(name, source);
  return pieces
    ? ['-S', '-c', BOOTSTRAP, String(pieces.length), ...pieces, ...args]
    : ['-S', '-c', source, ...args];
}

/** `-S -c …` for the harness, then its own arguments. */
export const harnessArgv = (args: string[]): string[] => argvOf('harness', HARNESS_SCRIPT, args);
/** `-S -c …` for the worker, then its own arguments. */
export const workerArgv = (args: string[]): string[] => argvOf('worker', WORKER_SCRIPT, args);
