// bench:grading's submits go through the real API over HTTP (issue 36, item 4): the route, its
// transaction, load shedding and idempotent retries. Each student's client behaves as a browser or a
// proxy does: it gives up on an answer after CLIENT_TIMEOUT_MS and sends the same request again with the
// same Idempotency-Key, and after a 503 or 429 it waits the Retry-After. The figures: time from the first
// try to a 201 (p50, p99), refusals, timeouts, replays — and duplicate submissions, which must be 0.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/api/src/app.ts';
import type { Config } from '../apps/api/src/config.ts';
import type { Database } from '../apps/api/src/db/client.ts';
import { signAccessToken } from '../apps/api/src/features/auth/tokens.ts';
import type { JobQueue } from '../apps/api/src/lib/jobs.ts';
import type { Storage } from '@kadai/storage';
import { percentile } from './stats.ts';

const CLIENT_TIMEOUT_MS = Number(process.env.BENCH_CLIENT_TIMEOUT_MS ?? 10_000);
const MAX_TRIES = 8;

export interface SubmitFigures {
  /** First try → 201, ms, ascending (one per submission that got its 201). */
  latencies: number[];
  /** 503 `overloaded` (or another 503) answers, each followed by a wait and a retry. */
  refused: number;
  /** Tries the client gave up waiting on (the server may have committed them). */
  timedOut: number;
  /** 201s that said Idempotent-Replayed: a retry answered with the first one's submission. */
  replayed: number;
  /** Submissions that never got a 201 within MAX_TRIES, with why. */
  failed: string[];
}

export interface SubmitClient {
  /** Student `index` submits `code`; resolves with the submission's id, or null when it never got a 201. */
  submit(index: number, code: string): Promise<number | null>;
  figures(): SubmitFigures;
  close(): Promise<void>;
}

/**
 * The API of this process on a port of its own, the students enrolled in the course and signed in (a
 * session and an access token each, as sign-in would make them).
 */
export async function startSubmitClient(options: {
  config: Config;
  database: Database;
  jobs: JobQueue;
  storage: Storage;
  courseId: number;
  assignmentId: number;
  users: number[];
}): Promise<SubmitClient> {
  const { config, database, courseId, assignmentId, users } = options;
  const app: FastifyInstance = await buildApp({
    config,
    database,
    jobs: options.jobs,
    storage: options.storage,
    logger: false,
    webDistDir: '/nonexistent',
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  await database.query(`INSERT INTO course_students (course_id, user_id) SELECT $1, unnest($2::int[])`, [
    courseId,
    users,
  ]);
  const sessions = await database.query(
    `INSERT INTO auth_sessions (user_id) SELECT unnest($1::int[]) RETURNING id, user_id`,
    [users],
  );
  const tokens = new Map<number, string>();
  for (const row of sessions.rows) {
    const userId = Number(row.user_id);
    tokens.set(
      userId,
      await signAccessToken(config.JWT_SECRET, config.ACCESS_TOKEN_LIFETIME, {
        userId,
        sessionId: String(row.id),
      }),
    );
  }

  const figures: SubmitFigures = { latencies: [], refused: 0, timedOut: 0, replayed: 0, failed: [] };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  return {
    async submit(index, code) {
      const userId = users[index]!;
      const key = randomUUID();
      const body = JSON.stringify({ assignment_id: assignmentId, course_id: courseId, code });
      const started = performance.now();
      let last = '';
      for (let attempt = 0; attempt < MAX_TRIES; attempt += 1) {
        let response: Response;
        try {
          response = await fetch(`${base}/api/Submission/Submit/`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${tokens.get(userId)}`,
              'idempotency-key': key,
            },
            body,
            signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
          });
        } catch (error) {
          // Gave up waiting (or the connection failed): the same request again, at once.
          figures.timedOut += 1;
          last = error instanceof Error ? error.message : String(error);
          continue;
        }
        const text = await response.text();
        if (response.status === 201) {
          figures.latencies.push(performance.now() - started);
          if (response.headers.get('idempotent-replayed') === 'true') figures.replayed += 1;
          return Number((JSON.parse(text) as { id: number }).id);
        }
        last = `${response.status} ${text.slice(0, 200)}`;
        if (response.status !== 503 && response.status !== 429) break;
        figures.refused += 1;
        await sleep(Number(response.headers.get('retry-after') ?? 1) * 1000);
      }
      figures.failed.push(last);
      return null;
    },
    figures: () => ({ ...figures, latencies: [...figures.latencies].sort((a, b) => a - b) }),
    close: () => app.close(),
  };
}

/** Lines of the submit figures for the report, and the duplicate count (submissions beyond one each). */
export async function submitReport(
  database: Database,
  figures: SubmitFigures,
): Promise<{ lines: string[]; duplicates: number }> {
  const counted = await database.query(
    `SELECT coalesce(sum(n - 1), 0)::int AS duplicates
       FROM (SELECT count(*) AS n FROM submissions GROUP BY user_id) AS per_user`,
  );
  const duplicates = Number(counted.rows[0]!.duplicates);
  const p = (q: number) => (percentile(figures.latencies, q) / 1000).toFixed(2);
  return {
    duplicates,
    lines: [
      `submit over HTTP (client timeout ${CLIENT_TIMEOUT_MS / 1000} s, retries with the same Idempotency-Key): ` +
        `p50 ${p(50)} s, p99 ${p(99)} s to a 201; ${figures.refused} refused (503/429, retried after ` +
        `Retry-After), ${figures.timedOut} timed out and retried, ${figures.replayed} answered as replays, ` +
        `${figures.failed.length} never accepted` +
        (figures.failed.length > 0 ? ` (last: ${figures.failed[0]})` : ''),
    ],
  };
}
