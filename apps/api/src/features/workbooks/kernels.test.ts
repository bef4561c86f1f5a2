import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import {
  MAX_LIVE_WORKBOOK_SESSIONS,
  WorkbookExecution,
  WorkbookSession,
  type NotebookOutput,
} from '@kadai/contracts';
import { probeSandbox } from '@kadai/sandbox';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addStudent, createCourse, createUser, tokenFor } from '../../../test/factories.ts';
import { kernelHosts } from '../../db/schema-cluster.ts';
import { workbookSessions } from '../../db/schema-workbooks.ts';
import { channelKey, INTERNAL_CONTENT_TYPE, SIGNATURE_HEADER, sign } from './kernel-channel.ts';
import { createPeer, insertConfig, listen } from './testing.ts';

/*
 * Kernels reachable from any instance (docs/workbooks.md, "Kernels"): two API instances (and an
 * `npm run kernels` host) on one database, each listening on 127.0.0.1, as behind a load balancer
 * without sticky sessions. Needs the sandbox, like the kernel tests.
 */

const sandbox = await probeSandbox();

const text = (execution: WorkbookExecution): string =>
  execution.outputs
    .map((o: NotebookOutput) =>
      o.output_type === 'execute_result'
        ? String(o.data['text/plain'])
        : o.output_type === 'error'
          ? o.ename
          : '',
    )
    .join('');

async function studentIn(t: TestApp, courseId: number) {
  const user = await createUser(t);
  await addStudent(t, courseId, user.id);
  return { user, token: await tokenFor(t, user) };
}

async function open(t: TestApp, token: string, course: number, config: number) {
  const res = await call(t, 'POST', '/api/v1/workbook', { token, body: { course, config } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return WorkbookSession.parse(res.body);
}

async function run(t: TestApp, token: string, id: number, code: string) {
  const res = await call(t, 'POST', `/api/v1/workbook/${id}/execute`, {
    token,
    body: { cell_id: 'c1', code },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return WorkbookExecution.parse(res.body);
}

const ownerOf = async (t: TestApp, id: number) =>
  (
    await t.ctx.db
      .select({ host: workbookSessions.kernelHost })
      .from(workbookSessions)
      .where(eq(workbookSessions.id, id))
  )[0]?.host;

describe.runIf(sandbox.ok)('workbook kernels across instances', () => {
  let a: TestApp;
  let b: TestApp;
  let courseId: number;
  let configId: number;
  beforeAll(async () => {
    a = await createTestApp();
    b = await createPeer(a);
    await listen(a);
    await listen(b);
    const course = await createCourse(a, { title: 'Data science' });
    courseId = course.id;
    configId = (await insertConfig(a, { courseId })).id;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('runs a session opened through one instance through the other, on the same kernel', async () => {
    const { token } = await studentIn(a, courseId);
    const session = await open(a, token, courseId, configId);
    expect(await ownerOf(a, session.workbookId)).toBe(a.app.kernelHost.id);
    expect(await run(a, token, session.workbookId, 'x = 41')).toMatchObject({
      status: 'ok',
      kernel_restarted: false,
    });
    const forwarded = await run(b, token, session.workbookId, 'x + 1');
    expect(forwarded).toMatchObject({ status: 'ok', kernel_restarted: false });
    expect(text(forwarded)).toBe('42');
    expect(b.app.workbookKernels.has(session.workbookId)).toBe(false);
    const read = await call(b, 'GET', `/api/v1/workbook/${session.workbookId}`, { token });
    expect(read.json).toMatchObject({ kernel_alive: true });

    // Interrupted through the instance that does not hold the kernel: prompt, and the variables stay.
    const spinning = run(b, token, session.workbookId, 'while True:\n    pass');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const asked = performance.now();
    const interrupt = await call(b, 'POST', `/api/v1/workbook/${session.workbookId}/interrupt`, { token });
    expect(interrupt.json).toEqual({ interrupted: true });
    const stopped = await spinning;
    expect(performance.now() - asked).toBeLessThan(2000);
    expect(stopped).toMatchObject({ status: 'error', limit: null });
    expect(text(stopped)).toBe('KeyboardInterrupt');
    expect(text(await run(a, token, session.workbookId, 'x'))).toBe('41');

    // Ending it through B stops the kernel on A.
    expect((await call(b, 'DELETE', `/api/v1/workbook/${session.workbookId}`, { token })).status).toBe(204);
    expect(a.app.workbookKernels.has(session.workbookId)).toBe(false);
  });

  it('refuses the internal endpoints without a valid signature, as if they did not exist', async () => {
    const { token } = await studentIn(a, courseId);
    const session = await open(a, token, courseId, configId);
    const path = `/internal/kernels/${session.workbookId}/execute`;
    const body = Buffer.from(
      JSON.stringify({ limits: { memory_mb: 512, cpu_seconds: 600 }, fresh: false, code: 'secret = 1' }),
    );
    const send = (headers: Record<string, string>, payload: Buffer = body) =>
      fetch(new URL(path, a.app.kernelHost.url), { method: 'POST', headers, body: payload });
    const key = channelKey(a.config.JWT_SECRET);
    const signed = (signature: string) => ({
      'content-type': INTERNAL_CONTENT_TYPE,
      [SIGNATURE_HEADER]: signature,
    });

    const host = a.app.kernelHost.id;
    const refused = [
      await send({ 'content-type': INTERNAL_CONTENT_TYPE }),
      await send({ 'content-type': 'application/json' }),
      await send(
        signed(sign(channelKey('another-secret-another-secret-0123456789'), host, 'POST', path, body)),
      ),
      await send(signed(sign(key, host, 'POST', path, body)), Buffer.from('{"code":"import os"}')),
      await send(signed(sign(key, host, 'POST', `/internal/kernels/1/execute`, body))),
      await send(signed(sign(key, host, 'POST', path, body, Date.now() - 60_000))),
      await send(signed(sign(key, host, 'POST', path, body).replace(/s=.{8}/, 's=AAAAAAAA'))),
      // Made for another host: captured on its way there, it is worth nothing here (issue 36, item 7).
      await send(signed(sign(key, 'kernels-elsewhere-1-abcdef', 'POST', path, body))),
    ];
    for (const res of refused) {
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
    }
    const signature = sign(key, host, 'POST', path, body);
    const accepted = await send(signed(signature));
    expect(accepted.status).toBe(200);
    // The same signed request again is a replay.
    expect((await send(signed(signature))).status).toBe(404);
    // Not in the API reference either.
    const doc = await call(a, 'GET', '/api/docs/json');
    expect(Object.keys(doc.json.paths ?? {}).some((p) => p.includes('internal'))).toBe(false);
    await call(a, 'DELETE', `/api/v1/workbook/${session.workbookId}`, { token });
  });

  it('moves a session whose owner stopped, keeps the notebook and says the kernel restarted', async () => {
    const owner = await createPeer(a);
    await listen(owner);
    const { token } = await studentIn(a, courseId);
    const session = await open(owner, token, courseId, configId);
    expect(await ownerOf(a, session.workbookId)).toBe(owner.app.kernelHost.id);
    await run(b, token, session.workbookId, 'kept = "before"');
    await owner.close();

    const read = await call(b, 'GET', `/api/v1/workbook/${session.workbookId}`, { token });
    expect(read.json).toMatchObject({ status: 'live', kernel_alive: false });
    const moved = await run(b, token, session.workbookId, "'kept' in globals()");
    expect(moved).toMatchObject({ status: 'ok', kernel_restarted: true });
    expect(text(moved)).toBe('False');
    expect(await ownerOf(a, session.workbookId)).toBe(b.app.kernelHost.id);
    const after = await run(a, token, session.workbookId, '1 + 1');
    expect(after).toMatchObject({ kernel_restarted: false });
    expect(text(after)).toBe('2');
    await call(a, 'DELETE', `/api/v1/workbook/${session.workbookId}`, { token });
  });

  it('moves a session off a host that refuses connections or stopped beating', async () => {
    const { token } = await studentIn(a, courseId);
    const session = await open(a, token, courseId, configId);
    // A host whose row still looks alive but whose port is closed (killed with SIGKILL).
    await a.ctx.db.insert(kernelHosts).values([
      { id: 'killed', kind: 'kernels', url: 'http://127.0.0.1:9', maxKernels: 10 },
      {
        id: 'silent',
        kind: 'kernels',
        url: 'http://127.0.0.1:9',
        maxKernels: 10,
        heartbeatAt: sql`now() - interval '1 minute'`,
      },
    ]);
    for (const host of ['killed', 'silent']) {
      await a.ctx.db
        .update(workbookSessions)
        .set({ kernelHost: host })
        .where(eq(workbookSessions.id, session.workbookId));
      const read = await call(b, 'GET', `/api/v1/workbook/${session.workbookId}`, { token });
      expect(read.json.kernel_alive).toBe(host === 'killed');
      expect(await run(b, token, session.workbookId, '3 * 3')).toMatchObject({ kernel_restarted: true });
      expect(await ownerOf(a, session.workbookId)).toBe(b.app.kernelHost.id);
    }
    await call(a, 'DELETE', `/api/v1/workbook/${session.workbookId}`, { token });
  });

  it('moves a session once when two instances find its owner gone at the same moment', async () => {
    const { token } = await studentIn(a, courseId);
    const session = await open(a, token, courseId, configId);
    await a.ctx.db
      .update(workbookSessions)
      .set({ kernelHost: 'nobody' })
      .where(eq(workbookSessions.id, session.workbookId));
    const [one, two] = await Promise.all([
      run(a, token, session.workbookId, 'y = 1'),
      run(b, token, session.workbookId, 'z = 2'),
    ]);
    expect([one.status, two.status]).toEqual(['ok', 'ok']);
    const owner = await ownerOf(a, session.workbookId);
    // A's kernel from before (when it owned the session) goes at its sweep; the owner's stays.
    await Promise.all([a.app.kernelHost.sweep(), b.app.kernelHost.sweep()]);
    const kernels = [a, b].filter((t) => t.app.workbookKernels.has(session.workbookId));
    expect(kernels.map((t) => t.app.kernelHost.id)).toEqual([owner]);
    expect(text(await run(b, token, session.workbookId, "('y' in globals(), 'z' in globals())"))).toBe(
      '(True, True)',
    );
    await call(a, 'DELETE', `/api/v1/workbook/${session.workbookId}`, { token });
  });

  it(`holds one person to ${MAX_LIVE_WORKBOOK_SESSIONS} live sessions across courses and instances`, async () => {
    const user = await createUser(a);
    const token = await tokenFor(a, user);
    const courses = [];
    for (let i = 0; i <= MAX_LIVE_WORKBOOK_SESSIONS; i++) {
      const course = await createCourse(a, { title: `Course ${i}` });
      await addStudent(a, course.id, user.id);
      courses.push({ course: course.id, config: (await insertConfig(a, { courseId: course.id })).id });
    }
    const opened = [];
    for (const [i, c] of courses.slice(0, MAX_LIVE_WORKBOOK_SESSIONS).entries()) {
      opened.push(await open(i % 2 === 0 ? a : b, token, c.course, c.config));
    }
    const last = courses[MAX_LIVE_WORKBOOK_SESSIONS]!;
    for (const t of [a, b]) {
      const res = await call(t, 'POST', '/api/v1/workbook', {
        token,
        body: { course: last.course, config: last.config },
      });
      expect(res.status).toBe(409);
      expect(res.json.code).toBe('session_limit');
    }
    await call(b, 'DELETE', `/api/v1/workbook/${opened[0]!.workbookId}`, { token });
    const now = await open(b, token, last.course, last.config);
    for (const s of [...opened.slice(1), now]) {
      await call(a, 'DELETE', `/api/v1/workbook/${s.workbookId}`, { token });
    }
  });
});

describe.runIf(sandbox.ok)('an API without kernels and a kernel host (npm run kernels)', () => {
  let api: TestApp;
  let kernels: TestApp;
  beforeAll(async () => {
    api = await createTestApp({ env: { WORKBOOK_MAX_KERNELS: '0' } });
    kernels = await createPeer(api, { kind: 'kernels', env: { WORKBOOK_MAX_KERNELS: '1' } });
    await listen(kernels);
  });
  afterAll(async () => {
    await kernels?.close();
    await api?.close();
  });

  it('runs kernels on the host, refuses past its room, and moves nowhere once it is gone', async () => {
    const course = await createCourse(api, { title: 'Remote' });
    const config = await insertConfig(api, { courseId: course.id });
    const first = await studentIn(api, course.id);
    const session = await open(api, first.token, course.id, config.id);
    expect(await ownerOf(api, session.workbookId)).toBe(kernels.app.kernelHost.id);
    expect(api.app.kernelHost.isHost).toBe(false);
    await run(api, first.token, session.workbookId, 'n = 7');
    expect(text(await run(api, first.token, session.workbookId, 'n * 6'))).toBe('42');

    const second = await studentIn(api, course.id);
    const full = await call(api, 'POST', '/api/v1/workbook', {
      token: second.token,
      body: { course: course.id, config: config.id },
    });
    expect(full.status).toBe(429);
    expect(full.json.code).toBe('workbook_capacity');

    await kernels.close();
    const gone = await call(api, 'POST', `/api/v1/workbook/${session.workbookId}/execute`, {
      token: first.token,
      body: { cell_id: 'c1', code: 'n' },
    });
    expect(gone.status).toBe(429);
    expect(gone.json.code).toBe('workbook_capacity');
    // The notebook's session is still live: it runs again once a host has room.
    expect((await call(api, 'GET', `/api/v1/workbook/${session.workbookId}`, first)).json).toMatchObject({
      status: 'live',
      kernel_alive: false,
    });
  });
});
