/**
 * What the grader needs from the outside world, as small structural interfaces: the API's `Database`
 * and `JobQueue` satisfy them in the embedded default, and `main.ts` builds its own over `pg`.
 */
import type { GradingJobData } from './queue.ts';
import type { PairedRequest, PairedResult, SandboxRequest, SandboxResult } from '@kadai/sandbox';

export interface SqlResult {
  rows: Record<string, unknown>[];
}
export type Query = (text: string, values?: unknown[]) => Promise<SqlResult>;

export interface SqlClient {
  query: Query;
  /** Committed when `fn` resolves, rolled back when it throws. */
  transaction<T>(fn: (query: Query) => Promise<T>): Promise<T>;
}

/** One pg-boss job; `retryCount`/`retryLimit` are there when the queue fetches with metadata. */
export interface GradingJob {
  id: string;
  data: GradingJobData;
  retryCount?: number;
  retryLimit?: number;
}

export interface GradingSendOptions {
  expireInSeconds?: number;
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
}

export interface GradingWorkOptions {
  batchSize?: number;
  pollingIntervalSeconds?: number;
  includeMetadata?: boolean;
}

/** The part of the API's `JobQueue` (pg-boss) the grader uses. */
export interface GraderJobQueue {
  send(queue: string, data: object, options?: GradingSendOptions): Promise<string | null>;
  /** Registers one fetch loop; resolves with its id. */
  work(
    queue: string,
    handler: (jobs: GradingJob[]) => Promise<void>,
    options?: GradingWorkOptions,
  ): Promise<string>;
  /** Stops one fetch loop (a batch in progress finishes). */
  offWork(workerId: string): Promise<void>;
}

export interface GraderLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/* ─── The sandbox (`packages/sandbox`) ──────────────────────────────────────────────────────── */

export type {
  LimitHit,
  PairedRequest,
  PairedResult,
  SandboxFile,
  SandboxLimits,
  SandboxRequest,
  SandboxResult,
  SandboxStatus,
} from '@kadai/sandbox';

/** Runs one program; resolves with what the program did, rejects only when the sandbox itself failed. */
export type SandboxRunner = (request: SandboxRequest) => Promise<SandboxResult>;

/** Runs a trusted main program beside an untrusted worker, each in its own sandbox (a pytest test). */
export type PairRunner = (request: PairedRequest) => Promise<PairedResult>;
