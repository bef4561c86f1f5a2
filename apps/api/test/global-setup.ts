import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startTestS3Server } from '@kadai/storage/testing';
import { openDatabase, type Database } from '../src/db/client.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { startJobQueue } from '../src/lib/jobs.ts';
import { TEMPLATE_DUMP } from './paths.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PostgreSQL database each test file copies (`CREATE DATABASE … TEMPLATE`); '' on PGlite. */
    pgTemplate: string;
    /** TEST_STORAGE=s3: the run's S3 server (test/harness.ts `testStorageEnv`); '' otherwise. */
    s3Endpoint: string;
    s3Bucket: string;
  }
}

/** Migrations, then pg-boss's schema, so tests that start the queue skip its migrations. */
async function prepare(database: Database): Promise<void> {
  await migrateDatabase(database);
  const jobs = await startJobQueue(database);
  await jobs.stop();
}

async function onServer<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Creating a database and migrating it takes seconds: do it once per run and let every test file
 * start from a copy. PGlite: a dump of the migrated data directory, loaded by each file. PostgreSQL
 * (TEST_DATABASE_URL): a migrated template database, copied by each file with CREATE DATABASE …
 * TEMPLATE (a file copy on the server, far cheaper than migrating), dropped after the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const s3 = process.env.TEST_STORAGE === 's3' ? await startTestS3Server() : null;
  project.provide('s3Endpoint', s3?.endpoint ?? '');
  project.provide('s3Bucket', s3?.bucket ?? '');
  const closeS3 = async () => {
    await s3?.close();
  };
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `kadai_tpl_${randomBytes(6).toString('hex')}`;
    await onServer(serverUrl, (c) => c.query(`CREATE DATABASE ${name}`));
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
    await prepare(database);
    // A template must have no connections while it is copied.
    await database.close();
    project.provide('pgTemplate', name);
    return async () => {
      await onServer(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      await closeS3();
    };
  }
  project.provide('pgTemplate', '');
  // scripts/test.mjs runs a few files again on other stores right after the whole suite made the
  // template from the same migrations: those runs take it as it is (8 s less each).
  if (process.env.TEST_REUSE_TEMPLATE === 'true' && existsSync(TEMPLATE_DUMP)) return closeS3;
  const pglite = await PGlite.create();
  await prepare(await openDatabase({ pglite }));
  const dump = await pglite.dumpDataDir('gzip');
  mkdirSync(path.dirname(TEMPLATE_DUMP), { recursive: true });
  // Write then rename: two runs at once never read a half-written template.
  const partial = `${TEMPLATE_DUMP}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, TEMPLATE_DUMP);
  await pglite.close();
  return closeS3;
}
