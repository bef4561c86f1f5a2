import type { Notebook } from '@kadai/contracts';
import type { TestApp } from '../../../test/harness.ts';
import { createCourseWorld } from '../../../test/factories.ts';
import { workbookConfigs, workbookNotebooks, workbookSessions } from '../../db/schema-workbooks.ts';

/** Test data for workbooks, written straight to the database (the routes are what the tests test). */

export const STARTER: Notebook = {
  cells: [
    { id: 'intro', cell_type: 'markdown', source: '# Lab 1' },
    { id: 'first', cell_type: 'code', source: 'x = 21', execution_count: null, outputs: [] },
  ],
};

export async function insertConfig(
  t: TestApp,
  fields: Pick<typeof workbookConfigs.$inferInsert, 'courseId'> &
    Partial<typeof workbookConfigs.$inferInsert>,
) {
  const [row] = await t.ctx.db
    .insert(workbookConfigs)
    .values({
      name: 'Lab',
      lifetimeMinutes: 60,
      maxExtensionMinutes: 60,
      memoryMb: 512,
      cpuSeconds: 600,
      starter: STARTER,
      ...fields,
    })
    .returning();
  return row!;
}

/**
 * The callers of the authorization matrix around a course with one configuration, the student's
 * notebook of it and a live session of theirs (a row only: its kernel starts on first use).
 */
export async function createWorkbookWorld(t: TestApp) {
  const world = await createCourseWorld(t);
  const config = await insertConfig(t, { courseId: world.course.id });
  const [notebook] = await t.ctx.db
    .insert(workbookNotebooks)
    .values({
      userId: world.users.student.id,
      courseId: world.course.id,
      configId: config.id,
      name: config.name,
      content: STARTER,
    })
    .returning();
  const [session] = await t.ctx.db
    .insert(workbookSessions)
    .values({
      userId: world.users.student.id,
      courseId: world.course.id,
      configId: config.id,
      notebookId: notebook!.id,
      expiresAt: new Date(Date.now() + 3_600_000),
      maxExtensionMinutes: 60,
      memoryMb: 512,
      cpuSeconds: 600,
    })
    .returning();
  return { ...world, config, notebook: notebook!, session: session! };
}
