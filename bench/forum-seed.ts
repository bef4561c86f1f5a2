// Fills one course's forum for `npm run bench:forum`, directly in SQL (the API would take an hour to
// post 100,000 records one by one): topics and comments in batches of JSON rows expanded by
// json_to_recordset, with explicit ids so comments can name their topics without a round trip; search
// vectors computed here by the API's own tokenizer; then the derived columns (comment counts, latest
// activity, upvote counts), read state and forum_course_stats from the rows, and ANALYZE. The result
// is what the API itself would have written (docs/forum.md), only faster.
import { forumSearchVector } from '../apps/api/src/features/forum/search.ts';
import { announcementText, commentText, makeRandom, topicText, type Random } from './forum-text.ts';

export type Query = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

export interface ForumSeedOptions {
  courseId: number;
  editorId: number;
  /** The student whose lists are measured: reads `readShare` of the topics, writes nothing. */
  viewerId: number;
  /** Other members who write the posts and upvote. */
  authorIds: number[];
  topics: number;
  comments: number;
  /** Every `announcementEvery`-th topic is an announcement by the editor. */
  announcementEvery?: number;
  readShare?: number;
}

export interface ForumSeedResult {
  records: number;
  topics: number;
  publishedTopics: number;
  announcements: number;
  scheduled: number;
  pinned: number;
  comments: number;
  upvotes: number;
  viewerReads: number;
  seconds: number;
}

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
const BATCH = 2000;
/** Scheduled announcements waiting to be published: not in the lists, not in the counters. */
const SCHEDULED = 5;

interface RecordJson {
  id: number;
  parent_id: number | null;
  author_id: number;
  title: string;
  content: string;
  is_announcement: boolean;
  pinned: boolean;
  scheduled_at: string | null;
  published_at: string | null;
  created_at: string;
  search_vector: string;
}

const INSERT_RECORDS = `
  INSERT INTO forum_records (id, course_id, parent_id, author_id, title, content, is_announcement, pinned,
    scheduled_at, published_at, created_at, updated_at, updated_by, last_activity_at, search_vector)
  OVERRIDING SYSTEM VALUE
  SELECT x.id, $2::int, x.parent_id, x.author_id, x.title, x.content, x.is_announcement, x.pinned,
    x.scheduled_at, x.published_at, x.created_at, x.created_at, x.author_id,
    coalesce(x.published_at, x.created_at), x.search_vector::tsvector
  FROM json_to_recordset($1::json) AS x(id int, parent_id int, author_id int, title text, content text,
    is_announcement boolean, pinned boolean, scheduled_at timestamptz, published_at timestamptz,
    created_at timestamptz, search_vector text)`;

const INSERT_UPVOTES = `
  INSERT INTO forum_upvotes (record_id, user_id, created_at)
  SELECT x.record_id, x.user_id, x.created_at
  FROM json_to_recordset($1::json) AS x(record_id int, user_id int, created_at timestamptz)`;

async function insertInBatches<T>(query: Query, text: string, rows: T[], extra: unknown[] = []) {
  for (let from = 0; from < rows.length; from += BATCH) {
    await query(text, [JSON.stringify(rows.slice(from, from + BATCH)), ...extra]);
  }
}

function pickOther(random: Random, ids: number[]): number {
  return ids[Math.floor(random() * ids.length)]!;
}

export async function seedForum(query: Query, options: ForumSeedOptions): Promise<ForumSeedResult> {
  const started = performance.now();
  const random = makeRandom(20261124);
  const { courseId, editorId, viewerId, authorIds } = options;
  const every = options.announcementEvery ?? 40;
  const now = Date.now();
  // One topic every 15 minutes or so, ending now: 50,000 topics span about a year and a half.
  const start = now - options.topics * 15 * MINUTE;

  const topicCreated: number[] = [];
  const topics: RecordJson[] = [];
  // The newest published topic is a pinned announcement; two old announcements and two old
  // discussions are pinned too, so "pinned first" has rows from far down the list to bring up.
  const newest = options.topics - SCHEDULED - 1;
  for (let i = 0; i < options.topics; i += 1) {
    const scheduled = i > newest;
    const isAnnouncement = scheduled || i === newest || i % every === every - 1;
    const pinned = i === every - 1 || i === 2 * every - 1 || i === newest || i === 10 || i === 1000;
    const created = scheduled
      ? now - 3 * MINUTE
      : start + i * 15 * MINUTE + Math.floor(random() * 10 * MINUTE);
    topicCreated.push(created);
    const text = isAnnouncement ? announcementText(random, Math.floor(i / every) + 1) : topicText(random);
    topics.push({
      id: i + 1,
      parent_id: null,
      author_id: isAnnouncement ? editorId : pickOther(random, authorIds),
      title: text.title,
      content: text.content,
      is_announcement: isAnnouncement,
      pinned,
      scheduled_at: scheduled ? new Date(now + (i + 2) * DAY).toISOString() : null,
      published_at: scheduled ? null : new Date(created).toISOString(),
      created_at: new Date(created).toISOString(),
      search_vector: forumSearchVector(text.title, text.content),
    });
  }
  await insertInBatches(query, INSERT_RECORDS, topics, [courseId]);
  const published = options.topics - SCHEDULED;

  const comments: RecordJson[] = [];
  for (let j = 0; j < options.comments; j += 1) {
    // Recent topics draw more comments than old ones: 30 % go to the newest thousand.
    const parent =
      random() < 0.3
        ? published - 1 - Math.floor(random() * Math.min(1000, published))
        : Math.floor(random() * published);
    const created = Math.min(topicCreated[parent]! + Math.floor(random() * 3 * DAY), now - 1000);
    const content = commentText(random);
    comments.push({
      id: options.topics + j + 1,
      parent_id: parent + 1,
      author_id: random() < 0.1 ? editorId : pickOther(random, authorIds),
      title: '',
      content,
      is_announcement: false,
      pinned: false,
      scheduled_at: null,
      published_at: new Date(created).toISOString(),
      created_at: new Date(created).toISOString(),
      search_vector: forumSearchVector('', content),
    });
  }
  await insertInBatches(query, INSERT_RECORDS, comments, [courseId]);
  await query(
    `SELECT setval(pg_get_serial_sequence('forum_records', 'id'), (SELECT max(id) FROM forum_records))`,
  );

  // Upvotes: a fifth of the topics and a tenth of the comments, a few each; the viewer now and then.
  const upvotes = new Map<string, { record_id: number; user_id: number; created_at: string }>();
  const vote = (recordId: number, userId: number, after: number) =>
    upvotes.set(`${recordId}.${userId}`, {
      record_id: recordId,
      user_id: userId,
      created_at: new Date(Math.min(after + MINUTE, now)).toISOString(),
    });
  for (let i = 0; i < published; i += 1) {
    if (random() < 0.2) {
      const n = 1 + Math.floor(random() * 5);
      for (let k = 0; k < n; k += 1) vote(i + 1, pickOther(random, authorIds), topicCreated[i]!);
    }
    if (random() < 0.01) vote(i + 1, viewerId, topicCreated[i]!);
  }
  for (const c of comments) {
    if (random() < 0.1) vote(c.id, pickOther(random, authorIds), Date.parse(c.created_at));
  }
  await insertInBatches(query, INSERT_UPVOTES, [...upvotes.values()]);

  // What the API keeps as it goes, derived once from the rows.
  await query(
    `UPDATE forum_records t SET comment_count = c.n, last_activity_at = greatest(t.last_activity_at, c.latest)
     FROM (SELECT parent_id, count(*)::int AS n, max(created_at) AS latest
           FROM forum_records WHERE parent_id IS NOT NULL GROUP BY parent_id) c
     WHERE t.id = c.parent_id`,
  );
  await query(
    `UPDATE forum_records r SET upvotes = v.n
     FROM (SELECT record_id, count(*)::int AS n FROM forum_upvotes GROUP BY record_id) v
     WHERE r.id = v.record_id`,
  );
  // Writing a topic or in it marks it read for the writer; the viewer has read a tenth of the topics.
  await query(
    `INSERT INTO forum_reads (user_id, record_id, course_id, read_at)
     SELECT DISTINCT author_id, coalesce(parent_id, id), course_id, now() FROM forum_records
     WHERE course_id = $1
     ON CONFLICT DO NOTHING`,
    [courseId],
  );
  const readShare = options.readShare ?? 0.1;
  const viewerReads = topics.filter((t) => t.published_at !== null && random() < readShare).map((t) => t.id);
  await query(
    `INSERT INTO forum_reads (user_id, record_id, course_id)
     SELECT $1::int, id, $2::int FROM unnest($3::int[]) AS id`,
    [viewerId, courseId, viewerReads],
  );
  await query(
    `INSERT INTO forum_course_stats (course_id, topics, announcements)
     SELECT $1::int, count(*)::int, (count(*) FILTER (WHERE is_announcement))::int FROM forum_records
     WHERE course_id = $1 AND parent_id IS NULL AND published_at IS NOT NULL
     ON CONFLICT (course_id) DO UPDATE SET topics = excluded.topics, announcements = excluded.announcements`,
    [courseId],
  );
  await query('VACUUM ANALYZE forum_records');
  await query('VACUUM ANALYZE forum_reads');
  await query('VACUUM ANALYZE forum_upvotes');

  const [stats] = (
    await query(
      `SELECT (SELECT count(*)::int FROM forum_records WHERE course_id = $1) AS records,
              (SELECT count(*)::int FROM forum_records WHERE course_id = $1 AND parent_id IS NOT NULL) AS comments,
              (SELECT count(*)::int FROM forum_records WHERE course_id = $1 AND pinned) AS pinned,
              (SELECT count(*)::int FROM forum_upvotes) AS upvotes,
              s.topics, s.announcements
       FROM forum_course_stats s WHERE s.course_id = $1`,
      [courseId],
    )
  ).rows;
  const num = (key: string) => Number(stats?.[key] ?? 0);
  return {
    records: num('records'),
    topics: options.topics,
    publishedTopics: num('topics'),
    announcements: num('announcements'),
    scheduled: SCHEDULED,
    pinned: num('pinned'),
    comments: num('comments'),
    upvotes: num('upvotes'),
    viewerReads: viewerReads.length,
    seconds: (performance.now() - started) / 1000,
  };
}
