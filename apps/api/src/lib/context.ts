import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db, Database } from '../db/client.ts';
import type { JobQueue } from './jobs.ts';
import type { SessionCache } from './session-cache.ts';
import type { Storage } from './storage.ts';

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

/** The signed-in caller, as the auth hook found them for this request. */
export interface Actor {
  userId: number;
  email: string;
  isStaff: boolean;
  sessionId: string;
}
