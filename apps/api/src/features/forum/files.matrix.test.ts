import { addStudent, createCourseWorld, createUser, tokenFor } from '../../../test/factories.ts';
import { forumRecords } from '../../db/schema-forum.ts';
import { multipartBody } from '../assignments/testing.ts';
import { insertForumFiles } from './files.repo.ts';
import { call, type TestApp } from '../../../test/harness.ts';
import { describeMatrix, type Answer, type Cell, type MatrixRow } from '../../../test/matrix.ts';

/**
 * The forum's file routes × every kind of caller → the exact status (apps/api/test/matrix.ts walks
 * the rows; a DELETE row gives each caller a world of its own).
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

type Row = MatrixRow<World, Caller>;

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

async function upload(w: World, token: string | undefined, { t }: Cell<World, Caller>): Promise<Answer> {
  const { payload, contentType } = multipartBody([{ filename: 'a.txt', content: 'abc' }]);
  const headers: Record<string, string> = { 'content-type': contentType };
  if (token) headers.authorization = `Bearer ${token}`;
  const url = `/api/Forum/ForumFileUpload/${w.course.id}/`;
  return { status: (await t.app.inject({ method: 'POST', url, headers, payload })).statusCode };
}

const remove =
  (pick: (w: World) => number) =>
  (w: World, token: string | undefined, { t }: Cell<World, Caller>) =>
    call(t, 'DELETE', `/api/Forum/ForumFileUpload/${pick(w)}/`, { token });
const sign =
  (pick: (w: World) => number) =>
  (w: World, token: string | undefined, { t }: Cell<World, Caller>) =>
    call(t, 'GET', SIGN, { token, query: { file: String(pick(w)) } });

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

describeMatrix<World, Caller>({
  title: 'forum files: authorization matrix',
  callers: CALLERS,
  world: createFileMatrixWorld,
  token: (w, caller) => w.tokens[caller],
  rows: MATRIX,
  owns: (path) => path === UPLOAD || path === SIGN,
});
