import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { PygradeStatus, SnippetRunResult } from '@kadai/contracts';
import { SandboxUnavailableError, probeSandbox, type SandboxResult } from '@kadai/sandbox';
import { call, createTestApp, type TestApp, documentedRoutes } from '../../../test/harness.ts';
import { courses } from '../../db/schema.ts';
import { graderHosts } from '../../db/schema-cluster.ts';
import { createSubmissionWorld, insertSubmission, type SubmissionWorld } from '../submissions/testing.ts';
import { createPeer } from '../workbooks/testing.ts';
import { SNIPPET_RATE, SnippetLimiter, runSnippet } from './console.service.ts';

type Caller = 'anonymous' | 'student' | 'classmate' | 'editor' | 'otherEditor' | 'staff';
const CALLERS: Caller[] = ['anonymous', 'student', 'classmate', 'editor', 'otherEditor', 'staff'];

describe('PyGrade console API without a sandbox', () => {
  let t: TestApp;
  let w: SubmissionWorld;
  beforeAll(async () => {
    t = await createTestApp({ sandboxOk: false });
    w = await createSubmissionWorld(t);
  });
  afterAll(() => t.close());

  const MATRIX = [
    {
      method: 'GET' as const,
      route: '/api/Pygrade/status/',
      expected: { anonymous: 401, student: 403, classmate: 403, editor: 200, otherEditor: 200, staff: 200 },
    },
    {
      method: 'POST' as const,
      route: '/api/Pygrade/run/',
      body: { code: 'print(1)' },
      // Allowed callers get 503: there is no sandbox, and nothing ever runs without one.
      expected: { anonymous: 401, student: 403, classmate: 403, editor: 503, otherEditor: 503, staff: 503 },
    },
  ];

  it('has a matrix row for every console route', async () => {
    expect(await documentedRoutes(t, (path) => path.startsWith('/api/Pygrade/'))).toEqual(
      MATRIX.map((r) => `${r.method} ${r.route}`).sort(),
    );
  });

  for (const row of MATRIX) {
    it(`${row.method} ${row.route}: who may call it`, async () => {
      const actual: Record<string, number> = {};
      for (const caller of CALLERS) {
        const res = await call(t, row.method, row.route, { token: w.tokens[caller], body: row.body });
        actual[caller] = res.status;
      }
      expect(actual).toEqual(row.expected);
    });
  }

  it('says why nothing runs', async () => {
    const res = await call(t, 'POST', '/api/Pygrade/run/', {
      token: w.tokens.staff,
      body: { code: 'print(1)' },
    });
    expect(res.json.code).toBe('sandbox_unavailable');
    expect(String(res.json.detail)).toContain('missing bubblewrap');
    expect(
      (await call(t, 'POST', '/api/Pygrade/run/', { token: w.tokens.staff, body: { code: '' } })).status,
    ).toBe(400);
  });

  it('shows the queue, the running and recent jobs of the caller’s courses, and the hosts', async () => {
    const other = await createSubmissionWorld(t);
    await t.ctx.db.update(courses).set({ title: 'Data Structures' }).where(eq(courses.id, other.course.id));
    const running = await insertSubmission(t, {
      assignmentId: w.assignment.id,
      courseId: w.course.id,
      userId: w.users.student.id,
      status: 'Executing',
      startedAt: new Date(),
      graderHost: 'grader-a',
    });
    const elsewhere = await insertSubmission(t, {
      assignmentId: other.assignment.id,
      courseId: other.course.id,
      userId: other.users.student.id,
      status: 'Executing',
      startedAt: new Date(),
    });
    await t.ctx.db.insert(graderHosts).values([
      { id: 'grader-a', hostname: 'a', pid: 1, sandboxOk: true, sandboxDetail: 'ok', concurrency: 2 },
      {
        id: 'grader-b',
        hostname: 'b',
        pid: 2,
        sandboxOk: false,
        sandboxDetail: 'missing bubblewrap',
        concurrency: 2,
        lastSeenAt: new Date(Date.now() - 60_000),
      },
    ]);
    const status = async (token: string) => {
      const res = await call(t, 'GET', '/api/Pygrade/status/', { token });
      expect(res.status).toBe(200);
      return PygradeStatus.parse(res.body);
    };
    const editor = await status(w.tokens.editor);
    // Both worlds have a Scheduled submission: the depth counts every course.
    expect(editor.queue_depth).toBe(2);
    expect(editor.running.map((j) => j.submission_id)).toEqual([running.id]);
    // Each job names its course, so the page need not show a bare id.
    expect(editor.running.map((j) => [j.course_id, j.course_title])).toEqual([[w.course.id, 'Algorithms']]);
    expect(editor.recent.map((j) => j.submission_id)).toEqual([w.completed.id]);
    expect(editor.hosts.map((h) => [h.id, h.alive, h.sandbox_ok])).toEqual([
      ['grader-a', true, true],
      ['grader-b', false, false],
    ]);
    expect(editor.sandbox.ok).toBe(false);
    const staff = await status(w.tokens.staff);
    expect(staff.running.map((j) => j.submission_id).sort()).toEqual([running.id, elsewhere.id].sort());
    expect(staff.recent).toHaveLength(2);
    expect(staff.running.map((j) => [j.course_id, j.course_title]).sort()).toEqual(
      [
        [w.course.id, 'Algorithms'],
        [other.course.id, 'Data Structures'],
      ].sort(),
    );
  });

  it('maps a sandbox that disappears mid-way to 503, and limits runs', async () => {
    const deps = {
      sandbox: async () => ({ ok: true, detail: 'probe ok' }),
      limiter: new SnippetLimiter(),
      run: async () => {
        throw new SandboxUnavailableError('Sandbox unavailable: missing bubblewrap');
      },
    };
    const actor = { userId: w.users.staff.id, email: 'x', isStaff: true, sessionId: 's' };
    await expect(runSnippet(t.ctx, actor, { code: 'print(1)', stdin: '' }, deps)).rejects.toMatchObject({
      statusCode: 503,
      code: 'sandbox_unavailable',
    });
  });
});

describe('SnippetLimiter', () => {
  it('allows 2 snippets at once in a process', () => {
    const limiter = new SnippetLimiter(2);
    const a = limiter.acquire();
    const b = limiter.acquire();
    expect(() => limiter.acquire()).toThrow(/busy/);
    a();
    a();
    limiter.acquire()();
    b();
  });
});

describe('the snippet rate across API instances', () => {
  let t: TestApp;
  let peer: TestApp;
  let w: SubmissionWorld;
  beforeAll(async () => {
    t = await createTestApp();
    peer = await createPeer(t);
    w = await createSubmissionWorld(t);
  });
  afterAll(async () => {
    await peer?.close();
    await t?.close();
  });

  it(`allows ${SNIPPET_RATE.max} runs a minute per person, counted by every instance together`, async () => {
    const ran: SandboxResult = {
      exitCode: 0,
      signal: null,
      timeMs: 1,
      cpuMs: 1,
      memoryKb: 1,
      stdout: '',
      stderr: '',
      stdoutTruncated: false,
      stderrTruncated: false,
      limit: null,
      files: [],
    };
    const deps = {
      sandbox: async () => ({ ok: true, detail: 'probe ok' }),
      limiter: new SnippetLimiter(),
      run: async () => ran,
    };
    const editor = { userId: w.users.editor.id, email: 'e', isStaff: false, sessionId: 's' };
    const staff = { userId: w.users.staff.id, email: 's', isStaff: true, sessionId: 's' };
    const runOn = (app: TestApp, actor: typeof editor) =>
      runSnippet(app.ctx, actor, { code: 'print(1)', stdin: '' }, deps);
    for (let i = 0; i < SNIPPET_RATE.max; i++) await runOn(i % 2 === 0 ? t : peer, editor);
    for (const app of [t, peer]) {
      await expect(runOn(app, editor)).rejects.toMatchObject({
        statusCode: 429,
        code: 'throttled',
        headers: { 'retry-after': expect.stringMatching(/^\d+$/) },
      });
    }
    // Another person has a window of their own.
    await expect(runOn(peer, staff)).resolves.toMatchObject({ exit_code: 0 });
  });
});

describe('PyGrade console API with this host’s sandbox', () => {
  let t: TestApp;
  let w: SubmissionWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await createSubmissionWorld(t);
  });
  afterAll(() => t.close());

  it('runs a snippet with its input in the sandbox, or says it cannot', async () => {
    process.env.KADAI_TEST_SECRET = 'must-not-leak';
    // Test files share their worker's process (isolate: false): the variable goes with this test.
    onTestFinished(() => {
      delete process.env.KADAI_TEST_SECRET;
    });
    const sandbox = await probeSandbox();
    const res = await call(t, 'POST', '/api/Pygrade/run/', {
      token: w.tokens.editor,
      body: {
        code: "import os\nprint(input()[::-1])\nprint(os.environ.get('KADAI_TEST_SECRET'))\n",
        stdin: 'abc\n',
      },
    });
    if (!sandbox.ok) {
      expect([res.status, res.json.code]).toEqual([503, 'sandbox_unavailable']);
      return;
    }
    expect(res.status).toBe(200);
    const result = SnippetRunResult.parse(res.body);
    expect(result.exit_code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('cba');
    // The sandbox starts programs with an empty environment: the server's variables stay outside.
    expect(result.stdout.split('\n')[1]).toBe('None');
    const failing = SnippetRunResult.parse(
      (
        await call(t, 'POST', '/api/Pygrade/run/', {
          token: w.tokens.staff,
          body: { code: 'raise SystemExit(3)' },
        })
      ).body,
    );
    expect(failing.exit_code).toBe(3);
  });
});
