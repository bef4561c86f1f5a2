import {
  WrongReason,
  type Evaluation,
  type Submission,
  type SubmissionFile,
  type Visibility,
} from '@kadai/contracts';
import type { Config } from '../../config.ts';
import type { EvaluationItemRow } from '../../db/schema-assignments.ts';
import { signDownload } from '../../lib/downloads.ts';
import type { SubmissionFileMeta, SubmissionView } from './submissions.repo.ts';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The text of a file when it is UTF-8 (without NUL bytes); null for anything binary. */
export function textOf(content: Buffer | null): string | null {
  if (!content || content.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    return null;
  }
}

export function toSubmissionFile(
  config: Pick<Config, 'JWT_SECRET' | 'SIGNED_URL_LIFETIME'>,
  file: SubmissionFileMeta & { content?: Buffer | null },
): SubmissionFile {
  return {
    id: file.id,
    submission_id: file.submissionId,
    filename: file.filename,
    url: signDownload(config, { kind: 'submission_file', id: file.id }),
    size: file.size,
    created_at: file.createdAt.toISOString(),
    content: file.content === undefined ? null : textOf(file.content),
  };
}

export function toSubmission(view: SubmissionView, files: SubmissionFile[]): Submission {
  return {
    id: view.id,
    assignment_id: view.assignmentId,
    assignment_title: view.assignmentTitle,
    course_id: view.courseId,
    user: {
      id: view.userId,
      email: view.userEmail,
      first_name: view.userFirstName,
      last_name: view.userLastName,
    },
    status: view.status,
    message: view.message,
    score: view.score,
    max_score: view.maxScore,
    is_final: view.isFinal,
    is_late: view.isLate,
    is_reference: view.isReference,
    due_at: view.dueAt.toISOString(),
    created_at: view.createdAt.toISOString(),
    queued_at: iso(view.queuedAt),
    started_at: iso(view.startedAt),
    graded_at: iso(view.gradedAt),
    queue_position: view.status === 'Scheduled' ? view.queuePosition : null,
    files,
  };
}

/** Submissions with the metadata (no text) of their files, in the order given. */
export function toSubmissions(
  config: Pick<Config, 'JWT_SECRET' | 'SIGNED_URL_LIFETIME'>,
  views: SubmissionView[],
  files: SubmissionFileMeta[],
): Submission[] {
  const bySubmission = new Map<number, SubmissionFile[]>();
  for (const file of files) {
    const list = bySubmission.get(file.submissionId) ?? [];
    list.push(toSubmissionFile(config, file));
    bySubmission.set(file.submissionId, list);
  }
  return views.map((view) => toSubmission(view, bySubmission.get(view.id) ?? []));
}

/** One evaluation with its test case, as stored. */
export interface EvaluationRow {
  id: number;
  submissionId: number;
  testCaseId: number;
  testCaseName: string;
  position: number;
  visibility: Visibility;
  maxPoints: number;
  status: 'Correct' | 'Wrong';
  points: number;
  reason: string | null;
  timeMs: number | null;
  memoryKb: number | null;
  exitCode: number | null;
  signal: string | null;
  stdin: string;
  expectedStdout: string;
  stdout: string;
  stderr: string;
  checkerMessage: string;
  items: EvaluationItemRow[];
  overriddenBy: number | null;
  comment: string;
  createdAt: Date;
}

/**
 * Whether the caller sees a test's input, expected output and the program's output: managers always;
 * the author for `visible` tests, and for `after_due` tests once submissions have closed (late cut-off, else
 * due date: nobody may still submit after seeing them; the same rule as the test-case list); never for `hidden` ones.
 */
export function showsFullEvaluation(
  visibility: Visibility,
  canManage: boolean,
  closesAt: Date,
  now: Date = new Date(),
): boolean {
  if (canManage || visibility === 'visible') return true;
  return visibility === 'after_due' && closesAt.getTime() < now.getTime();
}

/**
 * Role-shaped: `full` carries the test's input and expected output, the program's output, time and
 * memory; `hidden` has no such fields at all (time and memory could spell out a hidden input), and the
 * response schema (a discriminated union) drops anything extra.
 */
export function toEvaluation(row: EvaluationRow, full: boolean): Evaluation {
  const reason = WrongReason.safeParse(row.reason);
  const common = {
    id: row.id,
    submission_id: row.submissionId,
    test_case_id: row.testCaseId,
    test_case_name: row.testCaseName,
    position: row.position,
    status: row.status,
    points: row.points,
    max_points: row.maxPoints,
    reason: reason.success ? reason.data : null,
    overridden: row.overriddenBy !== null,
    comment: row.comment,
    created_at: row.createdAt.toISOString(),
  };
  if (!full) {
    // A hidden pytest test tells each collected test's name, outcome and points: never its message.
    const items = row.items.map(({ name, outcome, points, max_points }) => ({
      name,
      outcome,
      points,
      max_points,
    }));
    return { view: 'hidden', ...common, items };
  }
  return {
    view: 'full',
    ...common,
    time_ms: row.timeMs,
    memory_kb: row.memoryKb,
    stdin: row.stdin,
    expected_stdout: row.expectedStdout,
    stdout: row.stdout,
    stderr: row.stderr,
    exit_code: row.exitCode,
    signal: row.signal,
    checker_message: row.checkerMessage,
    items: row.items,
  };
}
