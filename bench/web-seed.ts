// The database `bench:web` serves, prepared before the server starts (PGlite has one connection, so the
// bench cannot write beside a running server): migrated, the demo courses seeded as `npm start` seeds
// them (the server then finds users and seeds nothing), and the large gradebook course of
// bench/gradebook-seed.ts, edited by the demo editor.
import { openDatabase } from '../apps/api/src/db/client.ts';
import { migrateDatabase } from '../apps/api/src/db/migrate.ts';
import { DEMO_ACCOUNTS, seedDemoData } from '../apps/api/src/demo/seed.ts';
import { seedGradebookCourse, type GradebookSeedResult } from './gradebook-seed.ts';

export const GRADEBOOK_STUDENTS = Number(process.env.BENCH_WEB_STUDENTS ?? 300);
export const GRADEBOOK_ITEMS = Number(process.env.BENCH_WEB_ITEMS ?? 40);

export async function prepareWebBenchDatabase(dataDir: string): Promise<GradebookSeedResult> {
  const database = await openDatabase({ dataDir });
  try {
    await migrateDatabase(database);
    await seedDemoData({ db: database.db });
    const query = (text: string, values?: unknown[]) => database.query(text, values);
    const editor = await query(`select id from users where email = $1`, [DEMO_ACCOUNTS.editor.email]);
    return await seedGradebookCourse(query, {
      editorId: Number(editor.rows[0]!.id),
      students: GRADEBOOK_STUDENTS,
      items: GRADEBOOK_ITEMS,
    });
  } finally {
    await database.close();
  }
}
