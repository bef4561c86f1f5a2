import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../src/db/client.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { startJobQueue } from '../src/lib/jobs.ts';
import { TEMPLATE_DUMP } from './paths.ts';

/**
 * Creating a PGlite database takes seconds; migrating one takes more. Do it once per run, dump the
 * data directory, and let every test file start from the dump.
 */
export default async function setup() {
  const pglite = await PGlite.create();
  const database = await openDatabase({ pglite });
  await migrateDatabase(database);
  // Install pg-boss's schema too, so tests that start the queue skip its migrations.
  const jobs = await startJobQueue(database);
  await jobs.stop();
  const dump = await pglite.dumpDataDir('gzip');
  mkdirSync(path.dirname(TEMPLATE_DUMP), { recursive: true });
  // Write then rename: two runs at once never read a half-written template.
  const partial = `${TEMPLATE_DUMP}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, TEMPLATE_DUMP);
  await pglite.close();
}
