/**
 * Whether this host can run pytest test cases: Debian's `python3-pytest` for the sandbox's Python.
 * Asked once per process (outside the sandbox: nothing of a student's runs here) and told in the
 * grader's sandbox detail, so /api/health and the PyGrade console show it before a pytest test case
 * fails on this host for want of it (which retries the submission, then marks it InternalError).
 */
import { execFile } from 'node:child_process';

const CHECK = [
  '-I',
  '-S',
  '-c',
  'import os, site, sys\n' +
    'sys.path.extend(p for p in site.getsitepackages() if os.path.isdir(p))\n' +
    'import pytest\nprint(pytest.__version__)',
];

const answers = new Map<string, Promise<string>>();

/** `pytest 7.2.1`, or why pytest test cases cannot run here and how to fix it. */
export function pytestStatus(pythonPath = '/usr/bin/python3'): Promise<string> {
  const known = answers.get(pythonPath);
  if (known) return known;
  const answer = new Promise<string>((resolve) => {
    execFile(pythonPath, CHECK, { timeout: 10_000, env: {} }, (error, stdout) => {
      const version = stdout.trim();
      resolve(
        !error && /^\d+(\.\d+)*\S*$/.test(version)
          ? `pytest ${version}`
          : 'no pytest: pytest test cases cannot run here (apt-get install -y python3-pytest)',
      );
    });
  });
  answers.set(pythonPath, answer);
  return answer;
}
