/** Helpers of the pytest tests (not exported from the package): a submission's context and a test case. */
import { runPaired, runSandboxed } from '@kadai/sandbox';
import { pytestSpec, type RunContext, type TestCaseSpec } from './evaluation.ts';
import { Semaphore } from './semaphore.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

/** The submitted files (name → code) and the assignment's files, run in the real sandbox. */
export function context(files: Record<string, string>, attachments: Record<string, string> = {}): RunContext {
  return {
    run: runSandboxed,
    runPaired,
    slots: new Semaphore(4),
    entryFile: 'main.py',
    submission: Object.entries(files).map(([filename, content]) => ({ filename, content: bytes(content) })),
    attachments: Object.entries(attachments).map(([filename, content]) => ({
      filename,
      content: bytes(content),
    })),
  };
}

export const spec = (testCode: string, overrides: Partial<TestCaseSpec> = {}): TestCaseSpec =>
  pytestSpec({
    id: 1,
    name: 'unit tests',
    points: 10,
    testFileName: 'test_main.py',
    testCode,
    timeLimitMs: 2000,
    memoryLimitMb: 256,
    ...overrides,
  });
