import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { literalLimit, prepareSelect, statementCache } from '../../db/prepared.ts';
import { users } from '../../db/schema.ts';
import { forumRecords } from '../../db/schema-forum.ts';
import { forumContextColumns } from './counts.repo.ts';
import {
  newestTopics,
  shapeName,
  shapeOf,
  toTopicPage,
  topicParams,
  type TopicFilter,
  type TopicPage,
  type TopicShape,
} from './lists.repo.ts';
import { recordDetailColumns } from './record-details.repo.ts';

/*
 * The search probe (docs/forum.md, "Search"): a search's first pages from a walk over the newest
 * topics in list order, without the search index, in one statement with the page's details and the
 * caller's forum context.
 */

const r = forumRecords;

/**
 * The number of newest topics the probe walks: a word in one topic of twenty still finds its hundred
 * and first match within them.
 */
const PROBE_WINDOW = 2000;

interface ProbeKey {
  shape: TopicShape;
  /** Matches to look for (written into the statement). */
  matches: number;
  /** Rows of the page (written into the statement). */
  rows: number;
}

/**
 * Walks the newest PROBE_WINDOW topics in list order and stops at the `matches`-th match; numbers the
 * matches in that order (row_number over the walk's own order) and counts them; keeps the page's
 * numbers (after `offset`); and reads only those rows in detail.
 */
const probeStatement = statementCache(
  (key: ProbeKey) => `forum_probe_${shapeName(key.shape)}_${key.matches}_${key.rows}`,
  (db, key: ProbeKey, name) => {
    const windowed = newestTopics(db, key.shape, PROBE_WINDOW);
    const matches = db
      .select({ id: windowed.id, pinned: windowed.pinned, createdMicros: windowed.createdMicros })
      .from(windowed)
      .where(sql`${windowed.searchVector} @@ ${sql.placeholder('search')}::tsquery`)
      .limit(literalLimit(key.matches))
      .as('m');
    const numbered = db
      .select({
        id: matches.id,
        createdMicros: matches.createdMicros,
        n: sql<number>`row_number() over ()`.as('n'),
        found: sql<number>`(count(*) over ())::int`.as('found'),
      })
      .from(matches)
      .as('k');
    return prepareSelect(
      db,
      db
        .select({
          ...recordDetailColumns,
          pageMicros: numbered.createdMicros,
          found: numbered.found,
          ...forumContextColumns,
        })
        .from(numbered)
        .innerJoin(r, eq(r.id, numbered.id))
        .innerJoin(users, eq(users.id, r.authorId))
        .where(
          sql`${numbered.n} > ${sql.placeholder('offset')}::int and ${numbered.n} <= ${sql.placeholder('offset')}::int + ${literalLimit(key.rows)}`,
        )
        .orderBy(numbered.n),
      name,
    );
  },
);

/**
 * A search page from the probe: the first `matches` matches among the newest PROBE_WINDOW topics, in
 * list order, and the `limit` after `offset` of them (one more, as listTopicPage, when another follows)
 * in detail, with the caller's forum context.
 * When all `matches` are found (`found`), they are the first matches of the whole course — every topic
 * outside the window comes after them in list order — so they answer a capped count and every page
 * within them without the search index. Fewer (or a page past them: found 0): the caller must ask the
 * index, and the page is not theirs to use.
 */
export async function probeSearchPage(
  db: Executor,
  filter: TopicFilter,
  page: { matches: number; offset: number; limit: number },
): Promise<TopicPage & { found: number }> {
  if (filter.search === undefined) throw new Error('probeSearchPage needs a search');
  const statement = probeStatement(db, {
    shape: shapeOf(filter),
    matches: page.matches,
    rows: page.limit + 1,
  });
  const rows = await statement.execute({ ...topicParams(filter), offset: page.offset });
  const found = rows[0]?.found ?? 0;
  return { ...toTopicPage(rows), found };
}
