/**
 * The read-only /judge folder a check script sees: what the student's run produced, written by the
 * grader from the sandbox's report. Nothing in it is a verdict: the student's process only ever
 * contributes its captured output and files, as data.
 */
import type { NamedFile } from './format.ts';
import type { SandboxFile, SandboxResult } from './types.ts';

export interface JudgeInput {
  stdin: string;
  expectedStdout: string;
  run: SandboxResult;
  submission: NamedFile[];
  /** Files the program was given (submission, attachments, driver): left out of `files/` when unchanged. */
  given: NamedFile[];
}

/**
 * A path the sandbox will accept inside a folder, or null: relative, no empty, `.` or `..` segment, no
 * control character or backslash. Collected paths come from the student's folder; they are checked.
 */
export function safeRelativePath(name: string): string | null {
  if (name.length === 0 || name.length > 200 || name.startsWith('/') || name.includes('\\')) return null;
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  if (/[\x00-\x1f\x7f]/.test(name)) return null;
  const segments = name.split('/');
  return segments.some((s) => s === '' || s === '.' || s === '..') ? null : name;
}

/** The `result.json` of a run: how the student's program ended, as the sandbox measured it. */
export function runReport(run: SandboxResult) {
  return {
    exit_code: run.exitCode,
    signal: run.signal,
    limit: run.limit,
    time_ms: run.timeMs,
    cpu_ms: run.cpuMs,
    memory_kb: run.memoryKb,
    stdout_truncated: run.stdoutTruncated,
    stderr_truncated: run.stderrTruncated,
  };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.compare(a, b) === 0;
}

/** The files of /judge, relative to it. */
export function judgeFiles(input: JudgeInput): SandboxFile[] {
  const given = new Map(input.given.map((f) => [f.filename, f.content]));
  const files: SandboxFile[] = [
    { path: 'stdin', content: input.stdin },
    { path: 'expected_stdout', content: input.expectedStdout },
    { path: 'stdout', content: input.run.stdout },
    { path: 'stderr', content: input.run.stderr },
    { path: 'result.json', content: JSON.stringify(runReport(input.run), null, 2) + '\n' },
  ];
  for (const file of input.run.files) {
    const relative = safeRelativePath(file.path);
    const original = given.get(file.path);
    if (relative && !(original && sameBytes(original, file.content))) {
      files.push({ path: `files/${relative}`, content: file.content });
    }
  }
  for (const file of input.submission) {
    const relative = safeRelativePath(file.filename);
    if (relative) files.push({ path: `submission/${relative}`, content: file.content });
  }
  return files;
}
