import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Notebook } from '@kadai/contracts';
import type { TestApp } from '../../../test/harness.ts';
import { createCourseWorld } from '../../../test/factories.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/client.ts';
import { workbookConfigs, workbookNotebooks, workbookSessions } from '../../db/schema-workbooks.ts';
import { buildKernelHostApp } from '../../kernel-host-app.ts';

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

/**
 * Another process of the same cluster, as far as one test process can make one: an API instance
 * (`kind: 'api'`, answered through `call` like `t`) or an `npm run kernels` host, with its own kernels,
 * over `t`'s database and with its secret. `close()` leaves the database open for `t`.
 */
export async function createPeer(
  t: TestApp,
  options: { kind?: 'api' | 'kernels'; env?: Record<string, string> } = {},
): Promise<TestApp> {
  const config = loadConfig({
    DATA_DIR: t.config.dataDir,
    JWT_SECRET: t.config.JWT_SECRET,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: t.config.publicUrl,
    ...options.env,
  });
  const database = t.databaseUrl
    ? await openDatabase({ databaseUrl: t.databaseUrl, poolSize: 3 })
    : t.database;
  let app: FastifyInstance;
  if (options.kind === 'kernels') {
    app = await buildKernelHostApp({ config, database, logger: false });
  } else {
    app = await buildApp({
      config,
      database,
      logger: false,
      webDistDir: path.join(t.config.dataDir, 'no-web'),
      sandbox: async () => ({ ok: true, detail: 'test sandbox' }),
    });
  }
  await app.ready();
  let closed: Promise<void> | null = null;
  return {
    ...t,
    app,
    config,
    database,
    ctx: options.kind === 'kernels' ? t.ctx : app.appContext,
    grader: null,
    close() {
      closed ??= (async () => {
        await app.close();
        if (database !== t.database) await database.close();
      })();
      return closed;
    },
  };
}

/**
 * Listens on a free port of 127.0.0.1, where the other instances reach its kernels, and announces that
 * address before it returns (Fastify runs onListen hooks without waiting for them).
 */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  t.app.kernelHost.url = `http://127.0.0.1:${port}`;
  await t.app.kernelHost.beat();
  return t.app.kernelHost.url;
}
