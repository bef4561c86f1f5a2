import { ForumRecord, type ForumRecordCreate } from '@kadai/contracts';
import { call, type TestApp } from '../../../test/harness.ts';
import { addStudent, createCourseWorld, createUser, tokenFor } from '../../../test/factories.ts';

/* Test data for the forum, made through the API so counters, read state and search stay true. */

export const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);

/** Posts through `POST Forum/Record/` and fails the test with the answer when it is not 201. */
export async function postRecord(t: TestApp, token: string, body: ForumRecordCreate): Promise<ForumRecord> {
  const res = await call(t, 'POST', '/api/Forum/Record/', { token, body });
  if (res.status !== 201) throw new Error(`POST Forum/Record/ → ${res.status} ${JSON.stringify(res.body)}`);
  return ForumRecord.parse(res.body);
}

/**
 * The callers of the forum's authorization matrix around `course`: anonymous, a student of the course,
 * a student of another course, an editor of the course, an editor of another course, staff; and the
 * course's posts: a student's discussion with an editor's comment, a pinned announcement, and an
 * announcement scheduled an hour ahead (students cannot see it).
 */
export async function createForumWorld(t: TestApp) {
  const world = await createCourseWorld(t);
  const otherStudent = await createUser(t, { firstName: 'Other', lastName: 'Student' });
  await addStudent(t, world.otherCourse.id, otherStudent.id);
  const tokens = { ...world.tokens, otherStudent: await tokenFor(t, otherStudent) };
  const course = world.course.id;
  const topic = await postRecord(t, tokens.student, {
    course,
    title: 'How do list comprehensions work?',
    content: 'リスト内包表記がよく分かりません。',
  });
  const comment = await postRecord(t, tokens.editor, {
    course,
    parent_record: topic.id,
    content: 'See chapter 3.',
  });
  const announcement = await postRecord(t, tokens.editor, {
    course,
    title: 'Welcome',
    content: 'The course starts on Monday.',
    is_announcement: true,
    pinned: true,
  });
  const scheduled = await postRecord(t, tokens.editor, {
    course,
    title: 'Exam results',
    content: 'Results are out.',
    is_announcement: true,
    scheduled_at: minutesFromNow(60).toISOString(),
  });
  return {
    ...world,
    users: { ...world.users, otherStudent },
    tokens,
    topic,
    comment,
    announcement,
    scheduled,
  };
}

export type ForumWorld = Awaited<ReturnType<typeof createForumWorld>>;
