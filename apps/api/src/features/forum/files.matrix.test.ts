import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, documentedRoutes } from '../../../test/harness.ts';
import { addStudent, createCourseWorld, createUser, tokenFor } from '../../../test/factories.ts';
import { forumRecords } from '../../db/schema-forum.ts';
import { multipartBody } from '../assignments/testing.ts';
import { insertForumFiles } from './files.repo.ts';

/**
 * The forum's file routes × every kind of caller → the exact status. Each cell gets a world of its own,
 * so a cell that deletes the file cannot decide another's.
 */
type Caller = 'anonymous' | 'student' | 'otherStudent' | 'editor' | 'otherEditor' | 'staff';
type World = Awaited<ReturnType<typeof createFileMatrixWorld>>;

const CALLERS: Caller[] = ['anonymous', 'student', 'otherStudent', 'editor', 'otherEditor', 'staff'];

/**
 * The course of `createCourseWorld` with a student of the other course, a topic the student published,
 * a scheduled announcement, and files: the editor's on the topic, the editor's on the announcement, and
 * one in the student's tray.
 */
async function createFileMatrixWorld(t: TestApp) {
  const world = await createCourseWorld(t);
  const otherStudent = await createUser(t);
  await addStudent(t, world.otherCourse.id, otherStudent.id);
  const record = async (authorId: number, publishedAt: Date | null) => {
    const [row] = await t.ctx.db
      .insert(forumRecords)
      .values({
        courseId: world.course.id,
        authorId,
        title: 'A topic',
        content: 'Hello',
        isAnnouncement: publishedAt === null,
        scheduledAt: publishedAt === null ? new Date(Date.now() + 86_400_000) : null,
        publishedAt,
        searchVector: '',
      })
      .returning();
    return row!;
  };
  const topic = await record(world.users.student.id, new Date());
  const scheduled = await record(world.users.editor.id, null);
  const file = (uploadedBy: number, recordId: number | null) => ({
    courseId: world.course.id,
    recordId,
    uploadedBy,
    storageKey: `forum/${world.course.id}/missing`,
    filename: 'notes.txt',
    size: 5,
    contentType: 'text/plain',
  });
  const [onTopic, onScheduled, inTray] = await insertForumFiles(t.ctx.db, [
    file(world.users.editor.id, topic.id),
    file(world.users.editor.id, scheduled.id),
    file(world.users.student.id, null),
  ]);
  return {
    ...world,
    files: { onTopic: onTopic!, onScheduled: onScheduled!, inTray: inTray! },
    tokens: { ...world.tokens, otherStudent: await tokenFor(t, otherStudent) },
  };
}

interface Row {
  method: 'GET' | 'POST' | 'DELETE';
  /** The path as the OpenAPI document names it. */
  route: string;
  /** What the row shows, when a route has more than one. */
  case?: string;
  send: (t: TestApp, w: World, token: string | undefined) => Promise<number>;
  expected: Record<Caller, number>;
}

const UPLOAD = '/api/Forum/ForumFileUpload/{id}/';
const SIGN = '/api/Forum/ForumSignedURL/';

const members = (ok: number) => ({
  anonymous: 401,
  student: ok,
  otherStudent: 404,
  editor: ok,
  otherEditor: 404,
  staff: ok,
});

async function upload(t: TestApp, w: World, token: string | undefined): Promise<number> {
  const { payload, contentType } = multipartBody([{ filename: 'a.txt', content: 'abc' }]);
  const headers: Record<string, string> = { 'content-type': contentType };
  if (token) headers.authorization = `Bearer ${token}`;
  const url = `/api/Forum/ForumFileUpload/${w.course.id}/`;
  return (await t.app.inject({ method: 'POST', url, headers, payload })).statusCode;
}

const remove = (pick: (w: World) => number) => async (t: TestApp, w: World, token?: string) =>
  (await call(t, 'DELETE', `/api/Forum/ForumFileUpload/${pick(w)}/`, { token })).status;
const sign = (pick: (w: World) => number) => async (t: TestApp, w: World, token?: string) =>
  (await call(t, 'GET', SIGN, { token, query: { file: String(pick(w)) } })).status;

const MATRIX: Row[] = [
  { method: 'POST', route: UPLOAD, send: upload, expected: members(201) },
  {
    method: 'DELETE',
    route: UPLOAD,
    case: "the editor's file on a published topic",
    send: remove((w) => w.files.onTopic.id),
    expected: { ...members(204), student: 403 },
  },
  {
    method: 'DELETE',
    route: UPLOAD,
    case: "the student's tray file",
    send: remove((w) => w.files.inTray.id),
    expected: members(204),
  },
  {
    method: 'GET',
    route: SIGN,
    case: 'a file on a published topic',
    send: sign((w) => w.files.onTopic.id),
    expected: members(200),
  },
  {
    method: 'GET',
    route: SIGN,
    case: 'a file on a scheduled announcement',
    send: sign((w) => w.files.onScheduled.id),
    expected: { ...members(200), student: 404 },
  },
];

describe('forum files: authorization matrix', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('has a row for every route of the files feature', async () => {
    expect(await documentedRoutes(t, (path) => path === UPLOAD || path === SIGN)).toEqual(
      [...new Set(MATRIX.map((r) => `${r.method} ${r.route}`))].sort(),
    );
  });

  for (const row of MATRIX) {
    it(`${row.method} ${row.route}${row.case ? ` (${row.case})` : ''}`, async () => {
      const actual: Record<string, number> = {};
      for (const caller of CALLERS) {
        const world = await createFileMatrixWorld(t);
        actual[caller] = await row.send(t, world, world.tokens[caller]);
      }
      expect(actual).toEqual(row.expected);
    });
  }
});
