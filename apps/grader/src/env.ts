/** The environment of `npm run grader` (a grader on its own host), parsed once with zod. */
import { z } from 'zod';
import { storageEnvProblems, storageEnvShape } from '@kadai/storage';

/** A duration in seconds: a plain number (`300`) or with a unit (`5m`, `1h`) — as the API reads it. */
const seconds = z
  .string()
  .regex(/^\d+\s*[smhd]?$/, 'a number of seconds, or a number with s, m, h or d')
  .transform((v) => {
    const n = Number.parseInt(v, 10);
    const unit = v.trim().slice(-1);
    const factor = unit === 'm' ? 60 : unit === 'h' ? 3600 : unit === 'd' ? 86_400 : 1;
    return n * factor;
  })
  .pipe(z.number().int().min(1));

export const GraderEnvSchema = z.object({
  DATABASE_URL: z
    .string({ error: 'required: the PostgreSQL server the API uses (postgres://…)' })
    .regex(/^postgres(ql)?:\/\//, 'a postgres:// connection string'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(4),
  DATA_DIR: z.string().min(1).default('./data'),
  /** Where the API keeps uploaded files (docs/storage.md): set as on the API instances. */
  ...storageEnvShape,
  GRADER_CONCURRENCY: z.coerce.number().int().min(0).max(256).default(0),
  GRADING_TIMEOUT: seconds.default(300),
  /** Seconds between heartbeats; a host silent for four of them is taken for dead. */
  GRADER_HEARTBEAT_SECONDS: z.coerce.number().min(0.1).max(60).default(5),
  /** Names this grader in the console and on submissions (default hostname:pid:random). */
  GRADER_ID: z.string().min(1).max(200).optional(),
  /** Serves `GET /metrics` on this port (docs/operations.md); unset: no metrics server. */
  GRADER_METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  /** The address the metrics server listens on; 0.0.0.0 lets a Prometheus on another host reach it. */
  GRADER_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** When set, a scrape must send `Authorization: Bearer <token>` (the API's METRICS_TOKEN). */
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').max(200).optional(),
});
export type GraderEnv = z.infer<typeof GraderEnvSchema>;

export class GraderEnvError extends Error {}

/** Throws GraderEnvError naming every bad variable. */
export function parseGraderEnv(env: Record<string, string | undefined>): GraderEnv {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = GraderEnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new GraderEnvError(`Invalid grader configuration:\n${lines.join('\n')}`);
  }
  const problems = storageEnvProblems(result.data);
  if (problems.length > 0) {
    throw new GraderEnvError(`Invalid grader configuration:\n  ${problems.join('\n  ')}`);
  }
  return result.data;
}
