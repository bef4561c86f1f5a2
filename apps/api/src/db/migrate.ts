import { fileURLToPath } from 'node:url';
import type { Database } from './client.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

/** Arbitrary but fixed: every API instance starting at once waits on the same lock. */
const MIGRATION_LOCK_KEY = 72_061_001;

/** Applies the committed migrations; several instances starting together run them once, in turn. */
export async function migrateDatabase(database: Database): Promise<void> {
  await database.withAdvisoryLock(MIGRATION_LOCK_KEY, () => database.applyMigrations(MIGRATIONS_DIR));
}
