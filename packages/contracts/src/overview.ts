import { z } from 'zod';
import { SubmissionStatus } from './assignments.ts';
import { EventKind } from './events.ts';
import { ForumAuthor } from './forum.ts';
import { UserSummary } from './users.ts';

/*
 * The course home (`GET Course/{id}/overview/`, docs/course-home.md): one call for the first page of a
 * course, shaped by the caller's role. Every section is bounded: `results` holds at most
 * OVERVIEW_SECTION_LIMIT items and `count` says how many there are (up to OVERVIEW_COUNT_CAP).
 */

/** Items one section answers at most. */
export const OVERVIEW_SECTION_LIMIT = 10;
/** A section's `count` goes up to this: at the cap it means this many or more. */
export const OVERVIEW_COUNT_CAP = 50;
/** "Soon" for a student: due, closing or happening within this many days. */
export const OVERVIEW_WINDOW_DAYS = 14;
/** "This week" for editors: assignments and quizzes closing within this many days. */
export const OVERVIEW_CLOSING_DAYS = 7;
/** Queued or executing for longer than this, a submission is shown to editors as stuck. */
export const OVERVIEW_STUCK_MINUTES = 10;
/** Editors see student discussions of this many days that no editor or staff member has answered. */
export const OVERVIEW_QUESTION_DAYS = 30;
/** Editors see who has handed nothing in for the assignments that fell due within this many days. */
export const OVERVIEW_MISSING_DAYS = 7;
/** Names of students with nothing submitted, per assignment, at most. */
export const OVERVIEW_MISSING_NAMES = 5;
/** A student's new feedback: reviews released within this many days, at most OVERVIEW_FEEDBACK_LIMIT. */
export const OVERVIEW_FEEDBACK_DAYS = 14;
export const OVERVIEW_FEEDBACK_LIMIT = 5;

function section<T extends z.ZodType>(item: T) {
  return z.object({
    /** How many items match, up to OVERVIEW_COUNT_CAP; `results` holds the first OVERVIEW_SECTION_LIMIT. */
    count: z.number().int(),
    results: z.array(item),
  });
}

export const OverviewWorkKind = z.enum(['assignment', 'quiz']);
export type OverviewWorkKind = z.infer<typeof OverviewWorkKind>;

/**
 * Where the student stands with one assignment or quiz: nothing handed in, a quiz started and not
 * submitted, handed in and not graded yet (or a quiz whose scores are not shown yet), graded.
 */
export const MyWorkStatus = z.enum(['not_submitted', 'in_progress', 'submitted', 'graded']);
export type MyWorkStatus = z.infer<typeof MyWorkStatus>;

/** An assignment (`quiz_id` and `quiz_course_id` null) or a quiz of the course, with its dates. */
const workFields = {
  kind: OverviewWorkKind,
  /** The assignment's id (links `assignment/{id}`), null for a quiz. */
  assignment_id: z.number().int().nullable(),
  /** The quiz and its course window (links `quizzes/{quiz_id}/quiz-courses/{quiz_course_id}`). */
  quiz_id: z.number().int().nullable(),
  quiz_course_id: z.number().int().nullable(),
  title: z.string(),
  opens_at: z.iso.datetime(),
  /** An assignment's due date, a quiz's closing time. */
  due_at: z.iso.datetime(),
  /** Assignments: late submissions are accepted until then; null: none (and always for quizzes). */
  late_until: z.iso.datetime().nullable(),
};

export const OverviewDueItem = z
  .object({
    ...workFields,
    /** Past its due date and still accepting late submissions. */
    is_late: z.boolean(),
    /** A quiz that has not opened yet (students see upcoming quizzes). */
    is_upcoming: z.boolean(),
    status: MyWorkStatus,
    /**
     * Graded: the counted score of the final submission, else the best (assignments: with its released
     * review, weighted as docs/review.md says, so in hundredths); the quiz's score.
     */
    score: z.number().nullable(),
    max_score: z.number().nullable(),
    /** The submission the status is about (links `submission/{id}` or the quiz submission). */
    submission_id: z.number().int().nullable(),
  })
  .meta({ id: 'OverviewDueItem' });
export type OverviewDueItem = z.infer<typeof OverviewDueItem>;

export const OverviewOpenQuiz = z
  .object({
    quiz_id: z.number().int(),
    quiz_course_id: z.number().int(),
    title: z.string(),
    opens_at: z.iso.datetime(),
    closes_at: z.iso.datetime(),
    time_limit_minutes: z.number().int().nullable(),
    /** When the student started it; null: not started. */
    started_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'OverviewOpenQuiz' });
export type OverviewOpenQuiz = z.infer<typeof OverviewOpenQuiz>;

export const OverviewAnnouncement = z
  .object({
    id: z.number().int(),
    title: z.string(),
    author: ForumAuthor,
    pinned: z.boolean(),
    published_at: z.iso.datetime(),
  })
  .meta({ id: 'OverviewAnnouncement' });
export type OverviewAnnouncement = z.infer<typeof OverviewAnnouncement>;

/** A topic the student wrote or commented in where others have written since the student last did. */
export const OverviewReply = z
  .object({
    topic_id: z.number().int(),
    topic_title: z.string(),
    /** Comments by others since the student's own latest post in the topic. */
    reply_count: z.number().int(),
    latest_reply_at: z.iso.datetime(),
    latest_author: ForumAuthor,
  })
  .meta({ id: 'OverviewReply' });
export type OverviewReply = z.infer<typeof OverviewReply>;

export const OverviewResult = z
  .object({
    kind: OverviewWorkKind,
    assignment_id: z.number().int().nullable(),
    quiz_id: z.number().int().nullable(),
    quiz_course_id: z.number().int().nullable(),
    title: z.string(),
    /** The graded submission (assignments) or the quiz submission. */
    submission_id: z.number().int(),
    /** Completed or InvalidFormat for assignments (InvalidFormat scores 0); null for quizzes. */
    status: SubmissionStatus.nullable(),
    score: z.number().int().nullable(),
    max_score: z.number().int().nullable(),
    /** When it was graded (assignments) or its score was shown (quizzes). */
    result_at: z.iso.datetime(),
  })
  .meta({ id: 'OverviewResult' });
export type OverviewResult = z.infer<typeof OverviewResult>;

export const OverviewEvent = z
  .object({
    id: z.number().int(),
    title: z.string(),
    kind: EventKind,
    starts_at: z.iso.datetime(),
    ends_at: z.iso.datetime(),
    all_day: z.boolean(),
    location: z.string(),
  })
  .meta({ id: 'OverviewEvent' });
export type OverviewEvent = z.infer<typeof OverviewEvent>;

/** A review of one of the student's own submissions, released lately (docs/review.md). */
export const OverviewFeedback = z
  .object({
    submission_id: z.number().int(),
    assignment_id: z.number().int(),
    assignment_title: z.string(),
    /** The counted score with the review, and its maximum (weights and caps applied). */
    total: z.number(),
    max_score: z.number(),
    released_at: z.iso.datetime(),
    /** The student's regrade requests on it still waiting for an answer, and those answered. */
    open_regrade_requests: z.number().int(),
    answered_regrade_requests: z.number().int(),
  })
  .meta({ id: 'OverviewFeedback' });
export type OverviewFeedback = z.infer<typeof OverviewFeedback>;

/** What a student of the course sees: their own work, their unread news, the next events. */
export const StudentCourseOverview = z
  .object({
    view: z.literal('student'),
    course_id: z.number().int(),
    /** The moment the overview was made: every "soon" and "overdue" is relative to it. */
    now: z.iso.datetime(),
    /** Opened assignments and quizzes (open, or opening soon) due within the window, or late but accepting. */
    due_soon: section(OverviewDueItem),
    /** Quizzes open now that the student has not submitted. */
    open_quizzes: section(OverviewOpenQuiz),
    unread_announcements: section(OverviewAnnouncement),
    forum_replies: section(OverviewReply),
    /** The latest graded result per assignment and the quiz results already shown, newest first. */
    latest_results: section(OverviewResult),
    /**
     * Reviews of the student's submissions released within OVERVIEW_FEEDBACK_DAYS, newest first: at most
     * OVERVIEW_FEEDBACK_LIMIT in `results`.
     */
    new_feedback: section(OverviewFeedback),
    upcoming_events: section(OverviewEvent),
  })
  .meta({ id: 'StudentCourseOverview' });
export type StudentCourseOverview = z.infer<typeof StudentCourseOverview>;

export const OverviewGradingReason = z.enum([
  'queued_long',
  'executing_long',
  'internal_error',
  'invalid_format',
]);
export type OverviewGradingReason = z.infer<typeof OverviewGradingReason>;

export const OverviewGradingItem = z
  .object({
    submission_id: z.number().int(),
    assignment_id: z.number().int(),
    assignment_title: z.string(),
    student: UserSummary,
    status: SubmissionStatus,
    reason: OverviewGradingReason,
    /** Why it is InvalidFormat or InternalError, or what the grader waits for. */
    message: z.string(),
    created_at: z.iso.datetime(),
    /** Since when it has been in its state: queued, started, or handed in (the failed ones). */
    since: z.iso.datetime(),
  })
  .meta({ id: 'OverviewGradingItem' });
export type OverviewGradingItem = z.infer<typeof OverviewGradingItem>;

export const OverviewClosingItem = z
  .object({
    ...workFields,
    /** Students of the course who handed in at least once (quizzes: submitted). */
    submitted_students: z.number().int(),
    student_count: z.number().int(),
  })
  .meta({ id: 'OverviewClosingItem' });
export type OverviewClosingItem = z.infer<typeof OverviewClosingItem>;

export const OverviewMissingItem = z
  .object({
    assignment_id: z.number().int(),
    title: z.string(),
    due_at: z.iso.datetime(),
    late_until: z.iso.datetime().nullable(),
    /** Late submissions are still accepted. */
    accepts_late: z.boolean(),
    /** Students of the course with no submission at all for it. */
    missing_count: z.number().int(),
    /** The first OVERVIEW_MISSING_NAMES of them, by family name, given name, e-mail. */
    students: z.array(UserSummary),
  })
  .meta({ id: 'OverviewMissingItem' });
export type OverviewMissingItem = z.infer<typeof OverviewMissingItem>;

export const OverviewQuestion = z
  .object({
    id: z.number().int(),
    title: z.string(),
    author: ForumAuthor,
    comment_count: z.number().int(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'OverviewQuestion' });
export type OverviewQuestion = z.infer<typeof OverviewQuestion>;

/** What editors of the course and staff see: what needs them now. */
export const EditorCourseOverview = z
  .object({
    view: z.literal('editor'),
    course_id: z.number().int(),
    now: z.iso.datetime(),
    student_count: z.number().int(),
    /** Submissions queued or executing too long, and failed ones (InternalError; InvalidFormat as latest). */
    grading_attention: section(OverviewGradingItem),
    /** Assignments due and quizzes closing within OVERVIEW_CLOSING_DAYS. */
    closing_soon: section(OverviewClosingItem),
    /** Assignments past due within OVERVIEW_MISSING_DAYS with students who submitted nothing. */
    missing_submissions: section(OverviewMissingItem),
    /** Recent student discussions without a comment from an editor of the course or staff. */
    unanswered_questions: section(OverviewQuestion),
    /** Live workbook sessions of the course now. */
    open_workbook_sessions: z.number().int(),
    /** Students' regrade requests in the course not answered yet (docs/review.md). */
    open_regrade_requests: z.number().int(),
  })
  .meta({ id: 'EditorCourseOverview' });
export type EditorCourseOverview = z.infer<typeof EditorCourseOverview>;

export const CourseOverview = z.discriminatedUnion('view', [StudentCourseOverview, EditorCourseOverview]);
export type CourseOverview = z.infer<typeof CourseOverview>;
