import { z } from 'zod';
import { markdown, optionalText, text } from './text.ts';
import { UserSummary } from './users.ts';

/*
 * The teacher's review (issue 39, docs/review.md): a rubric per assignment, an editor's grading of a
 * submission (ticked items, an adjustment, a comment), comments on lines of code in threads, a course's
 * saved comments, release to students, and regrade requests. Students see a review only once released,
 * through `StudentFeedback`, never through the editors' shapes.
 */

const Id = z.number().int().min(1).max(2_147_483_647);
/** Points of a rubric item or an adjustment: hundredths at most, within ±1,000. */
const Points = z
  .number()
  .min(-1000)
  .max(1000)
  .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'At most two decimal places.');
const Weight = z.number().min(0).max(10);

export const MAX_RUBRIC_ITEMS = 100;
export const MAX_COMMENT_LENGTH = 10_000;
export const MAX_SAVED_COMMENTS = 500;
/** Comments (threads and replies) one submission may carry. */
export const MAX_COMMENTS_PER_SUBMISSION = 1000;

export const ReviewStatus = z.enum(['none', 'draft', 'graded']);
export type ReviewStatus = z.infer<typeof ReviewStatus>;

/* ─── Rubric ────────────────────────────────────────────────────────────────────────────────── */

export const ReviewSettings = z
  .object({
    /** The autograder's score is multiplied by this (0–10; 1 by default). */
    autograde_weight: Weight,
    /** The rubric's points (ticked items + adjustment) are multiplied by this (0–10; 1 by default). */
    rubric_weight: Weight,
    /** Points the rubric may add beyond the autograder's maximum (0: it only adds within it, or deducts). */
    rubric_max: z.number().min(0).max(1000),
  })
  .meta({ id: 'ReviewSettings' });
export type ReviewSettings = z.infer<typeof ReviewSettings>;

export const RubricItem = z
  .object({
    id: z.number().int(),
    group: z.string(),
    title: z.string(),
    description: z.string(),
    points: z.number(),
    position: z.number().int(),
    /** Reviews (of every course) that tick it: a change of points recomputes them. */
    uses: z.number().int(),
  })
  .meta({ id: 'RubricItem' });
export type RubricItem = z.infer<typeof RubricItem>;

export const Rubric = z
  .object({
    assignment_id: z.number().int(),
    settings: ReviewSettings,
    items: z.array(RubricItem),
    /** The autograder's maximum: the points of the assignment's test cases (drafts left out). */
    autograde_max: z.number(),
    /** The maximum of the counted score: autograde_weight × the autograder's maximum + rubric_weight × rubric_max. */
    max_score: z.number(),
    /** How many reviews the save recomputed (0 on a read). */
    recomputed: z.number().int(),
  })
  .meta({ id: 'Rubric' });
export type Rubric = z.infer<typeof Rubric>;

/** The whole rubric as it should be: items with an id are changed, without one added, missing ones removed. */
export const RubricSave = z.strictObject({
  settings: z.strictObject({
    autograde_weight: Weight,
    rubric_weight: Weight,
    rubric_max: z.number().min(0).max(1000),
  }),
  items: z
    .array(
      z.strictObject({
        id: Id.optional(),
        group: optionalText(100).default(''),
        title: text(200),
        description: markdown(2000).default(''),
        points: Points,
      }),
    )
    .max(MAX_RUBRIC_ITEMS),
});
export type RubricSave = z.input<typeof RubricSave>;

const PathId = z.coerce.number().int().min(1).max(2_147_483_647);
export const AssignmentInCourseParams = z.object({ id: PathId, assignment_id: PathId });

/* ─── A review as editors see it ────────────────────────────────────────────────────────────── */

export const ReviewComment = z
  .object({
    id: z.number().int(),
    /** Null for the first comment of a thread; else that comment's id. */
    parent_id: z.number().int().nullable(),
    author: UserSummary.nullable(),
    /** Whether the author is the submission's student (a reply), not an editor. */
    by_student: z.boolean(),
    filename: z.string(),
    line_start: z.number().int(),
    line_end: z.number().int(),
    /** Markdown, rendered sanitised as forum posts are. */
    body: z.string(),
    rubric_item_id: z.number().int().nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'ReviewComment' });
export type ReviewComment = z.infer<typeof ReviewComment>;

export const RegradeRequest = z
  .object({
    id: z.number().int(),
    submission_id: z.number().int(),
    assignment_id: z.number().int(),
    assignment_title: z.string(),
    course_id: z.number().int(),
    user: UserSummary,
    /** The rubric item asked about, or the comment thread (exactly one is set). */
    rubric_item_id: z.number().int().nullable(),
    rubric_item_title: z.string().nullable(),
    comment_id: z.number().int().nullable(),
    reason: z.string(),
    status: z.enum(['open', 'answered']),
    answer: z.string(),
    answered_by: UserSummary.nullable(),
    answered_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'RegradeRequest' });
export type RegradeRequest = z.infer<typeof RegradeRequest>;

/** The score parts of a review: what the autograder gave and what the counted score becomes. */
export const ReviewScore = z
  .object({
    /** The autograder's score of this submission (null when it has none). */
    autograde_score: z.number().nullable(),
    autograde_max: z.number().nullable(),
    /** The ticked items' points. */
    rubric_points: z.number(),
    adjustment: z.number(),
    /** The counted score with this review (weights and caps applied). */
    total: z.number(),
    max_score: z.number(),
  })
  .meta({ id: 'ReviewScore' });
export type ReviewScore = z.infer<typeof ReviewScore>;

export const Review = z
  .object({
    submission_id: z.number().int(),
    assignment_id: z.number().int(),
    course_id: z.number().int(),
    user: UserSummary,
    status: ReviewStatus,
    /** Send it back with a save; 0 while no review exists. */
    version: z.number().int(),
    selected_item_ids: z.array(z.number().int()),
    adjustment_reason: z.string(),
    comment: z.string(),
    score: ReviewScore,
    grader: UserSummary.nullable(),
    graded_at: z.iso.datetime().nullable(),
    released_at: z.iso.datetime().nullable(),
    rubric: Rubric,
    comments: z.array(ReviewComment),
    regrade_requests: z.array(RegradeRequest),
  })
  .meta({ id: 'Review' });
export type Review = z.infer<typeof Review>;

/** A save of the grading: `version` must be the one read (0 for the first save), else 409 `review_conflict`. */
export const ReviewSave = z.strictObject({
  version: z.number().int().min(0).max(2_147_483_647),
  status: z.enum(['draft', 'graded']),
  selected_item_ids: z.array(Id).max(MAX_RUBRIC_ITEMS),
  adjustment: Points.default(0),
  adjustment_reason: optionalText(500).default(''),
  comment: markdown(MAX_COMMENT_LENGTH).default(''),
});
export type ReviewSave = z.input<typeof ReviewSave>;

/* ─── The grading queue ─────────────────────────────────────────────────────────────────────── */

export const ReviewQueueRow = z
  .object({
    user: UserSummary,
    /** The counted submission (final, else best graded, else latest); null: nothing handed in. */
    submission_id: z.number().int().nullable(),
    submitted_at: z.iso.datetime().nullable(),
    autograde_score: z.number().nullable(),
    status: ReviewStatus,
    grader: UserSummary.nullable(),
    total: z.number().nullable(),
    released_at: z.iso.datetime().nullable(),
    open_regrade_requests: z.number().int(),
  })
  .meta({ id: 'ReviewQueueRow' });
export type ReviewQueueRow = z.infer<typeof ReviewQueueRow>;

export const ReviewQueue = z
  .object({
    assignment_id: z.number().int(),
    assignment_title: z.string(),
    course_id: z.number().int(),
    progress: z.object({
      students: z.number().int(),
      submitted: z.number().int(),
      graded: z.number().int(),
      released: z.number().int(),
      /** Graded or drafted but not released yet. */
      unreleased: z.number().int(),
    }),
    graders: z.array(UserSummary),
    rows: z.array(ReviewQueueRow),
  })
  .meta({ id: 'ReviewQueue' });
export type ReviewQueue = z.infer<typeof ReviewQueue>;

export const ReviewQueueQuery = z.object({
  grader_id: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  status: ReviewStatus.optional(),
});

export const ReleaseRequest = z.strictObject({
  /** `graded`: reviews marked graded; `all`: drafts too (they become graded). */
  scope: z.enum(['graded', 'all']),
});
export const ReleaseResult = z
  .object({ released: z.number().int(), retracted: z.number().int() })
  .meta({ id: 'ReleaseResult' });
export type ReleaseResult = z.infer<typeof ReleaseResult>;

/* ─── Comments ──────────────────────────────────────────────────────────────────────────────── */

export const CommentCreate = z.strictObject({
  filename: text(255),
  /** 1-based, inclusive, within the file's lines. */
  line_start: z.number().int().min(1).max(1_000_000),
  line_end: z.number().int().min(1).max(1_000_000),
  body: markdown(MAX_COMMENT_LENGTH).trim().min(1),
  rubric_item_id: Id.nullable().default(null),
  /** The saved comment inserted, counted as one more use. */
  saved_comment_id: Id.nullable().default(null),
});
export type CommentCreate = z.input<typeof CommentCreate>;

export const CommentReply = z.strictObject({ body: markdown(MAX_COMMENT_LENGTH).trim().min(1) });
export const CommentEdit = CommentReply;

export const SavedComment = z
  .object({
    id: z.number().int(),
    course_id: z.number().int(),
    title: z.string(),
    body: z.string(),
    rubric_item_id: z.number().int().nullable(),
    uses: z.number().int(),
    created_by: UserSummary.nullable(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'SavedComment' });
export type SavedComment = z.infer<typeof SavedComment>;

export const SavedCommentList = z
  .object({ count: z.number().int(), results: z.array(SavedComment) })
  .meta({ id: 'SavedCommentList' });
export type SavedCommentList = z.infer<typeof SavedCommentList>;

export const SavedCommentSave = z.strictObject({
  title: text(100),
  body: markdown(MAX_COMMENT_LENGTH).trim().min(1),
  rubric_item_id: Id.nullable().default(null),
});
export type SavedCommentSave = z.input<typeof SavedCommentSave>;

/* ─── Regrade requests ──────────────────────────────────────────────────────────────────────── */

export const RegradeAsk = z
  .strictObject({
    rubric_item_id: Id.nullable().default(null),
    comment_id: Id.nullable().default(null),
    reason: text(2000),
  })
  .refine((r) => (r.rubric_item_id === null) !== (r.comment_id === null), {
    message: 'Name either a rubric item or a comment.',
    path: ['rubric_item_id'],
  });
export type RegradeAsk = z.input<typeof RegradeAsk>;

export const RegradeAnswer = z.strictObject({ answer: text(2000) });

export const RegradeList = z
  .object({ count: z.number().int(), results: z.array(RegradeRequest) })
  .meta({ id: 'RegradeList' });
export type RegradeList = z.infer<typeof RegradeList>;

export const RegradeListQuery = z.object({
  status: z.enum(['open', 'answered']).optional(),
  assignment_id: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
});

/* ─── What the student sees ─────────────────────────────────────────────────────────────────── */

export const StudentFeedback = z
  .object({
    submission_id: z.number().int(),
    /** False until an editor releases the review; everything else is then empty. */
    released: z.boolean(),
    released_at: z.iso.datetime().nullable(),
    score: ReviewScore.nullable(),
    /** How the parts weigh (null before release). */
    settings: ReviewSettings.nullable(),
    /** The ticked rubric items, and the others of the rubric (so a student sees what was possible). */
    rubric: z.array(RubricItem.omit({ uses: true }).extend({ selected: z.boolean() })),
    adjustment_reason: z.string(),
    comment: z.string(),
    grader: UserSummary.nullable(),
    comments: z.array(ReviewComment),
    regrade_requests: z.array(RegradeRequest),
  })
  .meta({ id: 'StudentFeedback' });
export type StudentFeedback = z.infer<typeof StudentFeedback>;

/* ─── Audit ─────────────────────────────────────────────────────────────────────────────────── */

export const ReviewAuditEntry = z
  .object({
    id: z.number().int(),
    submission_id: z.number().int().nullable(),
    action: z.string(),
    detail: z.record(z.string(), z.unknown()),
    actor_email: z.string(),
    at: z.iso.datetime(),
  })
  .meta({ id: 'ReviewAuditEntry' });
export type ReviewAuditEntry = z.infer<typeof ReviewAuditEntry>;

export const ReviewAuditList = z
  .object({ count: z.number().int(), results: z.array(ReviewAuditEntry) })
  .meta({ id: 'ReviewAuditList' });
export type ReviewAuditList = z.infer<typeof ReviewAuditList>;
