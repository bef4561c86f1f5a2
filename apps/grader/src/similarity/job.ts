/**
 * The similarity report's background job (docs/similarity.md). The API takes the snapshot of what to
 * compare (it knows the LMS's rules: counted submissions, boilerplate) into `similarity_reports.input`
 * and queues the report's id; whichever grader works the queue — a grader host, or the API's embedded
 * grader — runs Dolos over it and writes the result. Comparing is CPU work, so it belongs where grading
 * already runs, never on a request.
 */
import { z } from 'zod';
import { MAX_SIMILARITY_SUBMISSIONS, StoredSimilarityResult } from '@kadai/contracts';
import { compareSubmissionsInTurns, type CompareOptions } from './compare.ts';
import type { GraderJobQueue, GraderLogger, SqlClient } from '../types.ts';

/** The pg-boss queue of similarity reports; the API sends to it, graders work it. */
export const SIMILARITY_QUEUE = 'similarity';

export interface SimilarityJobData {
  reportId: number;
}

/** What the API stores in `input`: checked again here, as anything read back from the database is. */
export const SimilarityInputSchema = z.object({
  submissions: z
    .array(
      z.object({
        submission_id: z.number().int(),
        user_id: z.number().int(),
        course_id: z.number().int(),
        content: z.string(),
      }),
    )
    .max(MAX_SIMILARITY_SUBMISSIONS),
  boilerplate: z.array(z.string()),
});
export type SimilarityInputSnapshot = z.infer<typeof SimilarityInputSchema>;

/**
 * Runs one report. A report already done or failed is left alone, so a job delivered twice does
 * nothing the second time; one whose worker died mid-way is still `running` with its input, and runs
 * again. A comparison that throws marks the report failed (running it again would throw again).
 */
export async function runSimilarityReport(
  sql: SqlClient,
  reportId: number,
  log: GraderLogger,
  options: CompareOptions = {},
): Promise<void> {
  const { rows } = await sql.query(
    `update similarity_reports set status = 'running', started_at = now()
     where id = $1 and status in ('queued', 'running') returning input`,
    [reportId],
  );
  const [row] = rows;
  if (!row) return;
  try {
    const input = SimilarityInputSchema.parse(
      typeof row.input === 'string' ? JSON.parse(row.input) : row.input,
    );
    const result = StoredSimilarityResult.parse(await compareSubmissionsInTurns(input, options));
    await sql.query(
      `update similarity_reports set status = 'done', result = $2::jsonb, submission_count = $3,
         pair_count = $4, finished_at = now(), input = null, error = null
       where id = $1`,
      [reportId, JSON.stringify(result), result.submissions.length, result.pair_count],
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.error(`similarity report ${reportId} failed: ${message}`);
    await sql.query(
      `update similarity_reports set status = 'failed', error = $2, finished_at = now(), input = null
       where id = $1`,
      [reportId, message.slice(0, 500)],
    );
  }
}

export interface SimilarityWorker {
  stop(): Promise<void>;
}

/** Works the similarity queue, one report at a time per process (each takes seconds of one core). */
export async function startSimilarityWorker(options: {
  sql: SqlClient;
  jobs: GraderJobQueue;
  log: GraderLogger;
  pollingIntervalSeconds?: number;
}): Promise<SimilarityWorker> {
  const { sql, jobs, log } = options;
  const workerId = await jobs.work(
    SIMILARITY_QUEUE,
    async (batch) => {
      for (const job of batch) {
        const data = z.object({ reportId: z.number().int() }).safeParse(job.data);
        if (data.success) await runSimilarityReport(sql, data.data.reportId, log);
      }
    },
    { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds },
  );
  return { stop: () => jobs.offWork(workerId) };
}
