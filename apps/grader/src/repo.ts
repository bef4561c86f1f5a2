/**
 * Every SQL statement of a grading attempt. The rule that keeps grading exactly-once: an attempt claims
 * the submission by writing a fresh `grading_token`, and every later write of that attempt is
 * conditional on still holding it (and on the submission still being Executing), so a re-grade, a
 * cancel or a newer attempt silently wins over a stale one.
 */
import { z } from 'zod';
import type { AssignmentFormat, NamedFile } from './format.ts';
import type { EvaluationResult, TestCaseSpec } from './evaluation.ts';
import type { Query, SqlClient } from './types.ts';

const bytes = z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'bytea');
const count = z.coerce.number().int();

const ClaimRow = z.object({ assignment_id: count, grading_token: z.string(), grading_attempts: count });
export type Claim = { assignmentId: number; token: string; attempts: number };

export interface ClaimOptions {
  hostId: string;
  /** An Executing attempt older than this is abandoned (GRADING_TIMEOUT). */
  timeoutSeconds: number;
  /** A host whose heartbeat is older than this is dead. */
  staleAfterSeconds: number;
}

/**
 * Claims a submission for one attempt: it must be Scheduled, or Executing under an attempt that is
 * dead (its host stopped beating) or past the timeout. A duplicate job never steals a live attempt.
 */
export async function claimSubmission(
  query: Query,
  submissionId: number,
  options: ClaimOptions,
): Promise<Claim | null> {
  const { rows } = await query(
    `UPDATE submissions s
        SET status = 'Executing', grading_token = gen_random_uuid(), started_at = now(),
            grading_attempts = s.grading_attempts + 1, grader_host = $2, message = ''
      WHERE s.id = $1
        AND (s.status = 'Scheduled'
             OR (s.status = 'Executing'
                 AND (s.started_at IS NULL
                      OR s.started_at < now() - make_interval(secs => $3::float8)
                      OR NOT EXISTS (SELECT 1 FROM grader_hosts h
                                      WHERE h.id = s.grader_host
                                        AND h.last_seen_at > now() - make_interval(secs => $4::float8)))))
      RETURNING s.assignment_id, s.grading_token::text AS grading_token, s.grading_attempts`,
    [submissionId, options.hostId, options.timeoutSeconds, options.staleAfterSeconds],
  );
  if (rows.length === 0) return null;
  const row = ClaimRow.parse(rows[0]);
  return { assignmentId: row.assignment_id, token: row.grading_token, attempts: row.grading_attempts };
}

const AssignmentRow = z.object({
  entry_file: z.string(),
  required_files: z.array(z.string()),
  allowed_extensions: z.array(z.string()),
  max_files: count,
  max_file_bytes: count,
});
const FileRow = z.object({ filename: z.string(), content: bytes });
const AttachmentRow = z.object({ filename: z.string(), storage_key: z.string() });
const TestCaseRow = z.object({
  id: count,
  name: z.string(),
  kind: z.enum(['io', 'script', 'pytest']),
  points: count,
  stdin: z.string(),
  expected_stdout: z.string(),
  comparison: z.enum(['exact', 'whitespace', 'numeric']),
  tolerance: z.coerce.number(),
  driver: z.string(),
  check_script: z.string(),
  test_file_name: z.string(),
  test_code: z.string(),
  time_limit_ms: count,
  memory_limit_mb: count,
});

export interface GradingInput {
  format: AssignmentFormat;
  files: NamedFile[];
  attachments: { filename: string; storageKey: string }[];
  tests: TestCaseSpec[];
}

/** Everything one attempt needs, read as it is now (test cases may have changed since submitting). */
export async function loadGradingInput(
  query: Query,
  submissionId: number,
  assignmentId: number,
): Promise<GradingInput | null> {
  const assignment = await query(
    `SELECT entry_file, required_files, allowed_extensions, max_files, max_file_bytes
       FROM assignments WHERE id = $1`,
    [assignmentId],
  );
  if (assignment.rows.length === 0) return null;
  const a = AssignmentRow.parse(assignment.rows[0]);
  const files = await query(
    'SELECT filename, content FROM submission_files WHERE submission_id = $1 ORDER BY filename',
    [submissionId],
  );
  const attachments = await query(
    'SELECT filename, storage_key FROM assignment_files WHERE assignment_id = $1 ORDER BY filename',
    [assignmentId],
  );
  const tests = await query(
    `SELECT id, name, kind, points, stdin, expected_stdout, comparison, tolerance, driver, check_script,
            test_file_name, test_code, time_limit_ms, memory_limit_mb
       FROM test_cases WHERE assignment_id = $1 AND NOT draft ORDER BY position, id`,
    [assignmentId],
  );
  return {
    format: {
      entryFile: a.entry_file,
      requiredFiles: a.required_files,
      allowedExtensions: a.allowed_extensions,
      maxFiles: a.max_files,
      maxFileBytes: a.max_file_bytes,
    },
    files: files.rows.map((row) => FileRow.parse(row)),
    attachments: attachments.rows
      .map((row) => AttachmentRow.parse(row))
      .map((row) => ({ filename: row.filename, storageKey: row.storage_key })),
    tests: tests.rows
      .map((row) => TestCaseRow.parse(row))
      .map((t) => ({
        id: t.id,
        name: t.name,
        kind: t.kind,
        points: t.points,
        stdin: t.stdin,
        expectedStdout: t.expected_stdout,
        comparison: t.comparison,
        tolerance: t.tolerance,
        driver: t.driver,
        checkScript: t.check_script,
        testFileName: t.test_file_name,
        testCode: t.test_code,
        timeLimitMs: t.time_limit_ms,
        memoryLimitMb: t.memory_limit_mb,
      })),
  };
}

const HELD = `id = $1 AND grading_token = $2::uuid AND status = 'Executing'`;

/**
 * Stores every evaluation and the score in one transaction, only while this attempt still holds the
 * submission. Returns false (and writes nothing) when it does not.
 */
export async function storeResults(
  sql: SqlClient,
  submissionId: number,
  token: string,
  results: EvaluationResult[],
): Promise<boolean> {
  return sql.transaction(async (query) => {
    const held = await query(
      `UPDATE submissions SET status = 'Completed', message = '', graded_at = now()
        WHERE ${HELD} RETURNING id`,
      [submissionId, token],
    );
    if (held.rows.length === 0) return false;
    if (results.length > 0) {
      await query(
        `INSERT INTO evaluations (submission_id, test_case_id, status, points, reason, time_ms, memory_kb,
                                  exit_code, signal, stdout, stderr, checker_message, items)
         SELECT $1, r.test_case_id, r.status, r.points, r.reason, r.time_ms, r.memory_kb, r.exit_code,
                r.signal, r.stdout, r.stderr, r.checker_message, r.items::jsonb
           FROM unnest($2::int[], $3::text[], $4::int[], $5::text[], $6::int[], $7::int[], $8::int[],
                       $9::text[], $10::text[], $11::text[], $12::text[], $13::text[])
                AS r(test_case_id, status, points, reason, time_ms, memory_kb, exit_code, signal, stdout,
                     stderr, checker_message, items)
          -- A test case deleted while this attempt ran is not scored.
          WHERE EXISTS (SELECT 1 FROM test_cases t WHERE t.id = r.test_case_id)
         ON CONFLICT (submission_id, test_case_id) DO UPDATE
            SET status = EXCLUDED.status, points = EXCLUDED.points, reason = EXCLUDED.reason,
                time_ms = EXCLUDED.time_ms, memory_kb = EXCLUDED.memory_kb, exit_code = EXCLUDED.exit_code,
                signal = EXCLUDED.signal, stdout = EXCLUDED.stdout, stderr = EXCLUDED.stderr,
                checker_message = EXCLUDED.checker_message, items = EXCLUDED.items,
                overridden_by = NULL, comment = '',
                created_at = now()`,
        [
          submissionId,
          results.map((r) => r.testCaseId),
          results.map((r) => r.status),
          results.map((r) => r.points),
          results.map((r) => r.reason),
          results.map((r) => r.timeMs),
          results.map((r) => r.memoryKb),
          results.map((r) => r.exitCode),
          results.map((r) => r.signal),
          results.map((r) => r.stdout),
          results.map((r) => r.stderr),
          results.map((r) => r.checkerMessage),
          results.map((r) => JSON.stringify(r.items)),
        ],
      );
    }
    await query('DELETE FROM evaluations WHERE submission_id = $1 AND NOT (test_case_id = ANY($2::int[]))', [
      submissionId,
      results.map((r) => r.testCaseId),
    ]);
    await followReferenceRun(query, submissionId);
    await setScore(
      query,
      submissionId,
      'SELECT COALESCE(SUM(points), 0) FROM evaluations WHERE submission_id = $1',
    );
    await tellAuthor(query, submissionId, token);
    return true;
  });
}

/**
 * A reference run counts the tests of each pytest test case whose points follow them (`points_auto`):
 * those points become its collected shares, and the reference's own evaluation earns its passed shares.
 * A run that collected nothing (a broken module) changes nothing.
 */
async function followReferenceRun(query: Query, submissionId: number): Promise<void> {
  await query(
    `WITH counted AS (
       SELECT e.id AS evaluation_id, e.test_case_id,
              (SELECT COALESCE(SUM((i->>'max_points')::int), 0) FROM jsonb_array_elements(e.items) i) AS shares,
              (SELECT COALESCE(SUM((i->>'points')::int), 0) FROM jsonb_array_elements(e.items) i) AS earned
         FROM evaluations e JOIN submissions s ON s.id = e.submission_id
        WHERE e.submission_id = $1 AND s.is_reference AND jsonb_array_length(e.items) > 0
     ), points AS (
       UPDATE test_cases t SET points = LEAST(c.shares, 1000), updated_at = now()
         FROM counted c
        WHERE t.id = c.test_case_id AND t.points_auto AND t.kind = 'pytest' AND t.points <> LEAST(c.shares, 1000)
     )
     UPDATE evaluations e SET points = LEAST(c.earned, 1000)
       FROM counted c JOIN test_cases t ON t.id = c.test_case_id
      WHERE e.id = c.evaluation_id AND t.points_auto AND t.kind = 'pytest'`,
    [submissionId],
  );
}

async function setScore(query: Query, submissionId: number, scoreSql: string): Promise<void> {
  await query(
    `UPDATE submissions s
        SET score = (${scoreSql})::int,
            max_score = (SELECT COALESCE(SUM(points), 0) FROM test_cases t
                          WHERE t.assignment_id = s.assignment_id AND NOT t.draft)::int
      WHERE s.id = $1`,
    [submissionId],
  );
}

/**
 * The author's notification that their submission was graded (docs/notifications.md, "Events"), in the
 * attempt's transaction: the same row shape as the API's fan-out (apps/api notify.repo.ts), which the
 * grader cannot import. The key names the attempt's token, so a re-grade is a new event and nothing else
 * is. Reference runs and authors who are not students of the course (an editor trying it) are not told.
 * The e-mail waits two minutes: the author is likely on the page, which marks it read.
 */
async function tellAuthor(query: Query, submissionId: number, token: string): Promise<void> {
  await query(
    `INSERT INTO notifications (user_id, course_id, kind, event_key, link, facts, mail_after)
     SELECT s.user_id, s.course_id, 'submission_graded', 'graded:' || s.id || ':' || $2::text,
            '/course/' || s.course_id || '/submission/' || s.id,
            jsonb_strip_nulls(jsonb_build_object('title', a.title, 'score', s.score, 'max_score', s.max_score)),
            now() + interval '2 minutes'
       FROM submissions s
       JOIN assignments a ON a.id = s.assignment_id
       JOIN users u ON u.id = s.user_id AND u.is_active
       JOIN course_students cs ON cs.course_id = s.course_id AND cs.user_id = s.user_id
      WHERE s.id = $1 AND NOT s.is_reference
     ON CONFLICT (user_id, event_key) DO NOTHING`,
    [submissionId, token],
  );
}

/** InvalidFormat: the reason for the student, score 0, no evaluations. */
export async function storeInvalidFormat(
  sql: SqlClient,
  submissionId: number,
  token: string,
  message: string,
): Promise<boolean> {
  return sql.transaction(async (query) => {
    const held = await query(
      `UPDATE submissions SET status = 'InvalidFormat', message = $3, graded_at = now()
        WHERE ${HELD} RETURNING id`,
      [submissionId, token, message],
    );
    if (held.rows.length === 0) return false;
    await query('DELETE FROM evaluations WHERE submission_id = $1', [submissionId]);
    await setScore(query, submissionId, 'SELECT 0');
    await tellAuthor(query, submissionId, token);
    return true;
  });
}

/** Gives the submission back to the queue after a failure that was not the student's (a retry follows). */
export async function releaseForRetry(
  query: Query,
  submissionId: number,
  token: string,
  message: string,
): Promise<boolean> {
  const { rows } = await query(
    `UPDATE submissions
        SET status = 'Scheduled', grading_token = NULL, grader_host = NULL, started_at = NULL, message = $3
      WHERE ${HELD} RETURNING id`,
    [submissionId, token, message],
  );
  return rows.length > 0;
}

/** The last attempt failed for a reason that was not the student's. */
export async function markInternalError(
  query: Query,
  submissionId: number,
  token: string,
  message: string,
): Promise<boolean> {
  const { rows } = await query(
    `UPDATE submissions SET status = 'InternalError', message = $3, graded_at = now(), grading_token = NULL
      WHERE ${HELD} RETURNING id`,
    [submissionId, token, message],
  );
  return rows.length > 0;
}
