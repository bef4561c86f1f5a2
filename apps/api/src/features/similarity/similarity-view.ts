import {
  MAX_SIMILARITY_CLUSTERS,
  MAX_SIMILARITY_CLUSTER_SIZE,
  type SimilarityCluster,
  type SimilarityFragment,
  type SimilarityPair,
  type SimilaritySide,
  type StoredSimilarityPair,
  type StoredSimilarityResult,
  type UserSummary,
} from '@kadai/contracts';
import type { CsvCell } from '../submissions/csv-format.ts';

/* How a stored similarity result is read (docs/similarity.md): pure functions, no database. */

export const SIMILARITY_CSV_HEADER = [
  'similarity',
  'longest_fragment_tokens',
  'longest_fragment_lines',
  'overlap_tokens',
  'left_user_id',
  'left_email',
  'left_last_name',
  'left_first_name',
  'left_course_id',
  'left_submission_id',
  'right_user_id',
  'right_email',
  'right_last_name',
  'right_first_name',
  'right_course_id',
  'right_submission_id',
] as const;

/** A person whose account is gone since the report: still a row, never a crash. */
const unknownUser = (id: number): UserSummary => ({ id, email: '', first_name: '', last_name: '' });

export function sideOf(
  result: StoredSimilarityResult,
  index: number,
  people: ReadonlyMap<number, UserSummary>,
): SimilaritySide {
  const submission = result.submissions[index];
  const userId = submission?.user_id ?? 0;
  return {
    user: people.get(userId) ?? unknownUser(userId),
    submission_id: submission?.submission_id ?? 0,
    course_id: submission?.course_id ?? 0,
  };
}

export function toPair(
  result: StoredSimilarityResult,
  pair: StoredSimilarityPair,
  people: ReadonlyMap<number, UserSummary>,
): SimilarityPair {
  return {
    left: sideOf(result, pair.a, people),
    right: sideOf(result, pair.b, people),
    similarity: pair.similarity,
    longest_fragment: { tokens: pair.longest_tokens, lines: pair.longest_lines },
    overlap: { tokens: pair.overlap_tokens },
    fragments: pair.fragments,
  };
}

/** The fragments seen from the other side: a pair view asked for right-to-left. */
export const swapFragments = (fragments: SimilarityFragment[]): SimilarityFragment[] =>
  fragments.map((f) => ({ left: f.right, right: f.left, tokens: f.tokens }));

/**
 * People joined by pairs at or above the threshold (connected components of at least two people),
 * largest first, then by their most similar pair.
 */
export function clustersOf(
  result: StoredSimilarityResult,
  pairs: StoredSimilarityPair[],
): SimilarityCluster[] {
  const parent = new Map<number, number>();
  const root = (user: number): number => {
    let r = user;
    while ((parent.get(r) ?? r) !== r) r = parent.get(r) ?? r;
    parent.set(user, r);
    return r;
  };
  const userOf = (index: number) => result.submissions[index]?.user_id ?? 0;
  for (const pair of pairs) {
    const a = root(userOf(pair.a));
    const b = root(userOf(pair.b));
    if (a !== b) parent.set(Math.max(a, b), Math.min(a, b));
  }
  const groups = new Map<number, { users: Set<number>; max: number }>();
  for (const pair of pairs) {
    const key = root(userOf(pair.a));
    const group = groups.get(key) ?? { users: new Set<number>(), max: 0 };
    group.users.add(userOf(pair.a)).add(userOf(pair.b));
    group.max = Math.max(group.max, pair.similarity);
    groups.set(key, group);
  }
  return [...groups.values()]
    .filter((g) => g.users.size > 1)
    .sort((x, y) => y.users.size - x.users.size || y.max - x.max)
    .slice(0, MAX_SIMILARITY_CLUSTERS)
    .map((g) => ({
      user_ids: [...g.users].sort((x, y) => x - y).slice(0, MAX_SIMILARITY_CLUSTER_SIZE),
      size: g.users.size,
      max_similarity: g.max,
    }));
}

export function csvRowOf(pair: SimilarityPair): CsvCell[] {
  const side = (s: SimilaritySide) => [
    s.user.id,
    s.user.email,
    s.user.last_name,
    s.user.first_name,
    s.course_id,
    s.submission_id,
  ];
  return [
    pair.similarity.toFixed(4),
    pair.longest_fragment.tokens,
    pair.longest_fragment.lines,
    pair.overlap.tokens,
    ...side(pair.left),
    ...side(pair.right),
  ];
}
