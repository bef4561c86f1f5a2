/**
 * "Can this submission be graded as given?" — checked before any test runs. A submission that fails
 * is InvalidFormat, with a message that tells the student what to fix.
 */
import type { SandboxRequest, SandboxResult } from './types.ts';

export interface AssignmentFormat {
  entryFile: string;
  requiredFiles: string[];
  /** With the dot: `.py`. */
  allowedExtensions: string[];
  maxFiles: number;
  maxFileBytes: number;
}

export interface NamedFile {
  filename: string;
  content: Uint8Array;
}

/** A `script` test's driver runs under this name beside the student's files, so no file may take it. */
export const DRIVER_FILE = '_driver.py';

/** The same rule as the contracts' `FileName`: a plain name, no folders, no leading dot, no `..`. */
const FILE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

export function isPlainFileName(name: string): boolean {
  return name.length <= 100 && FILE_NAME.test(name) && !name.includes('..');
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/** The first problem with the submitted files, or null when they can be graded. */
export function checkFiles(
  format: AssignmentFormat,
  files: NamedFile[],
  attachmentNames: string[] = [],
): string | null {
  if (files.length === 0) return `The submission has no files; ${format.entryFile} is needed.`;
  if (files.length > format.maxFiles) {
    return `${files.length} files were submitted; at most ${format.maxFiles} are allowed.`;
  }
  const named = new Set<string>();
  const allowed = new Set(format.allowedExtensions.map((e) => e.toLowerCase()));
  // The editor named these; they are accepted whatever their extension.
  const expected = new Set([format.entryFile, ...format.requiredFiles]);
  const provided = new Set(attachmentNames);
  for (const file of files) {
    const name = file.filename;
    if (!isPlainFileName(name)) return `${JSON.stringify(name)} is not a valid file name.`;
    if (named.has(name)) return `${name} was submitted twice.`;
    named.add(name);
    if (name === DRIVER_FILE) return `${DRIVER_FILE} is a reserved file name; rename it.`;
    if (provided.has(name)) {
      return `${name} has the name of a file provided with the assignment; rename it.`;
    }
    const extension = extensionOf(name);
    if (!expected.has(name) && !allowed.has(extension)) {
      const list = [...allowed].join(', ');
      return `${name}: files ${extension ? `ending in ${extension}` : 'without an extension'} are not accepted (allowed: ${list}).`;
    }
    if (file.content.byteLength > format.maxFileBytes) {
      return `${name} is ${file.content.byteLength} bytes; at most ${format.maxFileBytes} are allowed.`;
    }
  }
  if (!named.has(format.entryFile)) {
    return `${format.entryFile} is missing: it is the program the tests run.`;
  }
  const missing = format.requiredFiles.filter((name) => !named.has(name));
  if (missing.length > 0) {
    return `Required file${missing.length === 1 ? '' : 's'} missing: ${missing.join(', ')}.`;
  }
  return null;
}

/**
 * Compiles (never runs) every file named on the command line and prints one JSON line: the first
 * syntax error, or `{"ok": true}`. `compile` catches what `ast.parse` misses (`return` outside a
 * function, for example).
 */
export const SYNTAX_CHECK_SOURCE = `
import json, sys, warnings
warnings.simplefilter('ignore')
for name in sys.argv[1:]:
    with open(name, 'rb') as f:
        source = f.read()
    try:
        compile(source, name, 'exec', dont_inherit=True)
    except SyntaxError as e:
        print(json.dumps({'ok': False, 'file': name, 'line': e.lineno, 'message': e.msg}))
        sys.exit(0)
    except (ValueError, MemoryError, RecursionError) as e:
        print(json.dumps({'ok': False, 'file': name, 'line': None, 'message': str(e) or type(e).__name__}))
        sys.exit(0)
print(json.dumps({'ok': True}))
`;

/** Python files a syntax check should compile: every submitted `.py`. */
export function pythonFiles(files: NamedFile[]): string[] {
  return files.filter((f) => extensionOf(f.filename) === '.py').map((f) => f.filename);
}

export function syntaxCheckRequest(files: NamedFile[], signal?: AbortSignal): SandboxRequest {
  return {
    files: files.map((f) => ({ path: f.filename, content: f.content })),
    // -S: compiling needs no installed packages, and skipping `site` saves a third of the start-up.
    argv: ['-S', '-c', SYNTAX_CHECK_SOURCE, ...pythonFiles(files)],
    limits: { cpuSeconds: 5, wallMs: 10_000, memoryBytes: 512 * 1024 * 1024, outputBytes: 64 * 1024 },
    writable: false,
    signal,
  };
}

/** What the syntax check found: null when every file compiles, else the message for the student. */
export function syntaxProblem(result: SandboxResult): string | null {
  if (result.limit !== null) {
    return 'The code could not be checked: compiling it took too long or too much memory.';
  }
  const line = result.stdout.trim().split('\n').at(-1) ?? '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return 'The code could not be checked: the Python compiler stopped unexpectedly.';
  }
  if (typeof parsed !== 'object' || parsed === null || !('ok' in parsed)) {
    return 'The code could not be checked: the Python compiler stopped unexpectedly.';
  }
  if (parsed.ok === true) return null;
  const file = 'file' in parsed && typeof parsed.file === 'string' ? parsed.file : 'the code';
  const lineNo = 'line' in parsed && typeof parsed.line === 'number' ? `, line ${parsed.line}` : '';
  const message = 'message' in parsed && typeof parsed.message === 'string' ? parsed.message : 'invalid';
  return `Syntax error in ${file}${lineNo}: ${message}`;
}
