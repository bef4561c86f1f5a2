/*
 * Every table with a column referencing users.id, and what the export and the erasure do with it
 * (docs/privacy.md). tables.test.ts reads the database's foreign keys to users and fails, naming the
 * table and column, when one is missing from EXPORT_RULES or ERASURE_RULES: a new table that refers to
 * people cannot be forgotten. Adding a table here is one row in each list (plain data, no SQL of its
 * own unless the rule is `custom`, which export-read.repo.ts and erasure.repo.ts implement by table name).
 */

/**
 * How the export reads a table: the rows naming the person in one of `subject` (the row is about them:
 * exported whole, less `omit`) or only in one of `actor` (they did something to someone else's row:
 * exported as `actorFields` only, so other people's data stays out of the zip).
 */
export interface ExportRule {
  /** The zip's `data/<file>.json`. */
  file: string;
  subject: readonly string[];
  actor: readonly string[];
  /** The columns an actor's row is exported with (required when `actor` is not empty). */
  actorFields?: readonly string[];
  /** Columns never exported: secrets, hashes, search vectors, other people's e-mail addresses. */
  omit?: readonly string[];
  /** A condition (SQL on the row `t`) a subject's row must also meet: what the person may see of it. */
  subjectWhere?: string;
  /** Exported by its own query (export-read.repo.ts), not the generic one: why. */
  custom?: string;
}

/**
 * What erasing a person does with their rows, per column naming them:
 * - `delete`: rows where the column is the person are deleted;
 * - `keep`: the reference stays and now names the pseudonymised row (nothing personal in it): `why`;
 * - `grades`: kept under the pseudonym when ERASURE_KEEP_GRADES, deleted otherwise;
 * - `custom`: erasure.repo.ts handles the table by name: `how`.
 */
export type ErasureRule =
  { rule: 'delete' } | { rule: 'keep'; why: string } | { rule: 'grades' } | { rule: 'custom'; how: string };

const remove: ErasureRule = { rule: 'delete' };
const grades: ErasureRule = { rule: 'grades' };
const authored: ErasureRule = {
  rule: 'keep',
  why: 'what they made for a course stays the course’s, by the pseudonym',
};
const acted: ErasureRule = { rule: 'keep', why: 'who did what stays recorded, by the pseudonym' };

const mine = (file: string, extra: Partial<ExportRule> = {}): ExportRule => ({
  file,
  subject: ['user_id'],
  actor: [],
  ...extra,
});
const made = (file: string, column: string, actorFields: readonly string[]): ExportRule => ({
  file,
  subject: [],
  actor: [column],
  actorFields,
});

export const EXPORT_RULES: Readonly<Record<string, ExportRule>> = {
  auth_sessions: mine('sign-in/sessions'),
  user_identities: mine('sign-in/identities'),
  social_accounts: mine('sign-in/google-accounts'),
  sso_codes: mine('sign-in/sso-codes', { omit: ['code_hash'] }),
  lti_users: mine('sign-in/lti-accounts'),
  lti_codes: mine('sign-in/lti-codes', { omit: ['code_hash'] }),
  lti_deep_links: mine('lms/deep-links'),
  lti_context_members: mine('lms/course-launches'),
  lti_scores: mine('lms/scores-sent'),
  lti_registration_tokens: made('authored/lms-registration-tokens', 'created_by', [
    'created_at',
    'expires_at',
  ]),
  course_students: mine('courses/student-of'),
  course_editors: mine('courses/editor-of'),
  pending_members: made('authored/roster-entries', 'added_by', ['id', 'course_id', 'kind', 'created_at']),
  calendar_feeds: mine('courses/calendar-feed'),
  // Without bodies: an invitation's or set-password e-mail's link may still work, and a zip that
  // travels must not carry a way into the account. The person has the e-mails themselves.
  email_outbox: {
    file: 'e-mail/sent-to-you',
    subject: ['to_user_id'],
    actor: [],
    omit: ['text_body', 'html_body', 'unsubscribe_url'],
  },
  notifications: mine('notifications/notifications'),
  notification_profiles: mine('notifications/settings'),
  notification_mutes: mine('notifications/muted-courses'),
  submissions: {
    ...mine('submissions/submissions'),
    custom: 'with their evaluations (as the person may see them), files and released reviews',
  },
  submit_keys: mine('submissions/submit-keys'),
  precheck_runs: mine('submissions/prechecks'),
  leaderboard_profiles: mine('submissions/leaderboard-profile'),
  evaluations: made('authored/evaluation-overrides', 'overridden_by', [
    'id',
    'submission_id',
    'test_case_id',
    'status',
    'points',
    'comment',
    'created_at',
  ]),
  reviews: {
    file: 'submissions/reviews',
    subject: ['user_id'],
    actor: ['grader_id', 'released_by'],
    actorFields: ['id', 'submission_id', 'assignment_id', 'course_id', 'status', 'graded_at', 'released_at'],
    // A student sees nothing of a review before its release.
    subjectWhere: 't.released_at is not null',
  },
  review_comments: { file: 'submissions/review-comments-written', subject: ['author_id'], actor: [] },
  regrade_requests: {
    file: 'submissions/regrade-requests',
    subject: ['user_id'],
    actor: ['answered_by'],
    actorFields: ['id', 'review_id', 'course_id', 'status', 'answer', 'answered_at'],
  },
  saved_comments: { file: 'authored/saved-comments', subject: ['created_by'], actor: [] },
  review_audit: made('audit/review-actions', 'actor_id', [
    'id',
    'course_id',
    'assignment_id',
    'submission_id',
    'action',
    'at',
  ]),
  assignment_extensions: {
    file: 'extensions/assignments',
    subject: ['user_id'],
    actor: ['granted_by'],
    actorFields: ['assignment_id', 'course_id', 'user_id', 'due_at', 'late_until', 'granted_at'],
  },
  quiz_extensions: {
    file: 'extensions/quizzes',
    subject: ['user_id'],
    actor: ['granted_by'],
    actorFields: ['quiz_course_id', 'user_id', 'closes_at', 'extra_minutes', 'granted_at'],
  },
  extension_audit: {
    file: 'audit/extensions',
    subject: ['user_id'],
    actor: ['actor_id'],
    actorFields: ['id', 'course_id', 'kind', 'item_id', 'item_title', 'user_id', 'action', 'at'],
    omit: ['user_email', 'actor_email'],
  },
  quiz_submissions: {
    ...mine('quizzes/submissions'),
    custom: 'with their answers; scores and correctness only once the quiz shows them',
  },
  forum_records: {
    file: 'forum/posts',
    subject: ['author_id'],
    actor: ['updated_by'],
    actorFields: ['id', 'course_id', 'parent_id', 'updated_at'],
    omit: ['search_vector'],
  },
  forum_files: {
    file: 'forum/attachments',
    subject: ['uploaded_by'],
    actor: [],
    omit: ['storage_key'],
    custom: 'with the files themselves under files/forum/',
  },
  forum_reads: mine('forum/reads'),
  forum_reader_stats: mine('forum/read-counts'),
  forum_upvotes: mine('forum/upvotes'),
  video_stats: mine('videos/watch-statistics'),
  video_syncs: made('authored/video-syncs', 'requested_by', ['id', 'course_id', 'status', 'created_at']),
  workbook_notebooks: mine('workbooks/notebooks'),
  workbook_sessions: mine('workbooks/sessions'),
  assessment_feedback: { file: 'assessment/feedback', subject: ['user_id', 'author_id'], actor: [] },
  workshop_participants: mine('assessment/workshops'),
  workshops: made('authored/workshops', 'created_by', [
    'id',
    'course_id',
    'title',
    'starts_at',
    'created_at',
  ]),
  assignments: made('authored/assignments', 'created_by', ['id', 'title', 'created_at', 'updated_at']),
  assignment_files: made('authored/assignment-files', 'created_by', [
    'id',
    'assignment_id',
    'filename',
    'size',
    'created_at',
  ]),
  quizzes: made('authored/quizzes', 'created_by', ['id', 'title', 'created_at', 'updated_at']),
  events: made('authored/calendar-events', 'created_by', [
    'id',
    'course_id',
    'title',
    'starts_at',
    'created_at',
  ]),
  similarity_reports: made('authored/similarity-reports', 'requested_by', [
    'id',
    'assignment_id',
    'course_id',
    'status',
    'created_at',
  ]),
  snippet_runs: mine('pygrade/console-runs'),
  data_exports: mine('privacy/data-exports', { omit: ['storage_key'] }),
  user_erasures: {
    file: 'privacy/erasures-done',
    subject: ['user_id'],
    actor: ['actor_id'],
    actorFields: ['id', 'user_id', 'pseudonym', 'erased_at'],
  },
};

export const ERASURE_RULES: Readonly<Record<string, Readonly<Record<string, ErasureRule>>>> = {
  auth_sessions: { user_id: remove },
  user_identities: {
    user_id: {
      rule: 'custom',
      how: 'deleted, and roster entries still waiting under their institutional ids with them',
    },
  },
  social_accounts: { user_id: remove },
  sso_codes: { user_id: remove },
  lti_users: { user_id: remove },
  lti_codes: { user_id: remove },
  lti_deep_links: { user_id: remove },
  lti_context_members: { user_id: remove },
  // What was sent to the LMS's gradebook stays there; the link to it goes.
  lti_scores: { user_id: remove },
  lti_registration_tokens: { created_by: acted },
  course_students: { user_id: grades },
  course_editors: { user_id: remove },
  pending_members: { added_by: acted },
  calendar_feeds: { user_id: remove },
  email_outbox: {
    to_user_id: { rule: 'custom', how: 'deleted, with every row sent to their address' },
  },
  notifications: { user_id: remove },
  notification_profiles: { user_id: remove },
  notification_mutes: { user_id: remove },
  submissions: {
    user_id: {
      rule: 'custom',
      how:
        'ERASURE_KEEP_GRADES: rows, scores and results kept, submitted files and program output deleted; ' +
        'otherwise deleted with everything about them. Similarity reports over them are deleted either way.',
    },
  },
  submit_keys: { user_id: remove },
  precheck_runs: { user_id: remove },
  leaderboard_profiles: { user_id: remove },
  evaluations: { overridden_by: acted },
  reviews: { user_id: grades, grader_id: acted, released_by: acted },
  review_comments: { author_id: acted },
  regrade_requests: { user_id: grades, answered_by: acted },
  saved_comments: { created_by: authored },
  review_audit: { actor_id: { rule: 'custom', how: 'kept; the copied e-mail becomes the placeholder' } },
  assignment_extensions: { user_id: grades, granted_by: acted },
  quiz_extensions: { user_id: grades, granted_by: acted },
  extension_audit: {
    user_id: { rule: 'custom', how: 'kept; the copied e-mail becomes the placeholder' },
    actor_id: { rule: 'custom', how: 'kept; the copied e-mail becomes the placeholder' },
  },
  quiz_submissions: { user_id: grades },
  forum_records: {
    author_id: {
      rule: 'custom',
      how: 'ERASURE_FORUM_TEXT=replace: title and text replaced by a placeholder; keep: left as written',
    },
    updated_by: acted,
  },
  forum_files: {
    uploaded_by: { rule: 'custom', how: 'ERASURE_FORUM_TEXT=replace: deleted, files too; keep: kept' },
  },
  // Reads before their counts: the trigger of forum_reads updates forum_reader_stats.
  forum_reads: { user_id: remove },
  forum_reader_stats: { user_id: remove },
  forum_upvotes: { user_id: { rule: 'custom', how: 'deleted, and taken off the posts’ upvote counts' } },
  video_stats: { user_id: remove },
  video_syncs: { requested_by: acted },
  workbook_sessions: { user_id: remove },
  workbook_notebooks: { user_id: remove },
  assessment_feedback: { user_id: grades, author_id: authored },
  workshop_participants: { user_id: remove },
  workshops: { created_by: authored },
  assignments: { created_by: authored },
  assignment_files: { created_by: authored },
  quizzes: { created_by: authored },
  events: { created_by: authored },
  similarity_reports: { requested_by: acted },
  snippet_runs: { user_id: remove },
  data_exports: { user_id: { rule: 'custom', how: 'deleted, their zips too' } },
  user_erasures: {
    user_id: { rule: 'keep', why: 'the audit entry of the erasure itself' },
    actor_id: { rule: 'custom', how: 'kept; the copied e-mail becomes the placeholder' },
  },
};

/** The tables the export reads by a query of its own (export-read.repo.ts), by name. */
export const CUSTOM_EXPORTS = Object.entries(EXPORT_RULES)
  .filter(([, rule]) => rule.custom !== undefined)
  .map(([table]) => table);

/** The tables the erasure handles by code of its own (erasure.repo.ts), by name. */
export const CUSTOM_ERASURES = Object.entries(ERASURE_RULES)
  .filter(([, columns]) => Object.values(columns).some((rule) => rule.rule === 'custom'))
  .map(([table]) => table);
