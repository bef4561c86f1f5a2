import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import {
  WorkbookConfig,
  WorkbookExecution,
  WorkbookNotebook,
  WorkbookSession,
  WorkbookSessionList,
} from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addStudent, createUser, tokenFor } from '../../../test/factories.ts';
import { workbookSessions } from '../../db/schema-workbooks.ts';
import { expireSessions } from './sessions.service.ts';
import { createWorkbookWorld, insertConfig, STARTER } from './testing.ts';

type World = Awaited<ReturnType<typeof createWorkbookWorld>>;

describe('workbooks', () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await createTestApp();
    w = await createWorkbookWorld(t);
  });
  afterAll(() => t.close());

  /** A student of the course with a fresh session of `configId`. */
  async function openSession(configId: number) {
    const user = await createUser(t);
    await addStudent(t, w.course.id, user.id);
    const token = await tokenFor(t, user);
    const res = await call(t, 'POST', '/api/v1/workbook', {
      token,
      body: { course: w.course.id, config: configId },
    });
    expect(res.status).toBe(201);
    return { token, user, session: WorkbookSession.parse(res.body) };
  }
  const run = async (token: string, id: number, code: string) => {
    const res = await call(t, 'POST', `/api/v1/workbook/${id}/execute`, {
      token,
      body: { cell_id: 'c1', code },
    });
    expect(res.status).toBe(200);
    return WorkbookExecution.parse(res.body);
  };

  describe('configurations', () => {
    const body = (fields: Record<string, unknown> = {}) => ({
      course: w.course.id,
      name: 'Lab 2',
      ...fields,
    });

    it('are created with defaults and read by members', async () => {
      const res = await call(t, 'POST', '/api/WorkbookConfig/', { token: w.tokens.editor, body: body() });
      expect(res.status).toBe(201);
      expect(WorkbookConfig.parse(res.body)).toMatchObject({
        lifetime_minutes: 60,
        max_extension_minutes: 60,
        memory_mb: 512,
        cpu_seconds: 600,
        starter: { cells: [] },
      });
      const list = await call(t, 'GET', '/api/WorkbookConfig/', {
        token: w.tokens.student,
        query: { course: String(w.course.id) },
      });
      expect(list.json).toMatchObject({ can_manage: false });
      expect((list.json.results as unknown[]).length).toBeGreaterThanOrEqual(2);
    });

    it.each([
      [{ name: '' }, 'name'],
      [{ lifetime_minutes: 1 }, 'lifetime_minutes'],
      [{ memory_mb: 64 }, 'memory_mb'],
      [{ cpu_seconds: 100_000 }, 'cpu_seconds'],
      [{ max_extension_minutes: -5 }, 'max_extension_minutes'],
      [{ starter: { cells: [STARTER.cells[0], STARTER.cells[0]] } }, 'starter.cells'],
      [{ starter: { cells: [{ id: 'bad id!', cell_type: 'markdown', source: '' }] } }, 'starter.cells.0.id'],
    ])('refuses %j', async (fields, field) => {
      const res = await call(t, 'POST', '/api/WorkbookConfig/', {
        token: w.tokens.editor,
        body: body(fields),
      });
      expect(res.status).toBe(400);
      expect(Object.keys(res.json)).toContain(field);
    });
  });

  describe('sessions', () => {
    it('runs cells in one kernel that keeps its state, and reports errors with tracebacks', async () => {
      const { token, session } = await openSession(w.config.id);
      expect(session).toMatchObject({ status: 'live', kernel_alive: true, extended_minutes: 0 });
      expect(await run(token, session.workbookId, 'x = 21')).toMatchObject({ status: 'ok', outputs: [] });
      const answer = await run(token, session.workbookId, 'print("doubling"); x * 2');
      expect(answer.status).toBe('ok');
      expect(answer.outputs).toEqual([
        { output_type: 'stream', name: 'stdout', text: 'doubling\n' },
        {
          output_type: 'execute_result',
          execution_count: answer.execution_count,
          data: { 'text/plain': '42' },
        },
      ]);
      const failed = await run(token, session.workbookId, '1 / 0');
      expect(failed.status).toBe('error');
      expect(failed.outputs[0]).toMatchObject({ output_type: 'error', ename: 'ZeroDivisionError' });
      // No network in the kernel.
      const net = await run(
        token,
        session.workbookId,
        'import socket\nsocket.create_connection(("1.1.1.1", 80), 2)',
      );
      expect(net.status).toBe('error');

      // A second session in the course is refused until this one ends.
      const again = await call(t, 'POST', '/api/v1/workbook', {
        token,
        body: { course: w.course.id, config: w.config.id },
      });
      expect(again.status).toBe(409);
      expect(again.json.code).toBe('session_exists');

      const ended = await call(t, 'DELETE', `/api/v1/workbook/${session.workbookId}`, { token });
      expect(ended.status).toBe(204);
      expect(t.app.workbookKernels.has(session.workbookId)).toBe(false);
      const late = await call(t, 'POST', `/api/v1/workbook/${session.workbookId}/execute`, {
        token,
        body: { cell_id: 'c1', code: 'x' },
      });
      expect(late.status).toBe(409);
      expect(late.json.code).toBe('session_ended');
      const reopened = await call(t, 'POST', '/api/v1/workbook', {
        token,
        body: { course: w.course.id, config: w.config.id },
      });
      expect(reopened.status).toBe(201);
      await call(t, 'DELETE', `/api/v1/workbook/${reopened.json.workbookId}`, { token });
    });

    it('extends within the maximum only', async () => {
      const config = await insertConfig(t, { courseId: w.course.id, maxExtensionMinutes: 30 });
      const { token, session } = await openSession(config.id);
      const url = `/api/v1/workbook/${session.workbookId}/extend`;
      const first = await call(t, 'POST', url, { token, body: { minutes: 20 } });
      expect(first.status).toBe(200);
      const extended = WorkbookSession.parse(first.body);
      expect(Date.parse(extended.expires_at) - Date.parse(session.expires_at)).toBe(20 * 60_000);
      expect(extended.extended_minutes).toBe(20);
      const past = await call(t, 'POST', url, { token, body: { minutes: 15 } });
      expect(past.status).toBe(400);
      expect(past.json).toMatchObject({
        detail: 'This session can be extended by 10 more minutes at most.',
        minutes: ['At most 10 more minutes.'],
      });
      expect((await call(t, 'POST', url, { token, body: { minutes: 0 } })).status).toBe(400);
      expect((await call(t, 'POST', url, { token, body: { minutes: '5' } })).status).toBe(400);
      expect((await call(t, 'POST', url, { token, body: { minutes: 10 } })).status).toBe(200);
      await call(t, 'DELETE', `/api/v1/workbook/${session.workbookId}`, { token });
    });

    it('hides a session from other students (404) and lets its course’s editors see and end it', async () => {
      const { token, session } = await openSession(w.config.id);
      const { token: other } = await openSession(w.config.id);
      const url = `/api/v1/workbook/${session.workbookId}`;
      expect((await call(t, 'GET', url, { token: other })).status).toBe(404);
      expect(
        (await call(t, 'POST', `${url}/execute`, { token: other, body: { cell_id: 'a', code: '1' } })).status,
      ).toBe(404);
      const list = WorkbookSessionList.parse(
        (await call(t, 'GET', `/api/v1/workbook/course/${w.course.id}`, { token: w.tokens.editor })).body,
      );
      expect(list.results.map((s) => s.workbookId)).toContain(session.workbookId);
      const mine = WorkbookSessionList.parse(
        (await call(t, 'GET', `/api/v1/workbook/course/${w.course.id}`, { token: other })).body,
      );
      expect(mine.results.map((s) => s.workbookId)).not.toContain(session.workbookId);
      expect((await call(t, 'DELETE', url, { token: w.tokens.editor })).status).toBe(204);
      expect((await call(t, 'GET', url, { token })).json).toMatchObject({
        status: 'ended',
        kernel_alive: false,
      });
    });

    it('stops a kernel at its memory limit and says so; the next run gets a fresh kernel', async () => {
      const config = await insertConfig(t, { courseId: w.course.id, memoryMb: 128 });
      const { token, session } = await openSession(config.id);
      await run(token, session.workbookId, 'kept = 1');
      const hog = await run(
        token,
        session.workbookId,
        'blocks = [bytearray(16 * 1024 * 1024) for _ in range(64)]',
      );
      expect(hog).toMatchObject({ status: 'dead', limit: 'memory' });
      expect(
        (await call(t, 'GET', `/api/v1/workbook/${session.workbookId}`, { token })).json.kernel_alive,
      ).toBe(false);
      const fresh = await run(token, session.workbookId, "'kept' in globals()");
      expect(fresh.outputs).toEqual([expect.objectContaining({ data: { 'text/plain': 'False' } })]);
      await call(t, 'DELETE', `/api/v1/workbook/${session.workbookId}`, { token });
    });

    it('shows output with NUL, bytes that are not UTF-8 or half characters as U+FFFD, and saves it', async () => {
      const { token, session } = await openSession(w.config.id);
      const printed = await run(
        token,
        session.workbookId,
        [
          'import sys',
          "print('a\\0b')",
          "sys.stdout.buffer.write(b'\\xff\\x00c\\n')",
          "print('\\ud800', file=sys.stderr)",
          'class Odd:',
          "    def __repr__(self): return 'odd\\0repr'",
          "    def _repr_html_(self): return '<b>\\0</b>'",
          'Odd()',
        ].join('\n'),
      );
      expect(printed.status).toBe('ok');
      expect(printed.outputs).toEqual([
        { output_type: 'stream', name: 'stdout', text: 'a\uFFFDb\n\uFFFD\uFFFDc\n' },
        { output_type: 'stream', name: 'stderr', text: '\uFFFD\n' },
        {
          output_type: 'execute_result',
          execution_count: printed.execution_count,
          data: { 'text/plain': 'odd\uFFFDrepr', 'text/html': '<b>\uFFFD</b>' },
        },
      ]);
      const raised = await run(token, session.workbookId, "raise ValueError('bad\\0value')");
      expect(raised.status).toBe('error');
      expect(raised.outputs).toEqual([
        expect.objectContaining({ output_type: 'error', ename: 'ValueError', evalue: 'bad\uFFFDvalue' }),
      ]);

      // What the page saves is what it was given: the notebook keeps these outputs.
      const res = await call(t, 'GET', '/api/v1/workbook/notebook', {
        token,
        query: { course: String(w.course.id), config: String(w.config.id) },
      });
      const notebook = WorkbookNotebook.parse(res.body);
      const cells = [
        {
          id: 'odd',
          cell_type: 'code' as const,
          source: 'Odd()',
          execution_count: printed.execution_count,
          outputs: [...printed.outputs, ...raised.outputs],
        },
      ];
      const saved = await call(t, 'PUT', `/api/v1/workbook/notebook/${notebook.id}`, {
        token,
        body: { version: notebook.version, notebook: { cells } },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(WorkbookNotebook.parse(saved.body).notebook.cells).toEqual(cells);
      await call(t, 'DELETE', `/api/v1/workbook/${session.workbookId}`, { token });
    });

    it('expires sessions past their time (the job), and the sweep ends their kernels', async () => {
      const { token, session } = await openSession(w.config.id);
      expect(t.app.workbookKernels.has(session.workbookId)).toBe(true);
      await t.ctx.db
        .update(workbookSessions)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(workbookSessions.id, session.workbookId));
      expect(await expireSessions(t.ctx)).toContain(session.workbookId);
      const ended = await t.app.kernelHost.sweep();
      expect(ended).toContain(session.workbookId);
      expect(t.app.workbookKernels.has(session.workbookId)).toBe(false);
      const read = await call(t, 'GET', `/api/v1/workbook/${session.workbookId}`, { token });
      expect(read.json).toMatchObject({ status: 'expired', kernel_alive: false });
      const extend = await call(t, 'POST', `/api/v1/workbook/${session.workbookId}/extend`, {
        token,
        body: { minutes: 5 },
      });
      expect(extend.status).toBe(409);
    });

    it('refuses a session for a configuration of another course (404)', async () => {
      const foreign = await insertConfig(t, { courseId: w.otherCourse.id });
      const res = await call(t, 'POST', '/api/v1/workbook', {
        token: w.tokens.student,
        body: { course: w.course.id, config: foreign.id },
      });
      expect(res.status).toBe(404);
    });
  });

  describe('notebooks', () => {
    it('are made from the starter, saved by version, and refuse a stale save', async () => {
      const { token } = await openSession(w.config.id);
      const res = await call(t, 'GET', '/api/v1/workbook/notebook', {
        token,
        query: { course: String(w.course.id), config: String(w.config.id) },
      });
      const notebook = WorkbookNotebook.parse(res.body);
      expect(notebook.notebook).toEqual(STARTER);
      const url = `/api/v1/workbook/notebook/${notebook.id}`;
      const changed = {
        cells: [...STARTER.cells, { id: 'new', cell_type: 'markdown' as const, source: 'Notes' }],
      };
      const saved = await call(t, 'PUT', url, {
        token,
        body: { version: notebook.version, notebook: changed },
      });
      expect(saved.json).toMatchObject({ version: notebook.version + 1 });
      const stale = await call(t, 'PUT', url, {
        token,
        body: { version: notebook.version, notebook: STARTER },
      });
      expect(stale.status).toBe(409);
      expect(stale.json.code).toBe('stale_notebook');
      const bad = await call(t, 'PUT', url, {
        token,
        body: { version: 2, notebook: { cells: [{ id: 'a', cell_type: 'code', source: 'x' }] } },
      });
      expect(bad.status).toBe(400);

      const file = await call(t, 'GET', `${url}/ipynb`, { token });
      expect(file.headers['content-type']).toBe('application/x-ipynb+json; charset=utf-8');
      expect(String(file.headers['content-disposition'])).toContain('.ipynb');
      expect(file.json).toMatchObject({ nbformat: 4, nbformat_minor: 5 });

      const notNotebook = await call(t, 'POST', `${url}/ipynb`, { token, body: { hello: 'world' } });
      expect(notNotebook.status).toBe(400);
      expect(notNotebook.json).toMatchObject({
        code: 'not_a_notebook',
        detail: 'This file is not a Jupyter notebook (nbformat 4).',
      });
      const v3 = await call(t, 'POST', `${url}/ipynb`, { token, body: { nbformat: 3, worksheets: [] } });
      expect(v3.status).toBe(400);
      const uploaded = await call(t, 'POST', `${url}/ipynb`, { token, body: file.json });
      expect(WorkbookNotebook.parse(uploaded.body).notebook).toEqual(changed);
      const huge = await call(t, 'POST', `${url}/ipynb`, {
        token,
        body: { cells: [], pad: 'x'.repeat(9_000_000) },
      });
      expect(huge.status).toBe(413);
    });
  });
});

describe('workbooks on a full server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { WORKBOOK_MAX_KERNELS: '1' } });
  });
  afterAll(() => t.close());

  it('refuses a session past the server’s kernels with 429 and a clear reason', async () => {
    const w = await createWorkbookWorld(t);
    const open = (token: string) =>
      call(t, 'POST', '/api/v1/workbook', { token, body: { course: w.course.id, config: w.config.id } });
    expect((await open(w.tokens.editor)).status).toBe(201);
    const full = await open(w.tokens.staff);
    expect(full.status).toBe(429);
    expect(full.headers['retry-after']).toBe('60');
    expect(full.json).toMatchObject({
      code: 'workbook_capacity',
      detail: 'The server is running as many workbooks as it can. Try again in a few minutes.',
    });
  });
});
