/**
 * Grader hosts announce themselves (a heartbeat row in `grader_hosts`), and every live grader sweeps
 * for work that fell between the cracks: submissions Executing on a host that stopped beating (killed,
 * frozen, unplugged) and Scheduled ones whose job was lost. pg-boss would notice a dead worker's job
 * only after GRADING_TIMEOUT, at its next maintenance run; the heartbeat notices in seconds.
 */
import { z } from 'zod';
import type { Query } from './types.ts';

export interface HostRow {
  /** This process's incarnation: `name:pid:random`. */
  id: string;
  /** The configured GRADER_ID, or null. */
  name: string | null;
  hostname: string;
  pid: number;
  sandboxOk: boolean;
  sandboxDetail: string;
  concurrency: number;
  running: number;
  graded: number;
}

export async function beat(query: Query, host: HostRow): Promise<void> {
  await query(
    `INSERT INTO grader_hosts (id, hostname, pid, started_at, last_seen_at, sandbox_ok, sandbox_detail,
                               concurrency, running, graded, name)
     VALUES ($1, $2, $3, now(), now(), $4, $5, $6, $7, $8, $9)
     ON CONFLICT (id) DO UPDATE
        SET last_seen_at = now(), sandbox_ok = EXCLUDED.sandbox_ok, sandbox_detail = EXCLUDED.sandbox_detail,
            concurrency = EXCLUDED.concurrency, running = EXCLUDED.running, graded = EXCLUDED.graded`,
    [
      host.id,
      host.hostname,
      host.pid,
      host.sandboxOk,
      host.sandboxDetail,
      host.concurrency,
      host.running,
      host.graded,
      host.name,
    ],
  );
}

/**
 * A GRADER_ID names one grader process at a time (a supervisor restarting it, a container started
 * again): a process starting under a name means the one before it has ended, whether or not its row
 * says so. Its row goes at once, so its attempts count as a dead host's at the next sweep instead of
 * looking alive under the newcomer's heartbeat until they time out. (Two live processes given the same
 * name by mistake cost only work: the one whose attempt is taken over writes nothing, by its token.)
 */
export async function retireNamesakes(
  query: Query,
  host: { id: string; name: string | null },
): Promise<number> {
  if (host.name === null) return 0;
  const { rows } = await query('DELETE FROM grader_hosts WHERE name = $1 AND id <> $2 RETURNING id', [
    host.name,
    host.id,
  ]);
  return rows.length;
}

export async function removeHost(query: Query, id: string): Promise<void> {
  await query('DELETE FROM grader_hosts WHERE id = $1', [id]);
}

/** Rows of hosts silent for a day are only clutter for the console. */
export async function forgetLongDeadHosts(query: Query): Promise<void> {
  await query(`DELETE FROM grader_hosts WHERE last_seen_at < now() - interval '1 day'`);
}

const Ids = z.array(z.object({ id: z.coerce.number().int() }));
const ids = (rows: unknown) => Ids.parse(rows).map((r) => r.id);

/** After this many claims a submission whose graders keep dying is given up (it may be what kills them). */
export const MAX_INTERRUPTED_ATTEMPTS = 10;

const DEAD_HOST = `NOT EXISTS (SELECT 1 FROM grader_hosts h
                                WHERE h.id = s.grader_host
                                  AND h.last_seen_at > now() - make_interval(secs => $1::float8))`;

/**
 * Submissions Executing on a dead host go back to Scheduled (their old token is void at once, so the
 * dead attempt can never write); the caller sends a job for each id returned. So do those Executing
 * longer than an attempt may run (`timeoutSeconds`, after which every attempt has been aborted) on a
 * live host: an attempt that could hand back nothing (the database away past its time) strands none.
 */
export async function requeueAbandoned(
  query: Query,
  staleAfterSeconds: number,
  timeoutSeconds = Number.POSITIVE_INFINITY,
): Promise<number[]> {
  await query(
    `UPDATE submissions s
        SET status = 'InternalError', grading_token = NULL, graded_at = now(),
            message = 'Grading was interrupted too many times; ask the course staff to re-grade it.'
      WHERE s.status = 'Executing' AND s.grading_attempts >= $2
        AND s.started_at < now() - make_interval(secs => $1::float8) AND ${DEAD_HOST}`,
    [staleAfterSeconds, MAX_INTERRUPTED_ATTEMPTS],
  );
  const { rows } = await query(
    `UPDATE submissions s
        SET status = 'Scheduled', grading_token = NULL, grader_host = NULL, started_at = NULL,
            message = 'The grader running this submission stopped; it is queued again.'
      WHERE s.status = 'Executing'
        AND (s.started_at IS NULL OR s.started_at < now() - make_interval(secs => $1::float8))
        AND (${DEAD_HOST} OR s.started_at < now() - make_interval(secs => $2::float8))
      RETURNING s.id`,
    [staleAfterSeconds, Number.isFinite(timeoutSeconds) ? timeoutSeconds + staleAfterSeconds : 1e9],
  );
  return ids(rows);
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * Scheduled submissions that have waited longer than `waitedSeconds` and have no job waiting, retrying
 * or running in pg-boss (a send that failed after the row was committed, or a job that failed for
 * good): the caller sends them a job. Looking at pg-boss's table keeps a long queue at a deadline from
 * being flooded with duplicate jobs.
 */
export async function findUnqueued(
  query: Query,
  options: { waitedSeconds: number; queue: string; bossSchema: string; limit?: number },
): Promise<number[]> {
  if (!IDENTIFIER.test(options.bossSchema)) throw new Error(`bad pg-boss schema name ${options.bossSchema}`);
  const { rows } = await query(
    `SELECT s.id FROM submissions s
      WHERE s.status = 'Scheduled'
        AND COALESCE(s.queued_at, s.created_at) < now() - make_interval(secs => $1::float8)
        AND NOT EXISTS (SELECT 1 FROM ${options.bossSchema}.job j
                         WHERE j.name = $2 AND j.state < 'completed'
                           AND j.data->>'submissionId' = s.id::text)
      ORDER BY COALESCE(s.queued_at, s.created_at)
      LIMIT $3`,
    [options.waitedSeconds, options.queue, options.limit ?? 500],
  );
  return ids(rows);
}

export const WAITING_FOR_SANDBOX =
  'Waiting for a grader with a sandbox; it will be graded when one is available.';

/**
 * Says why queued submissions do not move when no live grader has a sandbox — and takes the words back
 * once one has.
 */
export async function markWaitingForSandbox(query: Query, staleAfterSeconds: number): Promise<void> {
  await query(
    `UPDATE submissions SET message = $2
      WHERE status = 'Scheduled' AND message = ''
        AND NOT EXISTS (SELECT 1 FROM grader_hosts h
                         WHERE h.sandbox_ok AND h.last_seen_at > now() - make_interval(secs => $1::float8))`,
    [staleAfterSeconds, WAITING_FOR_SANDBOX],
  );
}

export async function clearWaitingForSandbox(query: Query): Promise<void> {
  await query(`UPDATE submissions SET message = '' WHERE status = 'Scheduled' AND message = $1`, [
    WAITING_FOR_SANDBOX,
  ]);
}
