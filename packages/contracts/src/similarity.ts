import { z } from 'zod';
import { Id } from './common.ts';
import { UserSummary } from './users.ts';

/**
 * The similarity report of an assignment (issue 39, docs/similarity.md): Dodona's Dolos algorithm over
 * each student's counted submission, for the course's editors and staff only. Students never see a part of
 * it: no route answers them, and no student-shaped response carries it.
 */
export const SIMILARITY_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export const SimilarityStatus = z.enum(SIMILARITY_STATUSES);
export type SimilarityStatus = z.infer<typeof SimilarityStatus>;

/** Pairs a report keeps (the most similar ones) and a read answers at most. */
export const MAX_SIMILARITY_PAIRS = 2000;
/** Matched fragments kept per pair (the longest ones). */
export const MAX_SIMILARITY_FRAGMENTS = 50;
/** Submissions one report compares at most (both courses together). */
export const MAX_SIMILARITY_SUBMISSIONS = 2000;
/** Clusters a read answers at most, and people listed per cluster. */
export const MAX_SIMILARITY_CLUSTERS = 200;
export const MAX_SIMILARITY_CLUSTER_SIZE = 500;
/** Reports the list of an assignment answers: the newest ones. */
export const MAX_SIMILARITY_REPORTS_LISTED = 20;
/** Pairs at or above this similarity are shown and clustered unless the reader asks otherwise. */
export const DEFAULT_SIMILARITY_THRESHOLD = 0.5;

const Count = z.number().int().min(0);

/** Lines 1-based and inclusive, in the submission's text as the pair view shows it. */
export const SimilarityLines = z
  .object({ start_line: z.number().int().min(1), end_line: z.number().int().min(1) })
  .meta({ id: 'SimilarityLines' });
export type SimilarityLines = z.infer<typeof SimilarityLines>;

/** One stretch of code both sides share, in tokens after identifiers and literals are normalised. */
export const SimilarityFragment = z
  .object({ left: SimilarityLines, right: SimilarityLines, tokens: Count })
  .meta({ id: 'SimilarityFragment' });
export type SimilarityFragment = z.infer<typeof SimilarityFragment>;

/**
 * What the background job stores: ids only, so a report never keeps a copy of names or e-mail
 * addresses (they are read when the report is). `a`/`b` index `submissions`.
 */
export const StoredSimilaritySubmission = z.object({
  submission_id: z.number().int(),
  user_id: z.number().int(),
  course_id: z.number().int(),
  tokens: Count,
});
export const StoredSimilarityPair = z.object({
  a: Count,
  b: Count,
  similarity: z.number().min(0).max(1),
  longest_tokens: Count,
  longest_lines: Count,
  overlap_tokens: Count,
  fragments: z.array(SimilarityFragment).max(MAX_SIMILARITY_FRAGMENTS),
});
export type StoredSimilarityPair = z.infer<typeof StoredSimilarityPair>;
export const StoredSimilarityResult = z.object({
  submissions: z.array(StoredSimilaritySubmission).max(MAX_SIMILARITY_SUBMISSIONS),
  /** Most similar first, at most MAX_SIMILARITY_PAIRS, none at 0. */
  pairs: z.array(StoredSimilarityPair).max(MAX_SIMILARITY_PAIRS),
  /** Pairs above 0 before the cap. */
  pair_count: Count,
  kgram_length: z.number().int().min(1),
  kgrams_in_window: z.number().int().min(1),
});
export type StoredSimilarityResult = z.infer<typeof StoredSimilarityResult>;

/** `POST …/similarity/`: optionally compare with another course's submissions of the same assignment. */
export const SimilarityRequest = z
  .strictObject({
    /** Another course the caller also edits (last year's run, say); its students join the comparison. */
    include_course_id: z.number().int().min(1).max(2_147_483_647).nullable().default(null),
  })
  .meta({ id: 'SimilarityRequest' });
export type SimilarityRequest = z.input<typeof SimilarityRequest>;

export const SimilarityParams = z.object({ id: Id, assignment_id: Id });
export const SimilarityReportParams = z.object({ report_id: Id });
export const SimilarityPairParams = z.object({ report_id: Id, left: Id, right: Id });

export const SimilarityReportQuery = z.object({
  /** Pairs below it are left out, and clusters join people only through pairs at or above it. */
  threshold: z.coerce.number().min(0).max(1).default(DEFAULT_SIMILARITY_THRESHOLD),
  limit: z.coerce.number().int().min(1).max(MAX_SIMILARITY_PAIRS).default(500),
});
export type SimilarityReportQuery = z.input<typeof SimilarityReportQuery>;

/** The CSV has every kept pair at or above the threshold (all of them by default). */
export const SimilarityCsvQuery = z.object({
  threshold: z.coerce.number().min(0).max(1).default(0),
});

export const SimilarityReportSummary = z
  .object({
    id: z.number().int(),
    assignment_id: z.number().int(),
    course_id: z.number().int(),
    include_course_id: z.number().int().nullable(),
    status: SimilarityStatus,
    /** Why it failed; null otherwise. */
    error: z.string().nullable(),
    created_at: z.iso.datetime(),
    finished_at: z.iso.datetime().nullable(),
    /** Submissions compared (0 until done). */
    submission_count: Count,
    /** Pairs with a similarity above 0 (0 until done). */
    pair_count: Count,
  })
  .meta({ id: 'SimilarityReportSummary' });
export type SimilarityReportSummary = z.infer<typeof SimilarityReportSummary>;

export const SimilarityReportList = z
  .object({ results: z.array(SimilarityReportSummary).max(MAX_SIMILARITY_REPORTS_LISTED) })
  .meta({ id: 'SimilarityReportList' });
export type SimilarityReportList = z.infer<typeof SimilarityReportList>;

/** One side of a pair: whose counted submission it is. */
export const SimilaritySide = z
  .object({ user: UserSummary, submission_id: z.number().int(), course_id: z.number().int() })
  .meta({ id: 'SimilaritySide' });
export type SimilaritySide = z.infer<typeof SimilaritySide>;

export const SimilarityPair = z
  .object({
    left: SimilaritySide,
    right: SimilaritySide,
    /** Share of both submissions' fingerprints (boilerplate left out) found in the other one, 0..1. */
    similarity: z.number().min(0).max(1),
    /** The longest shared stretch. */
    longest_fragment: z.object({ tokens: Count, lines: Count }),
    /** Shared fingerprints of both sides together. */
    overlap: z.object({ tokens: Count }),
    fragments: z.array(SimilarityFragment).max(MAX_SIMILARITY_FRAGMENTS),
  })
  .meta({ id: 'SimilarityPair' });
export type SimilarityPair = z.infer<typeof SimilarityPair>;

/** People joined by pairs at or above the threshold (connected components), largest first. */
export const SimilarityCluster = z
  .object({
    user_ids: z.array(z.number().int()).max(MAX_SIMILARITY_CLUSTER_SIZE),
    size: Count,
    max_similarity: z.number().min(0).max(1),
  })
  .meta({ id: 'SimilarityCluster' });
export type SimilarityCluster = z.infer<typeof SimilarityCluster>;

export const SimilarityReport = SimilarityReportSummary.extend({
  threshold: z.number().min(0).max(1),
  /** Pairs at or above the threshold; at most `limit` of them are in `pairs`. */
  pairs_at_threshold: Count,
  pairs: z.array(SimilarityPair).max(MAX_SIMILARITY_PAIRS),
  clusters: z.array(SimilarityCluster).max(MAX_SIMILARITY_CLUSTERS),
}).meta({ id: 'SimilarityReport' });
export type SimilarityReport = z.infer<typeof SimilarityReport>;

/** One side of the pair view: the text compared (several files joined under header comments). */
export const SimilarityPairSide = SimilaritySide.extend({ content: z.string() }).meta({
  id: 'SimilarityPairSide',
});
export type SimilarityPairSide = z.infer<typeof SimilarityPairSide>;

export const SimilarityPairView = z
  .object({
    report_id: z.number().int(),
    similarity: z.number().min(0).max(1),
    longest_fragment: z.object({ tokens: Count, lines: Count }),
    overlap: z.object({ tokens: Count }),
    left: SimilarityPairSide,
    right: SimilarityPairSide,
    fragments: z.array(SimilarityFragment).max(MAX_SIMILARITY_FRAGMENTS),
  })
  .meta({ id: 'SimilarityPairView' });
export type SimilarityPairView = z.infer<typeof SimilarityPairView>;
