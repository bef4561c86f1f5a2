import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORUM_MESSAGES } from '@kadai/contracts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addStudent, createCourseWorld, createUser } from '../../../test/factories.ts';
import { forumFiles, forumRecords } from '../../db/schema-forum.ts';
import { HttpError } from '../../lib/errors.ts';
import * as repo from './files.repo.ts';
import {
  FORUM_FILES_HOUSEKEEPING_QUEUE,
  pruneForumTray,
  startForumFileHousekeeping,
} from './files.service.ts';

const HOUR = 3_600_000;

/** The course of `createCourseWorld` with a classmate of the student and a topic of the student. */
async function createFilesWorld(t: TestApp) {
  const world = await createCourseWorld(t);
  const classmate = await createUser(t);
  await addStudent(t, world.course.id, classmate.id);
  const topic = await insertRecord(t, { courseId: world.course.id, authorId: world.users.student.id });
  return { ...world, topic, users: { ...world.users, classmate } };
}

async function insertRecord(t: TestApp, fields: { courseId: number; authorId: number; parentId?: number }) {
  const [row] = await t.ctx.db
    .insert(forumRecords)
    .values({
      ...fields,
      title: fields.parentId ? '' : 'A topic',
      content: 'Hello',
      publishedAt: new Date(),
      searchVector: '',
    })
    .returning();
  return row!;
}

describe('forum files: attachFiles and the record queries', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof createFilesWorld>>;
  beforeAll(async () => {
    t = await createTestApp();
    w = await createFilesWorld(t);
  });
  afterAll(() => t.close());

  let n = 0;
  const trayFile = async (userId: number, courseId = w.course.id, recordId: number | null = null) => {
    const [row] = await repo.insertForumFiles(t.ctx.db, [
      {
        courseId,
        recordId,
        uploadedBy: userId,
        storageKey: `forum/${courseId}/k${n}`,
        filename: `f${n++}.txt`,
        size: 3,
        contentType: 'text/plain',
      },
    ]);
    return row!;
  };
  const attach = (recordId: number, fileIds: number[], userId = w.users.student.id) =>
    t.ctx.db.transaction((tx) => repo.attachFiles(tx, { courseId: w.course.id, recordId, fileIds, userId }));
  const attachedIds = async (recordId: number) =>
    ((await repo.listFilesOfRecords(t.ctx.db, [recordId])).get(recordId) ?? []).map((f) => f.id);
  const refusal = async (promise: Promise<unknown>) => {
    const error: unknown = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    if (!(error instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(error)}`);
    return error;
  };

  it('claims tray files, keeps listed ones and releases the rest', async () => {
    const post = await insertRecord(t, { courseId: w.course.id, authorId: w.users.student.id });
    const [a, b, c] = [
      await trayFile(w.users.student.id),
      await trayFile(w.users.student.id),
      await trayFile(w.users.student.id),
    ];
    expect(await attach(post.id, [a!.id, b!.id, a!.id])).toEqual({ removedKeys: [] });
    expect((await attachedIds(post.id)).sort()).toEqual([a!.id, b!.id].sort());
    const result = await attach(post.id, [b!.id, c!.id]);
    expect(result.removedKeys).toEqual([a!.storageKey]);
    expect((await attachedIds(post.id)).sort()).toEqual([b!.id, c!.id].sort());
    expect(await repo.findForumFile(t.ctx.db, a!.id)).toBeNull();
    // An editor editing the post keeps the author's files and may add their own.
    const d = await trayFile(w.users.editor.id);
    await attach(post.id, [b!.id, c!.id, d.id], w.users.editor.id);
    expect(await attachedIds(post.id)).toHaveLength(3);
    expect((await attach(post.id, [])).removedKeys).toHaveLength(3);
    expect(await attachedIds(post.id)).toEqual([]);
  });

  it('refuses more than five files with the limit message', async () => {
    const post = await insertRecord(t, { courseId: w.course.id, authorId: w.users.student.id });
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push((await trayFile(w.users.student.id)).id);
    const error = await refusal(attach(post.id, ids));
    expect([error.statusCode, error.code, error.message]).toEqual([
      400,
      'too_many_files',
      FORUM_MESSAGES.uploadLimit,
    ]);
    expect(error.fields).toHaveProperty('attachments');
    expect(await attachedIds(post.id)).toEqual([]);
  });

  it('refuses ids that are not the caller’s tray files of this course nor already on the post', async () => {
    const post = await insertRecord(t, { courseId: w.course.id, authorId: w.users.student.id });
    const other = await insertRecord(t, { courseId: w.course.id, authorId: w.users.student.id });
    const mine = await trayFile(w.users.student.id);
    const classmates = await trayFile(w.users.classmate.id);
    const otherCourse = await trayFile(w.users.student.id, w.otherCourse.id);
    const onOther = await trayFile(w.users.student.id, w.course.id, other.id);
    for (const foreign of [classmates.id, otherCourse.id, onOther.id, 9_999_999]) {
      const error = await refusal(
        t.ctx.db.transaction((tx) =>
          repo.attachFiles(tx, {
            courseId: w.course.id,
            recordId: post.id,
            fileIds: [mine.id, foreign],
            userId: w.users.student.id,
          }),
        ),
      );
      expect(error.statusCode).toBe(400);
      expect(error.fields).toHaveProperty('attachments');
    }
    // Nothing was claimed by the refused calls.
    expect(await attachedIds(post.id)).toEqual([]);
    expect((await repo.findForumFile(t.ctx.db, mine.id))?.recordId).toBeNull();
  });

  it('lists files per record and the storage keys of a topic with its comments', async () => {
    const topic = await insertRecord(t, { courseId: w.course.id, authorId: w.users.student.id });
    const comment = await insertRecord(t, {
      courseId: w.course.id,
      authorId: w.users.classmate.id,
      parentId: topic.id,
    });
    const f1 = await trayFile(w.users.student.id, w.course.id, topic.id);
    const f2 = await trayFile(w.users.classmate.id, w.course.id, comment.id);
    const map = await repo.listFilesOfRecords(t.ctx.db, [topic.id, comment.id, w.topic.id]);
    expect(map.get(topic.id)?.map((f) => f.id)).toEqual([f1.id]);
    expect(map.get(comment.id)?.map((f) => f.filename)).toEqual([f2.filename]);
    expect(map.has(w.topic.id)).toBe(false);
    expect((await repo.listStorageKeysOfRecord(t.ctx.db, topic.id)).sort()).toEqual(
      [f1.storageKey, f2.storageKey].sort(),
    );
    expect(await repo.listStorageKeysOfRecord(t.ctx.db, comment.id)).toEqual([f2.storageKey]);
  });
});

describe('forum files: tray housekeeping', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ jobs: true });
  });
  afterAll(() => t.close());

  it('deletes tray files older than a day, rows and objects, and nothing else', async () => {
    const w = await createFilesWorld(t);
    const put = async (name: string, recordId: number | null, ageHours: number) => {
      const key = `forum/${w.course.id}/${name}`;
      await t.ctx.storage.put(key, Buffer.from(name), 'text/plain');
      const [row] = await t.ctx.db
        .insert(forumFiles)
        .values({
          courseId: w.course.id,
          recordId,
          uploadedBy: w.users.student.id,
          storageKey: key,
          filename: `${name}.txt`,
          size: name.length,
          contentType: 'text/plain',
          createdAt: new Date(Date.now() - ageHours * HOUR),
        })
        .returning();
      return row!;
    };
    const abandoned = await put('abandoned', null, 25);
    const fresh = await put('fresh', null, 23);
    const attached = await put('attached', w.topic.id, 100);

    expect(await pruneForumTray(t.ctx)).toBe(1);
    expect(await repo.findForumFile(t.ctx.db, abandoned.id)).toBeNull();
    await expect(t.ctx.storage.read(abandoned.storageKey)).rejects.toThrow();
    for (const kept of [fresh, attached]) {
      expect(await repo.findForumFile(t.ctx.db, kept.id)).not.toBeNull();
      expect((await t.ctx.storage.read(kept.storageKey)).toString()).toBe(kept.storageKey.split('/').at(-1));
    }
  });

  it('is scheduled hourly through the job queue', async () => {
    await startForumFileHousekeeping(t.ctx);
    const rows = await t.ctx.database.query(`SELECT name, cron FROM pgboss.schedule WHERE name = $1`, [
      FORUM_FILES_HOUSEKEEPING_QUEUE,
    ]);
    expect(JSON.stringify(rows.rows)).toContain('41 * * * *');
  });
});
