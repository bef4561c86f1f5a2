import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, users } from './schema.ts';

/* ─── What many machines share (issue 19; docs/deploy.md) ───────────────────────────────────────── */

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A file of the `postgres` store (`STORAGE=postgres`): its bytes are the rows of `stored_file_chunks`,
 * `chunk_size` each but the last. A file is written incomplete, chunk by chunk, and becomes visible
 * under its key only when `complete` turns true, replacing a complete file of the same key in the same
 * transaction. Incomplete rows older than a day are an interrupted upload and are deleted.
 */
export const storedFiles = pgTable(
  'stored_files',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    key: text('key').notNull(),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    contentType: text('content_type').notNull(),
    chunkSize: integer('chunk_size').notNull(),
    complete: boolean('complete').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('stored_files_key_complete_key')
      .on(t.key)
      .where(sql`complete`),
    index('stored_files_incomplete_idx')
      .on(t.createdAt)
      .where(sql`NOT complete`),
  ],
);

export const storedFileChunks = pgTable(
  'stored_file_chunks',
  {
    fileId: bigint('file_id', { mode: 'number' })
      .notNull()
      .references(() => storedFiles.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.seq] })],
);

/**
 * A process that runs workbook kernels: an API instance (kind `api`) or a kernel host (`npm run
 * kernels`, kind `kernels`). It beats while alive; `url` is where other instances forward a session's
 * calls, authenticated with a key derived from the shared secret.
 */
export const kernelHosts = pgTable('kernel_hosts', {
  id: text('id').primaryKey(),
  kind: text('kind', { enum: ['api', 'kernels'] }).notNull(),
  url: text('url').notNull(),
  maxKernels: integer('max_kernels').notNull(),
  kernels: integer('kernels').notNull().default(0),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
});

/** When someone ran a PyGrade console snippet: its per-person rate limit holds across every instance. */
export const snippetRuns = pgTable(
  'snippet_runs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('snippet_runs_user_idx').on(t.userId, t.createdAt)],
);

/** Grader processes announce themselves here (heartbeat) for the PyGrade console. */
export const graderHosts = pgTable('grader_hosts', {
  /** One process's incarnation (`name:pid:random`): a restarted grader is a new row, never its predecessor's. */
  id: text('id').primaryKey(),
  /** The configured GRADER_ID, when there is one: a process starting under it ends its namesakes' rows. */
  name: text('name'),
  hostname: text('hostname').notNull(),
  pid: integer('pid').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  sandboxOk: boolean('sandbox_ok').notNull(),
  sandboxDetail: text('sandbox_detail').notNull(),
  concurrency: integer('concurrency').notNull(),
  running: integer('running').notNull().default(0),
  graded: integer('graded').notNull().default(0),
});
