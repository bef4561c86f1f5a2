import { z } from 'zod';
import { BoolQuery, Id, PageQuery, paginated, str } from './common.ts';
import { FileName, MAX_SCRIPT_TEXT, MAX_SUBMISSION_FILES, SubmissionStatus } from './assignments.ts';
import { UserSummary } from './users.ts';

export const EVALUATION_STATUSES = ['Correct', 'Wrong'] as const;
export const EvaluationStatus = z.enum(EVALUATION_STATUSES);
export type EvaluationStatus = z.infer<typeof EvaluationStatus>;

/** Why a test is Wrong. */
export const WrongReason = z.enum([
  'wrong_answer',
  'runtime_error',
  'time_limit',
  'memory_limit',
  'output_limit',
  'file_size',
  'checker_error',
  /** A pytest test file could not run its tests: no tests collected, an error importing the module. */
  'collection_error',
]);
export type WrongReason = z.infer<typeof WrongReason>;

/** One collected test of a `pytest` test case. `time_limit`: the run was cut before it finished. */
export const ItemOutcome = z.enum(['passed', 'failed', 'error', 'skipped', 'time_limit']);
export type ItemOutcome = z.infer<typeof ItemOutcome>;

const itemCommon = {
  /** pytest's node id without the file name: `test_add`, `TestAdd::test_zero`, `test_sq[3-9]`. */
  name: z.string(),
  outcome: ItemOutcome,
  /** Its share of the test case: 1, or what `@points(n)` says; 0 unless passed. */
  points: z.number().int(),
  max_points: z.number().int(),
};
/** For editors, and for students on visible tests: the assertion message (with pytest's diff) and output. */
export const EvaluationItemFull = z
  .object({ ...itemCommon, message: z.string(), output: z.string() })
  .meta({ id: 'EvaluationItemFull' });
export type EvaluationItemFull = z.infer<typeof EvaluationItemFull>;
/** On a hidden test a student learns each item's name, outcome and points only. */
export const EvaluationItemHidden = z.object(itemCommon).meta({ id: 'EvaluationItemHidden' });
export type EvaluationItemHidden = z.infer<typeof EvaluationItemHidden>;

export const SubmissionFile = z
  .object({
    id: z.number().int(),
    submission_id: z.number().int(),
    filename: z.string(),
    /** A short-lived signed download URL. */
    url: z.string(),
    size: z.number().int(),
    created_at: z.iso.datetime(),
    /** The text of the file in the detail view when it is UTF-8 text; null otherwise and in lists. */
    content: z.string().nullable(),
  })
  .meta({ id: 'SubmissionFile' });
export type SubmissionFile = z.infer<typeof SubmissionFile>;

export const Submission = z
  .object({
    id: z.number().int(),
    assignment_id: z.number().int(),
    assignment_title: z.string(),
    course_id: z.number().int(),
    user: UserSummary,
    status: SubmissionStatus,
    /** Why it is InvalidFormat, InternalError or Canceled, or why it still waits (no sandbox). */
    message: z.string(),
    score: z.number().int().nullable(),
    max_score: z.number().int().nullable(),
    is_final: z.boolean(),
    is_late: z.boolean(),
    is_reference: z.boolean(),
    due_at: z.iso.datetime(),
    created_at: z.iso.datetime(),
    queued_at: z.iso.datetime().nullable(),
    started_at: z.iso.datetime().nullable(),
    graded_at: z.iso.datetime().nullable(),
    /** 1 for the next to be graded, while Scheduled; null otherwise. */
    queue_position: z.number().int().nullable(),
    files: z.array(SubmissionFile),
  })
  .meta({ id: 'Submission' });
export type Submission = z.infer<typeof Submission>;

const evaluationCommon = {
  id: z.number().int(),
  submission_id: z.number().int(),
  test_case_id: z.number().int(),
  test_case_name: z.string(),
  position: z.number().int(),
  status: EvaluationStatus,
  points: z.number().int(),
  max_points: z.number().int(),
  /** A fixed category, never text: the only thing a hidden test tells besides the verdict. */
  reason: WrongReason.nullable(),
  /** Set when an editor changed the result by hand. */
  overridden: z.boolean(),
  comment: z.string(),
  created_at: z.iso.datetime(),
};

/** Editors, staff, and students for visible (or, after the due date, after_due) tests. */
export const EvaluationFull = z
  .object({
    view: z.literal('full'),
    ...evaluationCommon,
    /** Wall time of the run (sandbox start-up included) and peak memory of the program. */
    time_ms: z.number().int().nullable(),
    memory_kb: z.number().int().nullable(),
    stdin: z.string(),
    expected_stdout: z.string(),
    stdout: z.string(),
    stderr: z.string(),
    exit_code: z.number().int().nullable(),
    signal: z.string().nullable(),
    checker_message: z.string(),
    /** A `pytest` test's collected tests, in the order they ran; empty for other kinds. */
    items: z.array(EvaluationItemFull),
  })
  .meta({ id: 'EvaluationFull' });
/**
 * A hidden test, as a student sees it: the verdict and the reason's category, nothing of its input,
 * output or checker — and no time or memory: a program that reads the hidden input could spell it out
 * in how long it runs or how much it allocates.
 */
export const EvaluationHidden = z
  .object({ view: z.literal('hidden'), ...evaluationCommon, items: z.array(EvaluationItemHidden) })
  .meta({
    id: 'EvaluationHidden',
  });
export const Evaluation = z.discriminatedUnion('view', [EvaluationFull, EvaluationHidden]);
export type Evaluation = z.infer<typeof Evaluation>;

export const SubmissionDetail = Submission.extend({
  evaluations: z.array(Evaluation),
  can_manage: z.boolean(),
}).meta({ id: 'SubmissionDetail' });
export type SubmissionDetail = z.infer<typeof SubmissionDetail>;

export const SubmittedFile = z.strictObject({
  filename: FileName,
  /** The file's text, or its bytes in base64 when `encoding` is base64. */
  content: str().max(8 * 1024 * 1024),
  encoding: z.enum(['utf-8', 'base64']).default('utf-8'),
});

export const SubmitRequest = z.strictObject({
  assignment_id: Id,
  course_id: Id,
  /** Code typed in the editor, saved under the assignment's entry file. */
  code: str().max(MAX_SCRIPT_TEXT).optional(),
  files: z.array(SubmittedFile).max(MAX_SUBMISSION_FILES).default([]),
  /**
   * True: the submission stays Pending while files are added through FileSubmission; it is queued by
   * `POST Score/{submission_id}/submission_specific/`.
   */
  upload_files_later: z.boolean().default(false),
});
export type SubmitRequest = z.infer<typeof SubmitRequest>;

/**
 * `POST Submission/Precheck/`: the body of Submit (files cannot come later), run against the visible
 * test cases only and answered at once; nothing is stored.
 */
export const PrecheckRequest = SubmitRequest.extend({
  upload_files_later: z.literal(false, 'A precheck runs the files given now.').default(false),
});
export type PrecheckRequest = z.infer<typeof PrecheckRequest>;
/** One visible test case's result in a precheck: an evaluation's fields, without the stored ones. */
export const PrecheckTest = EvaluationFull.omit({
  view: true,
  id: true,
  submission_id: true,
  overridden: true,
  comment: true,
  created_at: true,
}).meta({ id: 'PrecheckTest' });
export type PrecheckTest = z.infer<typeof PrecheckTest>;
export const PrecheckResult = z
  .object({
    /** `InvalidFormat`: the files would be refused by the grader (`message` says why); no tests ran. */
    status: z.enum(['Completed', 'InvalidFormat']),
    message: z.string(),
    /** Of the visible tests only. */
    score: z.number().int(),
    max_score: z.number().int(),
    /** Test cases that a submission is graded on but a precheck does not run (hidden, after_due). */
    not_run: z.number().int(),
    tests: z.array(PrecheckTest),
  })
  .meta({ id: 'PrecheckResult' });
export type PrecheckResult = z.infer<typeof PrecheckResult>;

export const SUBMISSION_ORDERINGS = [
  'id',
  '-id',
  'created_at',
  '-created_at',
  'score',
  '-score',
  'status',
  '-status',
] as const;

export const SubmissionListQuery = PageQuery.extend({
  is_final: BoolQuery.optional(),
  ordering: z.enum(SUBMISSION_ORDERINGS).default('-created_at'),
  /** Matched in the assignment title and the student's e-mail and names. */
  search: str().trim().normalize('NFC').max(100).optional(),
  assignment_id: Id.optional(),
  course_id: Id.optional(),
  status: SubmissionStatus.optional(),
  is_late: BoolQuery.optional(),
  /** Keyset cursor from a previous page's `next_cursor`, for deep pages (ordering -created_at only). */
  cursor: str().max(200).optional(),
});
export type SubmissionListQuery = z.infer<typeof SubmissionListQuery>;
export const SubmissionList = paginated(Submission).extend({ next_cursor: z.string().nullable() });
export type SubmissionList = z.infer<typeof SubmissionList>;

export const SubmissionCourseParams = z.object({ course_id: Id });
export const SubmissionCourseUserParams = z.object({ course_id: Id, user_id: Id });
export const SubmissionFileParams = z.object({ submission_id: Id, id: Id });
export const SubmissionIdParams = z.object({ submission_id: Id });
export const SelectFinalParams = z.object({ assignment_id: Id, course_id: Id, submission_id: Id });
export const FinalSubmission = z.object({ submission: Submission.nullable() });

export const EvaluationListQuery = PageQuery.extend({
  submission: Id.optional(),
  status: EvaluationStatus.optional(),
  ordering: z.enum(['id', '-id', 'position', '-position']).default('position'),
});
export const EvaluationList = paginated(Evaluation);

/** `POST Submission/Score/`: an editor sets one test's result by hand; the score is recomputed. */
export const ScoreOverride = z.strictObject({
  submission_id: Id,
  test_case_id: Id,
  status: EvaluationStatus,
  /** Defaults to the test's points when Correct and 0 when Wrong. */
  points: z.number().int().min(0).max(1000).optional(),
  comment: str().max(5000).default(''),
});
export type ScoreOverride = z.infer<typeof ScoreOverride>;

export const ScoreTestCaseParams = z.object({ testcase_id: Id, course_id: Id });
export const RegradeResult = z.object({ queued: z.number().int() });

export const CsvQuery = z.object({
  assignment_id: Id,
  course_id: Id,
  /** Which submission represents a student: their final one (else the best), or always the best. */
  choose: z.enum(['final', 'best']).default('final'),
});

/* ─── Leaderboard ───────────────────────────────────────────────────────────────────────────── */

export const LeaderboardEntry = z.object({
  rank: z.number().int(),
  /** The nickname (students see only nicknames); editors and staff see the real name. */
  name: z.string(),
  /**
   * Editors and staff: the real name's parts, for the page to write in the reader's order
   * (`personName`); null where the caller sees a nickname.
   */
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  /** Editors and staff, and the caller's own row; null otherwise. */
  user_id: z.number().int().nullable(),
  score: z.number().int(),
  /** When the ranked submission was made (earlier wins a tie). */
  submitted_at: z.iso.datetime(),
  is_me: z.boolean(),
});
export const LeaderboardProfile = z.object({
  nickname: z.string().nullable(),
  opt_out: z.boolean(),
});
export const LeaderboardProfileUpdate = z.strictObject({
  nickname: str().trim().normalize('NFC').min(1).max(40).nullable().optional(),
  opt_out: z.boolean().optional(),
});
export const Leaderboard = z.object({
  assignment_id: z.number().int(),
  course_id: z.number().int(),
  enabled: z.boolean(),
  max_score: z.number().int(),
  entries: z.array(LeaderboardEntry),
  my_profile: LeaderboardProfile,
});
export type Leaderboard = z.infer<typeof Leaderboard>;
export const LeaderboardParams = z.object({ assignment_id: Id, course_id: Id });

/* ─── PyGrade console ───────────────────────────────────────────────────────────────────────── */

export const GraderHost = z.object({
  id: z.string(),
  hostname: z.string(),
  pid: z.number().int(),
  started_at: z.iso.datetime(),
  last_seen_at: z.iso.datetime(),
  alive: z.boolean(),
  sandbox_ok: z.boolean(),
  sandbox_detail: z.string(),
  concurrency: z.number().int(),
  running: z.number().int(),
  graded: z.number().int(),
});
export const GradingJob = z.object({
  submission_id: z.number().int(),
  assignment_title: z.string(),
  course_id: z.number().int(),
  /** The course's name, for the console's Course column (the id alone told a reader nothing). */
  course_title: z.string(),
  status: SubmissionStatus,
  queued_at: z.iso.datetime().nullable(),
  started_at: z.iso.datetime().nullable(),
  graded_at: z.iso.datetime().nullable(),
  grader_host: z.string().nullable(),
  score: z.number().int().nullable(),
  max_score: z.number().int().nullable(),
});
export const PygradeStatus = z.object({
  queue_depth: z.number().int(),
  running: z.array(GradingJob),
  recent: z.array(GradingJob),
  hosts: z.array(GraderHost),
  sandbox: z.object({ ok: z.boolean(), detail: z.string() }),
});
export type PygradeStatus = z.infer<typeof PygradeStatus>;
/** `POST Pygrade/run/` runs at most this many snippets a minute per person (the page says so). */
export const SNIPPET_RUNS_PER_MINUTE = 10;
export const SnippetRunRequest = z.strictObject({
  code: str().min(1).max(MAX_SCRIPT_TEXT),
  stdin: str().max(100_000).default(''),
});
export const SnippetRunResult = z.object({
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable(),
  time_ms: z.number().int(),
  memory_kb: z.number().int().nullable(),
  stdout: z.string(),
  stderr: z.string(),
  /** The limit the run hit (CPU time, wall clock, memory, output, file size), so the page can say it. */
  limit: z.enum(['cpu', 'wall', 'memory', 'output', 'file_size']).nullable(),
});

/* ─── Added with the submissions API ────────────────────────────────────────────────────────── */

/** `GET` and `POST Submission/{submission_id}/FileSubmission/`: the files (POST: those it added). */
export const SubmissionFileList = z.array(SubmissionFile);

/**
 * `GET Submission/`: managers may add `is_reference=true` to list reference runs (of the courses they
 * manage) instead of submissions; without it reference runs are never listed.
 */
export const SubmissionListQueryWithReference = SubmissionListQuery.extend({
  is_reference: BoolQuery.optional(),
});
export type SubmissionListQueryWithReference = z.infer<typeof SubmissionListQueryWithReference>;

/** `Submission/by-course/course/{course_id}/` (and `…/user/{user_id}/`): the course comes from the path. */
export const SubmissionCourseListQuery = SubmissionListQuery.omit({ course_id: true });
export type SubmissionCourseListQuery = z.infer<typeof SubmissionCourseListQuery>;

export type EvaluationListQuery = z.infer<typeof EvaluationListQuery>;
export type LeaderboardProfile = z.infer<typeof LeaderboardProfile>;
export type LeaderboardProfileUpdate = z.infer<typeof LeaderboardProfileUpdate>;
export type LeaderboardEntry = z.infer<typeof LeaderboardEntry>;
export type CsvQuery = z.infer<typeof CsvQuery>;
export type GraderHost = z.infer<typeof GraderHost>;
export type GradingJob = z.infer<typeof GradingJob>;
export type SnippetRunRequest = z.infer<typeof SnippetRunRequest>;
export type SnippetRunResult = z.infer<typeof SnippetRunResult>;
