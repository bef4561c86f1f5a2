/**
 * The check of a pytest module when an editor saves it (docs/assignments.md, "Checking a pytest module
 * when it is saved"): collected in this API process's sandbox, with the grader's own code, against the
 * assignment's reference solution, else its starter code, else stand-ins for the submission's modules.
 * A module that does not collect is saved as a draft (students never run it); one that could not be
 * checked here (no sandbox, the host failing) is saved unchecked and runs as saved.
 */
import { checkTestFile, type NamedFile } from '@kadai/grader/evaluate';
import { runPaired, runSandboxed } from '@kadai/sandbox';
import type { PytestCheck } from '@kadai/contracts';
import type { AppContext } from '../../lib/context.ts';
import { testRunSlots } from '../../lib/test-runs.ts';
import type { AssignmentRow } from './assignments.repo.ts';
import { attachmentSources } from './files.service.ts';

/** A check gives up after this long (the module is then saved unchecked). */
const CHECK_TIMEOUT_MS = 60_000;

export interface ModuleCheck {
  check: PytestCheck;
  /** It does not collect: the test case is a draft. */
  draft: boolean;
  /** The collected tests' shares, when it collects: the points of a test case whose points follow them. */
  shares: number | null;
}

export interface ModuleToCheck {
  testFileName: string;
  testCode: string;
  timeLimitMs: number;
  memoryLimitMb: number;
}

/** What of the assignment a check needs: a stored one's row, or a bundle's content before it is stored. */
export interface AssignmentForCheck {
  entryFile: string;
  requiredFiles: string[];
  referenceSolution: string;
  starterCode: string;
  attachments: () => Promise<NamedFile[]>;
}

/** A stored assignment, with its attachments read from the store when a check needs them. */
export function storedAssignment(ctx: AppContext, assignment: AssignmentRow): AssignmentForCheck {
  return {
    ...assignment,
    attachments: async () =>
      Promise.all(
        (await attachmentSources(ctx.db, assignment.id)).map(async (source) => ({
          filename: source.filename,
          content: await ctx.storage.read(source.storageKey),
        })),
      ),
  };
}

export async function checkPytestModule(
  ctx: AppContext,
  owner: number,
  assignment: AssignmentForCheck,
  module: ModuleToCheck,
): Promise<ModuleCheck> {
  const checkedAt = new Date().toISOString();
  const solution = assignment.referenceSolution.trim()
    ? { code: assignment.referenceSolution, from: 'reference' as const }
    : assignment.starterCode.trim()
      ? { code: assignment.starterCode, from: 'starter' as const }
      : null;
  try {
    const attachments = await assignment.attachments();
    const result = await checkTestFile(
      { run: runSandboxed, runPaired, slots: testRunSlots.forOwner(owner) },
      {
        ...module,
        entryFile: assignment.entryFile,
        requiredFiles: assignment.requiredFiles,
        solution,
        attachments,
      },
      AbortSignal.timeout(CHECK_TIMEOUT_MS),
    );
    if (result.status === 'ready') {
      return {
        check: {
          status: 'ready',
          reason: null,
          message: '',
          tests: result.tests,
          against: result.against,
          checked_at: checkedAt,
        },
        draft: false,
        shares: result.shares,
      };
    }
    return {
      check: {
        status: 'draft',
        reason: result.reason,
        message: result.message,
        tests: [],
        against: result.against,
        checked_at: checkedAt,
      },
      draft: true,
      shares: null,
    };
  } catch (error) {
    // Not the file's fault: no sandbox here, pytest missing, the host failing, too slow. It runs as saved.
    const reason = error instanceof Error ? error.message : String(error);
    ctx.log.warn({ err: error }, 'a pytest module could not be checked');
    return {
      check: {
        status: 'unchecked',
        reason: { code: 'not_checked' },
        message: reason.slice(0, 2000),
        tests: [],
        against: null,
        checked_at: checkedAt,
      },
      draft: false,
      shares: null,
    };
  }
}
