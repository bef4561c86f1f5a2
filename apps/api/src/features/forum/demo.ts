import type { Tx } from '../../db/client.ts';
import type { DemoWorld } from '../../demo/world.ts';
import type { UserRow } from '../users/users.service.ts';
import * as repo from './records.repo.ts';
import { forumSearchVector } from './search.ts';

/*
 * The demo course's forum: a pinned welcome announcement, another announcement, one scheduled a few
 * days ahead, and discussions in English and Japanese with comments and upvotes, so the tabs, unread
 * markers, upvoters and search in both languages have something to show. Written through the
 * forum's repository with the rules of records.service.ts (search vector, counters, read state),
 * dated in the past so the list looks lived in.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const DEMO_FORUM_TITLES = {
  welcome: 'Welcome to the course! / ようこそ',
  assignment: 'Assignment 1 is out / 課題1を公開しました',
  scheduled: 'Midterm exam: room and rules / 中間試験の教室と注意事項',
  comprehension: 'リスト内包表記について質問です',
  sorting: 'How do I sort a dictionary by value?',
  recursion: '再帰関数のデバッグ方法 / Debugging a recursive function',
  grader: 'Which Python version does the grader use?',
} as const;

const WELCOME = `Welcome to **Introduction to Programming with Python**!

- Lectures: Tuesdays 10:40–12:10, Room 201
- Assignments are graded automatically; you can resubmit until the deadline.
- Ask questions here in the forum — in English or Japanese.

Check that Python runs on your computer:

\`\`\`python
import sys
print(sys.version)
\`\`\`

**ようこそ！** 講義は毎週火曜日 10:40–12:10 です。質問はこのフォーラムに日本語でも英語でも書き込んでください。`;

interface Post {
  author: UserRow;
  title?: string;
  content: string;
  at: number;
  isAnnouncement?: boolean;
  pinned?: boolean;
  scheduledAt?: Date;
}

/** One post as createRecord makes it: vector, counters, the author's read mark, the topic's activity. */
async function post(tx: Tx, courseId: number, topic: repo.RecordRow | null, fields: Post) {
  const at = new Date(fields.at);
  const title = topic ? '' : (fields.title ?? '');
  const row = await repo.insertRecord(tx, {
    courseId,
    parentId: topic?.id ?? null,
    authorId: fields.author.id,
    title,
    content: fields.content,
    isAnnouncement: fields.isAnnouncement ?? false,
    pinned: fields.pinned ?? false,
    scheduledAt: fields.scheduledAt ?? null,
    publishedAt: fields.scheduledAt ? null : at,
    createdAt: at,
    updatedAt: at,
    updatedBy: fields.author.id,
    lastActivityAt: at,
    searchVector: forumSearchVector(title, fields.content),
  });
  if (topic) await repo.bumpCommentCount(tx, topic.id, 1, at);
  else if (row.publishedAt) {
    await repo.bumpStats(tx, courseId, { topics: 1, announcements: row.isAnnouncement ? 1 : 0 });
  }
  await repo.markRead(tx, { userId: fields.author.id, recordId: topic?.id ?? row.id, courseId });
  return row;
}

export async function seedDemoForum(tx: Tx, world: DemoWorld): Promise<void> {
  const now = Date.now();
  const courseId = world.course.id;
  const { editor, staff } = world;
  const [taro, james, hina] = world.students;
  if (!taro || !james || !hina) throw new Error('the demo forum needs three demo students');
  const topic = (fields: Post) => post(tx, courseId, null, fields);
  const comment = (on: repo.RecordRow, fields: Post) => post(tx, courseId, on, fields);
  const upvote = async (record: repo.RecordRow, voters: UserRow[]) => {
    for (const voter of voters) await repo.addUpvote(tx, record.id, voter.id);
  };

  const welcome = await topic({
    author: editor,
    title: DEMO_FORUM_TITLES.welcome,
    content: WELCOME,
    at: now - 14 * DAY,
    isAnnouncement: true,
    pinned: true,
  });
  await upvote(welcome, [taro, hina]);
  await topic({
    author: editor,
    title: DEMO_FORUM_TITLES.assignment,
    content:
      'Assignment 1 (values and types) is open; the deadline is next Friday at 23:59. ' +
      'Submit `main.py`; the tests run as soon as you submit.\n\n' +
      '課題1（値と型）を公開しました。締め切りは来週金曜日の 23:59 です。',
    at: now - 7 * DAY,
    isAnnouncement: true,
  });
  await topic({
    author: editor,
    title: DEMO_FORUM_TITLES.scheduled,
    content:
      'The midterm exam is in Lecture Hall A. Closed book; bring your student ID.\n\n' +
      '中間試験は A 講義室で行います。持ち込み不可です。学生証を持参してください。',
    at: now - 2 * HOUR,
    isAnnouncement: true,
    scheduledAt: new Date(now + 3 * DAY),
  });

  const comprehension = await topic({
    author: taro,
    title: DEMO_FORUM_TITLES.comprehension,
    content:
      'リスト内包表記で偶数だけを二乗したいのですが、空のリストが返ってきます。\n\n' +
      '```python\nsquares = [x * x for x in range(10) if x % 2 == 1 == 0]\nprint(squares)  # []\n```\n\n' +
      'どこが間違っていますか？',
    at: now - 5 * DAY,
  });
  await comment(comprehension, {
    author: hina,
    content: '`x % 2 == 1 == 0` は比較の連鎖になっているので、`x % 2 == 0` だけで大丈夫だと思います。',
    at: now - 5 * DAY + 2 * HOUR,
  });
  const answer = await comment(comprehension, {
    author: editor,
    content:
      'その通りです。`a == b == c` は `a == b and b == c` と同じ意味になります。\n\n' +
      '```python\nsquares = [x * x for x in range(10) if x % 2 == 0]\n```',
    at: now - 4 * DAY,
  });
  await upvote(comprehension, [hina, james]);
  await upvote(answer, [taro, hina]);

  const sorting = await topic({
    author: james,
    title: DEMO_FORUM_TITLES.sorting,
    content:
      'I have a dictionary of scores and want the names from the highest score to the lowest. ' +
      '`sorted(scores)` only gives me the names in alphabetical order.',
    at: now - 3 * DAY,
  });
  await comment(sorting, {
    author: taro,
    content: 'Use a key function:\n\n```python\nsorted(scores, key=scores.get, reverse=True)\n```',
    at: now - 3 * DAY + 3 * HOUR,
  });
  await comment(sorting, {
    author: james,
    content: 'That works, thank you!',
    at: now - 2 * DAY,
  });
  await upvote(sorting, [taro, editor]);

  const recursion = await topic({
    author: hina,
    title: DEMO_FORUM_TITLES.recursion,
    content:
      '再帰関数で `RecursionError: maximum recursion depth exceeded` が出ます。' +
      'How do you find where the base case is missing?',
    at: now - 1 * DAY,
  });
  await comment(recursion, {
    author: james,
    content: 'Print the argument at the start of the function; you will see it never reaches the base case.',
    at: now - 20 * HOUR,
  });
  await upvote(recursion, [james]);

  const grader = await topic({
    author: taro,
    title: DEMO_FORUM_TITLES.grader,
    content: 'Is it the same Python as on the lab computers? 研究室のパソコンと同じバージョンですか？',
    at: now - 6 * HOUR,
  });
  await comment(grader, {
    author: staff,
    content: 'The grader runs Python 3.11, the same as the lab computers. 採点は Python 3.11 で行います。',
    at: now - 5 * HOUR,
  });
}
