import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Assignment, AssignmentList } from '@kadai/contracts';
import { call, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addEditor, addStudent, createCourse, createUser, tokenFor } from '../../../test/factories.ts';
import { assignmentFiles, assignments } from '../../db/schema-assignments.ts';
import { isStored } from '../../../test/stored-files.ts';
import { eq } from 'drizzle-orm';
import { hoursFromNow, insertAssignment, insertSubmission, upload } from './testing.ts';

describe('assignments', () => {
  let t: TestApp;
  let course: { id: number };
  let second: { id: number }; // the editor edits it too
  let foreign: { id: number; title: string }; // edited by someone else
  let ids: { editor: number; student: number; other: number; staff: number };
  let tok: { staff: string; editor: string; student: string; otherEditor: string; foreignStudent: string };

  beforeAll(async () => {
    t = await createTestApp();
    course = await createCourse(t, { title: 'Python I' });
    second = await createCourse(t, { title: 'Python II' });
    foreign = await createCourse(t, { title: 'Secret Seminar' });
    const [staff, editor, student, otherEditor, foreignStudent] = await Promise.all(
      [true, false, false, false, false].map((isStaff) => createUser(t, { isStaff })),
    );
    await addEditor(t, course.id, editor!.id);
    await addEditor(t, second.id, editor!.id);
    await addEditor(t, foreign.id, otherEditor!.id);
    await addStudent(t, course.id, student!.id);
    await addStudent(t, foreign.id, foreignStudent!.id);
    await addStudent(t, foreign.id, student!.id);
    ids = { editor: editor!.id, student: student!.id, other: otherEditor!.id, staff: staff!.id };
    tok = {
      staff: await tokenFor(t, staff!),
      editor: await tokenFor(t, editor!),
      student: await tokenFor(t, student!),
      otherEditor: await tokenFor(t, otherEditor!),
      foreignStudent: await tokenFor(t, foreignStudent!),
    };
  });
  afterAll(() => t.close());

  const dates = (courseId: number, opens = -24, due = 24, late: number | null = null) => ({
    course_id: courseId,
    opens_at: hoursFromNow(opens).toISOString(),
    due_at: hoursFromNow(due).toISOString(),
    late_until: late === null ? null : hoursFromNow(late).toISOString(),
  });
  const create = async (body: Record<string, unknown>, token = tok.editor) => {
    const res = await call(t, 'POST', '/api/Assignment/', { token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return Assignment.parse(res.body);
  };

  describe('POST Assignment/', () => {
    it('creates an assignment with defaults in courses the caller edits', async () => {
      const created = await create({ title: '  Hello  ', courses: [dates(course.id), dates(second.id)] });
      expect(created).toMatchObject({
        view: 'editor',
        title: 'Hello',
        entry_file: 'main.py',
        allowed_extensions: ['.py'],
        max_files: 5,
        created_by: ids.editor,
        reference_solution: '',
        total_points: 0,
        test_case_count: 0,
      });
      expect(created.courses.map((c) => c.course_id).sort()).toEqual([course.id, second.id].sort());
      const read = await call(t, 'GET', `/api/Assignment/${created.id}/`, { token: tok.editor });
      expect(read.body).toEqual(created);
    });

    it('refuses bad input with field errors', async () => {
      const ok = { title: 'T', courses: [dates(course.id)] };
      const cases: [unknown, string][] = [
        [{}, 'title'],
        [{ ...ok, title: '' }, 'title'],
        [{ ...ok, title: 42 }, 'title'],
        [{ title: 'T' }, 'courses'],
        [{ ...ok, courses: [] }, 'courses'],
        [{ ...ok, courses: [dates(course.id, 10, 5)] }, 'courses.0.due_at'],
        [{ ...ok, courses: [dates(course.id, -1, 5, 2)] }, 'courses.0.late_until'],
        [{ ...ok, courses: [dates(course.id), dates(course.id)] }, 'courses'],
        [{ ...ok, courses: [{ ...dates(course.id), opens_at: 'tomorrow' }] }, 'courses.0.opens_at'],
        [{ ...ok, courses: [{ ...dates(course.id), course_id: 'x' }] }, 'courses.0.course_id'],
        [{ ...ok, entry_file: '../main.py' }, 'entry_file'],
        [{ ...ok, entry_file: '.hidden.py' }, 'entry_file'],
        [{ ...ok, allowed_extensions: ['py'] }, 'allowed_extensions.0'],
        [{ ...ok, max_files: 0 }, 'max_files'],
        [{ ...ok, max_file_bytes: 100 * 1024 * 1024 }, 'max_file_bytes'],
        [{ ...ok, entry_file: 'main.txt' }, 'entry_file'],
        [{ ...ok, required_files: ['data.csv'] }, 'required_files'],
        [{ ...ok, required_files: ['a.py', 'a.py'] }, 'required_files'],
        [{ ...ok, required_files: ['a.py', 'b.py'], max_files: 2 }, 'max_files'],
      ];
      for (const [body, field] of cases) {
        const res = await call(t, 'POST', '/api/Assignment/', { token: tok.editor, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.json[field], `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`).toBeDefined();
      }
      const unknownField = await call(t, 'POST', '/api/Assignment/', {
        token: tok.editor,
        body: { ...ok, x: 1 },
      });
      expect(unknownField.status).toBe(400);
    });

    it('refuses courses the caller does not edit, and creates nothing', async () => {
      const before = await t.ctx.db.$count(assignments);
      for (const list of [[dates(foreign.id)], [dates(course.id), dates(foreign.id)], [dates(999_999)]]) {
        const res = await call(t, 'POST', '/api/Assignment/', {
          token: tok.editor,
          body: { title: 'T', courses: list },
        });
        expect(res.status).toBe(403);
        expect(res.json.courses).toBeDefined();
      }
      const asStudent = await call(t, 'POST', '/api/Assignment/', {
        token: tok.student,
        body: { title: 'T', courses: [dates(course.id)] },
      });
      expect(asStudent.status).toBe(403);
      const staffUnknown = await call(t, 'POST', '/api/Assignment/', {
        token: tok.staff,
        body: { title: 'T', courses: [dates(999_999)] },
      });
      expect(staffUnknown.status).toBe(400);
      expect(await t.ctx.db.$count(assignments)).toBe(before);
    });
  });

  describe('who sees what', () => {
    it('answers 404 for unknown, malformed and other people’s assignments', async () => {
      const mine = await insertAssignment(t, { courses: [{ courseId: course.id }] });
      for (const url of ['/api/Assignment/999999/', '/api/Assignment/abc/', '/api/Assignment/0/']) {
        expect((await call(t, 'GET', url, { token: tok.editor })).status).toBe(404);
      }
      expect((await call(t, 'GET', `/api/Assignment/${mine.id}/`, { token: tok.otherEditor })).status).toBe(
        404,
      );
      expect(
        (await call(t, 'GET', `/api/Assignment/${mine.id}/`, { token: tok.foreignStudent })).status,
      ).toBe(404);
    });

    it('hides an assignment from students until it opens', async () => {
      const later = await insertAssignment(t, {
        title: 'Not yet',
        courses: [{ courseId: course.id, opensAt: hoursFromNow(2), dueAt: hoursFromNow(48) }],
      });
      const base = `/api/Assignment/${later.id}`;
      for (const url of [
        `${base}/`,
        `${base}/CourseSpecificDetail/?course_id=${course.id}`,
        `${base}/total_score/?course_id=${course.id}`,
        `${base}/${course.id}/TestCase/`,
        `${base}/${course.id}/FileUpload/`,
      ]) {
        expect((await call(t, 'GET', url, { token: tok.student })).status, url).toBe(404);
        expect((await call(t, 'GET', url, { token: tok.editor })).status, url).toBe(200);
      }
      const list = AssignmentList.parse(
        (await call(t, 'GET', '/api/Assignment/', { token: tok.student, query: { limit: '100' } })).body,
      );
      expect(list.results.map((a) => a.id)).not.toContain(later.id);
      const inCourse = await call(t, 'GET', '/api/Assignment/CourseSpecific/', {
        token: tok.student,
        query: { course_id: String(course.id) },
      });
      expect(JSON.stringify(inCourse.body)).not.toContain('Not yet');
    });

    it('shows students the student view, with only the courses they may see', async () => {
      const shared = await insertAssignment(t, {
        courses: [
          { courseId: course.id },
          { courseId: second.id },
          { courseId: foreign.id, opensAt: hoursFromNow(5) },
        ],
        referenceSolution: 'print("the answer")',
      });
      const res = await call(t, 'GET', `/api/Assignment/${shared.id}/`, { token: tok.student });
      expect(res.status).toBe(200);
      const seen = Assignment.parse(res.body);
      expect(seen.view).toBe('student');
      // Studies `course` and `foreign`, but `foreign` has not opened; `second` is not theirs.
      expect(seen.courses.map((c) => c.course_id)).toEqual([course.id]);
      const raw = JSON.stringify(res.body);
      expect(raw).not.toContain('reference_solution');
      expect(raw).not.toContain('the answer');
      expect(raw).not.toContain('Python II');
      expect(raw).not.toContain('Secret Seminar');
      // Managers see every course: PUT replaces the list, so they must be able to send it back.
      const asEditor = Assignment.parse(
        (await call(t, 'GET', `/api/Assignment/${shared.id}/`, { token: tok.editor })).body,
      );
      expect(asEditor.courses).toHaveLength(3);
      expect(asEditor.view).toBe('editor');
      // A course of the assignment the caller may not see cannot be named in a path.
      const inSecond = await call(t, 'GET', `/api/Assignment/${shared.id}/CourseSpecificDetail/`, {
        token: tok.student,
        query: { course_id: String(second.id) },
      });
      expect(inSecond.status).toBe(404);
    });
  });

  describe('GET Assignment/', () => {
    it('filters by courses, creator and title, orders and pages', async () => {
      const mk = (title: string, courseId: number, due: number) =>
        insertAssignment(t, {
          title,
          courses: [{ courseId, dueAt: hoursFromNow(due) }],
          createdBy: ids.other,
        });
      const b = await mk('Zeta list item', foreign.id, 30);
      const a = await mk('Alpha list item', foreign.id, 10);
      const list = (query: Record<string, string>) =>
        call(t, 'GET', '/api/Assignment/', { token: tok.otherEditor, query });
      const byTitle = AssignmentList.parse((await list({ search: 'list item', ordering: 'title' })).body);
      expect(byTitle.results.map((r) => r.id)).toEqual([a.id, b.id]);
      const byDue = AssignmentList.parse(
        (await list({ courses: String(foreign.id), search: 'list item', ordering: '-due_at' })).body,
      );
      expect(byDue.results.map((r) => r.id)).toEqual([b.id, a.id]);
      const byCreator = AssignmentList.parse((await list({ created_by: String(ids.other) })).body);
      expect(byCreator.results.every((r) => r.created_by === ids.other)).toBe(true);
      const page = AssignmentList.parse(
        (await list({ search: 'list item', limit: '1', offset: '1', ordering: 'title' })).body,
      );
      expect(page).toMatchObject({ count: 2, limit: 1, offset: 1 });
      expect(page.results.map((r) => r.id)).toEqual([b.id]);
      const past = AssignmentList.parse((await list({ search: 'list item', offset: '50' })).body);
      expect(past).toMatchObject({ count: 2, results: [] });
      // Courses the caller has no part in filter to nothing.
      const unrelated = await createCourse(t);
      await insertAssignment(t, { courses: [{ courseId: unrelated.id }] });
      const elsewhere = AssignmentList.parse((await list({ courses: String(unrelated.id) })).body);
      expect(elsewhere.count).toBe(0);
      const bad: Record<string, string>[] = [
        { courses: 'abc' },
        { courses: '1,,2' },
        { courses: '99999999999' },
        { limit: '1000' },
        { ordering: 'score' },
        { created_by: 'me' },
      ];
      for (const query of bad) {
        expect((await list(query)).status, JSON.stringify(query)).toBe(400);
      }
      expect((await call(t, 'GET', '/api/Assignment/')).status).toBe(401);
    });
  });

  describe('PUT and PATCH Assignment/{id}/', () => {
    it('changes the fields given and keeps the rest', async () => {
      const a = await create({ title: 'Before', statement: 'S', courses: [dates(course.id)] });
      const patched = Assignment.parse(
        (await call(t, 'PATCH', `/api/Assignment/${a.id}/`, { token: tok.editor, body: { title: 'After' } }))
          .body,
      );
      expect(patched).toMatchObject({ title: 'After', statement: 'S' });
      const empty = await call(t, 'PATCH', `/api/Assignment/${a.id}/`, { token: tok.editor, body: {} });
      expect(empty.json.code).toBe('nothing_to_change');
      const badExtension = await call(t, 'PATCH', `/api/Assignment/${a.id}/`, {
        token: tok.editor,
        body: { allowed_extensions: ['.txt'] },
      });
      expect(badExtension.status).toBe(400);
      expect(badExtension.json.entry_file).toBeDefined();
      const noCourses = await call(t, 'PATCH', `/api/Assignment/${a.id}/`, {
        token: tok.editor,
        body: { courses: [] },
      });
      expect(noCourses.status).toBe(400);
      const put = await call(t, 'PUT', `/api/Assignment/${a.id}/`, {
        token: tok.editor,
        body: { title: 'Only' },
      });
      expect(put.status).toBe(400);
      expect(
        (await call(t, 'PATCH', `/api/Assignment/${a.id}/`, { token: tok.student, body: { title: 'x' } }))
          .status,
      ).toBe(403);
      expect(
        (await call(t, 'PATCH', '/api/Assignment/999999/', { token: tok.editor, body: { title: 'x' } }))
          .status,
      ).toBe(404);
    });

    it('needs editor rights on every course added, removed or rescheduled', async () => {
      const shared = await insertAssignment(t, {
        courses: [{ courseId: course.id }, { courseId: foreign.id }],
      });
      const url = `/api/Assignment/${shared.id}/`;
      const current = Assignment.parse((await call(t, 'GET', url, { token: tok.editor })).body).courses.map(
        (c) => ({
          course_id: c.course_id,
          opens_at: c.opens_at,
          due_at: c.due_at,
          late_until: c.late_until,
          leaderboard_enabled: c.leaderboard_enabled,
        }),
      );
      const mineOnly = current.filter((c) => c.course_id === course.id);
      const theirs = current.find((c) => c.course_id === foreign.id)!;
      const patch = (courses: unknown[]) => call(t, 'PATCH', url, { token: tok.editor, body: { courses } });
      expect((await patch(mineOnly)).status).toBe(403); // removes `foreign`
      expect(
        (await patch([...mineOnly, { ...theirs, due_at: hoursFromNow(100).toISOString() }])).status,
      ).toBe(403);
      expect((await patch([...current, dates(999_999)])).status).toBe(403);
      const moved = await patch([{ ...mineOnly[0], due_at: hoursFromNow(100).toISOString() }, theirs]);
      expect(moved.status).toBe(200);
      const added = await patch([...current, dates(second.id)]);
      expect(added.status).toBe(200);
      expect(Assignment.parse(added.body).courses).toHaveLength(3);
    });

    it('lets only staff remove a course whose students have submitted', async () => {
      const a = await create({ title: 'Submitted', courses: [dates(course.id), dates(second.id)] });
      await insertSubmission(t, { assignmentId: a.id, courseId: course.id, userId: ids.student });
      const body = { courses: [dates(second.id)] };
      const byEditor = await call(t, 'PATCH', `/api/Assignment/${a.id}/`, { token: tok.editor, body });
      expect(byEditor.status).toBe(409);
      expect(byEditor.json.code).toBe('has_submissions');
      const byStaff = await call(t, 'PATCH', `/api/Assignment/${a.id}/`, { token: tok.staff, body });
      expect(byStaff.status).toBe(200);
    });
  });

  describe('DELETE Assignment/{id}/', () => {
    it('deletes the assignment with its attachments’ files', async () => {
      const a = await create({ title: 'Gone', courses: [dates(course.id)] });
      const up = await upload(t, `/api/Assignment/${a.id}/${course.id}/FileUpload/`, tok.editor, [
        { filename: 'x.txt', content: 'x' },
      ]);
      expect(up.status).toBe(201);
      const [file] = await t.ctx.db
        .select()
        .from(assignmentFiles)
        .where(eq(assignmentFiles.assignmentId, a.id));
      expect(await isStored(t, file!.storageKey)).toBe(true);
      // Reference runs are not students' work: they do not stop an editor.
      await insertSubmission(t, {
        assignmentId: a.id,
        courseId: course.id,
        userId: ids.editor,
        isReference: true,
      });
      expect((await call(t, 'DELETE', `/api/Assignment/${a.id}/`, { token: tok.student })).status).toBe(403);
      expect((await call(t, 'DELETE', `/api/Assignment/${a.id}/`, { token: tok.editor })).status).toBe(204);
      expect((await call(t, 'GET', `/api/Assignment/${a.id}/`, { token: tok.editor })).status).toBe(404);
      expect(await isStored(t, file!.storageKey)).toBe(false);
      expect((await call(t, 'DELETE', `/api/Assignment/${a.id}/`, { token: tok.editor })).status).toBe(404);
    });

    it('leaves an assignment with students’ submissions to staff', async () => {
      const a = await create({ title: 'Kept', courses: [dates(course.id)] });
      await insertSubmission(t, { assignmentId: a.id, courseId: course.id, userId: ids.student });
      const byEditor = await call(t, 'DELETE', `/api/Assignment/${a.id}/`, { token: tok.editor });
      expect(byEditor.status).toBe(409);
      expect(byEditor.json.code).toBe('has_submissions');
      expect((await call(t, 'DELETE', `/api/Assignment/${a.id}/`, { token: tok.staff })).status).toBe(204);
    });

    it('refuses an editor when the assignment is also given in a course they do not edit', async () => {
      const shared = await insertAssignment(t, {
        courses: [{ courseId: course.id }, { courseId: foreign.id }],
      });
      expect((await call(t, 'DELETE', `/api/Assignment/${shared.id}/`, { token: tok.editor })).status).toBe(
        403,
      );
    });
  });
});
