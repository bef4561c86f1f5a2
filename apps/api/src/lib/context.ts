import type { FastifyBaseLogger } from 'fastify';
// The store's interface from the package itself: lib/storage.ts, which builds the store, imports this file.
import type { Storage } from '@kadai/storage';
import type { Config } from '../config.ts';
import type { Db, Database } from '../db/client.ts';
import type { JobQueue } from './jobs.ts';
import type { SessionCache } from './session-cache.ts';

export type { Actor } from './actor.ts';

/** What every service receives: the database, the configuration, the job queue and the file storage. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  jobs: JobQueue;
  storage: Storage;
  /** The callers of live sessions this process remembers (forget a user's after changing them). */
  sessions: SessionCache;
  log: FastifyBaseLogger;
}
