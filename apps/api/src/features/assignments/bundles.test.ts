import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { AssignmentEditorView, AssignmentFileList, TestCaseEditorView, TestCaseList } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { createCourseWorld } from '../../../test/factories.ts';
import { bundleFootprint, importBundle, upload, zipOf } from './testing.ts';

type World = Awaited<ReturnType<typeof createCourseWorld>>;

const meta = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({ format_version: 1, title: 'Imported', ...fields });

describe('assignment bundles: export and import', () => {
  let t: TestApp;
  let w: World;

  beforeAll(async () => {
    t = await createTestApp();
    w = await createCourseWorld(t);
  });
  afterAll(() => t.close());

  const exportZip = async (assignmentId: number, courseId: number, token: string | undefined) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/Assignment/${assignmentId}/${courseId}/export/`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: response.statusCode, headers: response.headers, zip: response.rawPayload };
  };
  const testCasesOf = async (assignmentId: number) =>
    TestCaseList.parse(
      (
        await call(t, 'GET', `/api/Assignment/${assignmentId}/${w.course.id}/TestCase/`, {
          token: w.tokens.editor,
        })
      ).body,
    ).results.map((tc) => {
      const {
        id: _id,
        assignment_id: _a,
        created_at: _c,
        updated_at: _u,
        ...rest
      } = TestCaseEditorView.parse(tc);
      // A pytest module is checked again where it lands: the same result, another moment.
      return { ...rest, check: rest.check && { ...rest.check, checked_at: 'when it was checked' } };
    });
  const filesOf = async (assignmentId: number) => {
    const list = AssignmentFileList.parse(
      (
        await call(t, 'GET', `/api/Assignment/${assignmentId}/${w.course.id}/FileUpload/`, {
          token: w.tokens.editor,
        })
      ).body,
    );
    return Promise.all(
      list.map(async (f) => {
        const response = await t.app.inject({ method: 'GET', url: f.url });
        return {
          filename: f.filename,
          content_type: f.content_type,
          size: f.size,
          bytes: response.rawPayload,
        };
      }),
    );
  };
  const footprint = () => bundleFootprint(t);

  it('round-trips an assignment: fields, statement, code, attachments, every test case in order', async () => {
    const created = await call(t, 'POST', '/api/Assignment/', {
      token: w.tokens.editor,
      body: {
        title: 'Sum of two numbers!',
        statement: '# Sum\n\nRead two numbers — print their sum. 和を出力。\n',
        starter_code: 'a, b = ...\n',
        entry_file: 'solution.py',
        required_files: ['helper.py'],
        allowed_extensions: ['.py', '.txt'],
        max_files: 3,
        max_file_bytes: 20_000,
        reference_solution: 'a, b = map(int, input().split())\nprint(a + b)\n',
        courses: [
          { course_id: w.course.id, opens_at: '2030-01-01T00:00:00Z', due_at: '2030-02-01T00:00:00Z' },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const original = AssignmentEditorView.parse(created.body);
    const base = `/api/Assignment/${original.id}/${w.course.id}`;
    const cases = [
      { name: 'Adds', stdin: '1 2\n', expected_stdout: '3\n', points: 2 },
      {
        name: 'Floats',
        stdin: '0.1 0.2\n',
        expected_stdout: '0.3\n',
        comparison: 'numeric',
        tolerance: 0.001,
        visibility: 'hidden',
        time_limit_ms: 500,
        memory_limit_mb: 64,
      },
      {
        name: 'Large numbers',
        kind: 'script',
        stdin: '',
        driver: 'import solution\n',
        check_script: 'import sys\nsys.exit(0)\n',
        visibility: 'after_due',
        points: 5,
      },
      {
        name: 'テスト (pytest)',
        kind: 'pytest',
        test_file_name: 'test_sum.py',
        test_code: 'def test_sum():\n    assert 1 + 2 == 3\n',
        points: 4,
      },
    ];
    for (const body of cases) {
      const res = await call(t, 'POST', `${base}/TestCase/`, { token: w.tokens.editor, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const binary = Buffer.from([0, 1, 2, 255, 254, 10, 13]);
    expect(
      (
        await upload(t, `${base}/FileUpload/`, w.tokens.editor, [
          { filename: 'data.bin', content: binary },
          { filename: 'notes.md', content: '# Notes\n' },
          { filename: '第1回 資料.md', content: '# 資料\n' },
        ])
      ).status,
    ).toBe(201);

    const exported = await exportZip(original.id, w.course.id, w.tokens.editor);
    expect(exported.status).toBe(200);
    expect(exported.headers['content-type']).toBe('application/zip');
    expect(exported.headers['content-disposition']).toContain(
      'attachment; filename="sum-of-two-numbers.zip"',
    );
    expect(exported.headers['cache-control']).toBe('private, no-store');
    const entries = unzipSync(exported.zip);
    expect(Object.keys(entries).sort()).toEqual([
      'assignment.json',
      'files/data.bin',
      'files/notes.md',
      'files/第1回 資料.md',
      'reference/solution.py',
      'starter/solution.py',
      'statement.md',
      'tests/01-adds/expected.txt',
      'tests/01-adds/input.txt',
      'tests/01-adds/test.json',
      'tests/02-floats/expected.txt',
      'tests/02-floats/input.txt',
      'tests/02-floats/test.json',
      'tests/03-large-numbers/check.py',
      'tests/03-large-numbers/driver.py',
      'tests/03-large-numbers/test.json',
      'tests/04-pytest/test.json',
      'tests/04-pytest/test_sum.py',
    ]);
    expect(JSON.parse(strFromU8(entries['assignment.json']!))).toEqual({
      format_version: 1,
      title: 'Sum of two numbers!',
      entry_file: 'solution.py',
      required_files: ['helper.py'],
      allowed_extensions: ['.py', '.txt'],
      max_files: 3,
      max_file_bytes: 20_000,
    });

    const dates = {
      opens_at: '2031-04-01T09:00:00+09:00',
      due_at: '2031-04-08T23:59:00Z',
      late_until: '2031-04-09T23:59:00Z',
    };
    const imported = await importBundle(t, w.course.id, w.tokens.editor, exported.zip, dates);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const copy = AssignmentEditorView.parse(imported.body);
    expect(copy.id).not.toBe(original.id);
    const comparable = (a: z.infer<typeof AssignmentEditorView>) => {
      const { id: _id, created_at: _c, updated_at: _u, courses: _courses, ...rest } = a;
      return rest;
    };
    const again = AssignmentEditorView.parse(
      (await call(t, 'GET', `/api/Assignment/${original.id}/`, { token: w.tokens.editor })).body,
    );
    expect(comparable(copy)).toEqual(comparable(again));
    expect(copy.total_points).toBe(2 + 1 + 5 + 4);
    expect(copy.created_by).toBe(w.users.editor.id);
    expect(copy.courses).toEqual([
      {
        course_id: w.course.id,
        course_title: 'Algorithms',
        opens_at: '2031-04-01T00:00:00.000Z',
        due_at: '2031-04-08T23:59:00.000Z',
        late_until: '2031-04-09T23:59:00.000Z',
        leaderboard_enabled: true,
        extended: false,
      },
    ]);
    expect(await testCasesOf(copy.id)).toEqual(await testCasesOf(original.id));
    const copiedFiles = await filesOf(copy.id);
    expect(copiedFiles).toEqual(await filesOf(original.id));
    expect(copiedFiles.find((f) => f.filename === 'data.bin')!.bytes.equals(binary)).toBe(true);

    // The copy exports to the same entries, byte for byte.
    const second = unzipSync((await exportZip(copy.id, w.course.id, w.tokens.editor)).zip);
    expect(Object.keys(second).sort()).toEqual(Object.keys(entries).sort());
    for (const [name, data] of Object.entries(entries))
      expect(Buffer.from(second[name]!).equals(data), name).toBe(true);
  });

  it('imports a minimal bundle with default dates: opens now, due in seven days at 23:59 UTC', async () => {
    const before = Date.now();
    const res = await importBundle(t, w.course.id, w.tokens.staff, zipOf({ 'assignment.json': meta() }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const a = AssignmentEditorView.parse(res.body);
    expect(a).toMatchObject({ title: 'Imported', statement: '', entry_file: 'main.py', test_case_count: 0 });
    const [course] = a.courses;
    expect(Date.parse(course!.opens_at)).toBeGreaterThanOrEqual(before - 1000);
    const due = new Date(Date.parse(course!.opens_at) + 7 * 24 * 3600_000);
    due.setUTCHours(23, 59, 0, 0);
    expect(course!.due_at).toBe(due.toISOString());
    expect(course!.late_until).toBeNull();
  });

  it('refuses bad dates with 400 invalid, naming the field', async () => {
    const res = await importBundle(t, w.course.id, w.tokens.editor, zipOf({ 'assignment.json': meta() }), {
      opens_at: '2031-01-10T00:00:00Z',
      due_at: '2031-01-01T00:00:00Z',
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      code: 'invalid',
      due_at: ['The due date must be after the opening date.'],
    });
    expect(
      (
        await importBundle(t, w.course.id, w.tokens.editor, zipOf({ 'assignment.json': meta() }), {
          opens_at: 'soon',
        })
      ).json,
    ).toHaveProperty('opens_at');
  });

  describe('who may export and import', () => {
    let assignmentId: number;
    beforeAll(async () => {
      const res = await importBundle(
        t,
        w.course.id,
        w.tokens.editor,
        zipOf({ 'assignment.json': meta({ title: 'Open' }) }),
        {
          opens_at: '2020-01-01T00:00:00Z',
        },
      );
      assignmentId = AssignmentEditorView.parse(res.body).id;
    });

    it('exports for managers only: a student of the course 403, anyone else who cannot see it 404', async () => {
      expect((await exportZip(assignmentId, w.course.id, w.tokens.editor)).status).toBe(200);
      expect((await exportZip(assignmentId, w.course.id, w.tokens.staff)).status).toBe(200);
      expect((await exportZip(assignmentId, w.course.id, w.tokens.student)).status).toBe(403);
      expect((await exportZip(assignmentId, w.course.id, w.tokens.otherEditor)).status).toBe(404);
      expect((await exportZip(assignmentId, w.otherCourse.id, w.tokens.editor)).status).toBe(404);
      expect((await exportZip(999_999, w.course.id, w.tokens.editor)).status).toBe(404);
      expect((await exportZip(assignmentId, w.course.id, undefined)).status).toBe(401);
    });

    it('imports for editors of the course and staff, like POST Assignment/; nothing for others', async () => {
      const before = await footprint();
      const zip = zipOf({ 'assignment.json': meta(), 'files/a.txt': 'a' });
      for (const [token, status] of [
        [w.tokens.student, 403],
        [w.tokens.otherEditor, 403],
        [undefined, 401],
      ] as const) {
        expect((await importBundle(t, w.course.id, token, zip)).status).toBe(status);
      }
      expect((await importBundle(t, 999_999, w.tokens.editor, zip)).status).toBe(403);
      expect(await footprint()).toEqual(before);
      expect((await importBundle(t, w.otherCourse.id, w.tokens.otherEditor, zip)).status).toBe(201);
    });
  });
});
