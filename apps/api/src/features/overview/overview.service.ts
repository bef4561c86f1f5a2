import {
  OVERVIEW_COUNT_CAP,
  OVERVIEW_SECTION_LIMIT,
  OVERVIEW_WINDOW_DAYS,
  type CourseOverview,
  type EditorCourseOverview,
  type ForumAuthor,
  type MyWorkStatus,
  type OverviewDueItem,
  type OverviewGradingReason,
  type StudentCourseOverview,
  type SubmissionStatus,
  type UserSummary,
} from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { canManageCourse, getCourseRole } from '../courses/courses.service.ts';
import { toForumAuthor } from '../forum/forum-access.ts';
import * as editorRepo from './overview-editor.repo.ts';
import * as feedbackRepo from './overview-feedback.repo.ts';
import * as repo from './overview.repo.ts';

/*
 * The course home (docs/course-home.md): one answer for the first page of a course, shaped by the
 * caller's role. Students get their own work and news; editors of the course and staff what needs
 * them. Anyone else gets 404, as for the course itself.
 */

const DAY = 86_400_000;
const iso = (date: Date) => date.toISOString();
const isoOrNull = (date: Date | null) => (date === null ? null : date.toISOString());

function authorOf(row: repo.AuthorFields): ForumAuthor {
  return toForumAuthor({
    id: row.author_id,
    firstName: row.author_first_name,
    lastName: row.author_last_name,
    email: row.author_email,
    isEditor: row.author_is_editor,
    isStaff: row.author_is_staff,
  });
}

/** Graded once grading is over (InvalidFormat scores 0); anything else handed in waits for it. */
function assignmentStatus(status: SubmissionStatus | null): MyWorkStatus {
  if (status === null) return 'not_submitted';
  return status === 'Completed' || status === 'InvalidFormat' ? 'graded' : 'submitted';
}

function dueAssignment(row: repo.DueAssignmentRow, now: Date): OverviewDueItem {
  const status = assignmentStatus(row.status);
  return {
    kind: 'assignment',
    assignment_id: row.assignment_id,
    quiz_id: null,
    quiz_course_id: null,
    title: row.title,
    opens_at: iso(row.opens_at),
    due_at: iso(row.due_at),
    late_until: isoOrNull(row.late_until),
    is_late: row.due_at.getTime() < now.getTime(),
    is_upcoming: false,
    status,
    score: status === 'graded' ? row.score : null,
    max_score: status === 'graded' ? row.max_score : null,
    submission_id: row.submission_id,
  };
}

/** A quiz's score is the student's once its scores are shown (docs/quizzes.md, "Visibility"). */
function quizStatus(row: repo.StudentQuizRow, now: Date): MyWorkStatus {
  if (row.attempt_id === null) return 'not_submitted';
  if (row.submitted_at === null) return 'in_progress';
  const shown = row.scores_visible_at !== null && row.scores_visible_at.getTime() <= now.getTime();
  return shown ? 'graded' : 'submitted';
}

function dueQuiz(row: repo.StudentQuizRow, now: Date): OverviewDueItem {
  const status = quizStatus(row, now);
  return {
    kind: 'quiz',
    assignment_id: null,
    quiz_id: row.quiz_id,
    quiz_course_id: row.quiz_course_id,
    title: row.title,
    opens_at: iso(row.opens_at),
    due_at: iso(row.closes_at),
    late_until: null,
    is_late: false,
    is_upcoming: row.opens_at.getTime() > now.getTime(),
    status,
    score: status === 'graded' ? row.score : null,
    max_score: status === 'graded' ? row.max_score : null,
    submission_id: row.submitted_at === null ? null : row.attempt_id,
  };
}

const bySoonest = (a: OverviewDueItem, b: OverviewDueItem) =>
  Date.parse(a.due_at) - Date.parse(b.due_at) || a.title.localeCompare(b.title);

export async function getStudentOverview(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  now: Date,
): Promise<StudentCourseOverview> {
  const scope = { courseId, userId: actor.userId };
  const until = now.getTime() + OVERVIEW_WINDOW_DAYS * DAY;
  const [assignments, quizzes, announcements, replies, results, feedback, events] = await Promise.all([
    repo.listDueAssignments(ctx.db, scope),
    repo.listStudentQuizzes(ctx.db, scope),
    repo.listUnreadAnnouncements(ctx.db, scope),
    repo.listReplies(ctx.db, scope),
    repo.listLatestResults(ctx.db, scope),
    feedbackRepo.listNewFeedback(ctx.db, scope),
    repo.listUpcomingEvents(ctx.db, scope),
  ]);
  // Quizzes not closed that open within the window: due soon when they close within it too; open now
  // and not submitted, they are also the student's to take.
  const dueQuizzes = quizzes.filter((q) => q.closes_at.getTime() < until);
  const openQuizzes = quizzes.filter((q) => q.opens_at.getTime() <= now.getTime() && q.submitted_at === null);
  return {
    view: 'student',
    course_id: courseId,
    now: iso(now),
    due_soon: {
      count: Math.min(assignments.count + dueQuizzes.length, OVERVIEW_COUNT_CAP),
      results: [
        ...assignments.rows.map((r) => dueAssignment(r, now)),
        ...dueQuizzes.map((r) => dueQuiz(r, now)),
      ]
        .sort(bySoonest)
        .slice(0, OVERVIEW_SECTION_LIMIT),
    },
    open_quizzes: {
      count: Math.min(openQuizzes.length, OVERVIEW_COUNT_CAP),
      results: openQuizzes.slice(0, OVERVIEW_SECTION_LIMIT).map((q) => ({
        quiz_id: q.quiz_id,
        quiz_course_id: q.quiz_course_id,
        title: q.title,
        opens_at: iso(q.opens_at),
        closes_at: iso(q.closes_at),
        time_limit_minutes: q.time_limit_minutes,
        started_at: isoOrNull(q.started_at),
      })),
    },
    unread_announcements: {
      count: announcements.count,
      results: announcements.rows.map((r) => ({
        id: r.id,
        title: r.title,
        author: authorOf(r),
        pinned: r.pinned,
        published_at: iso(r.published_at),
      })),
    },
    forum_replies: {
      count: replies.count,
      results: replies.rows.map((r) => ({
        topic_id: r.topic_id,
        topic_title: r.topic_title,
        reply_count: r.reply_count,
        latest_reply_at: iso(r.latest_reply_at),
        latest_author: authorOf(r),
      })),
    },
    latest_results: {
      count: results.count,
      results: results.rows.map((r) => ({
        kind: r.kind,
        assignment_id: r.assignment_id,
        quiz_id: r.quiz_id,
        quiz_course_id: r.quiz_course_id,
        title: r.title,
        submission_id: r.submission_id,
        status: r.status,
        score: r.score,
        max_score: r.max_score,
        result_at: iso(r.result_at),
      })),
    },
    new_feedback: {
      count: feedback.count,
      results: feedback.rows.map((r) => ({
        submission_id: r.submission_id,
        assignment_id: r.assignment_id,
        assignment_title: r.assignment_title,
        total: r.total_score,
        max_score: r.max_score,
        released_at: iso(r.released_at),
        open_regrade_requests: r.open_regrade_requests,
        answered_regrade_requests: r.answered_regrade_requests,
      })),
    },
    upcoming_events: {
      count: events.count,
      results: events.rows.map((r) => ({
        id: r.id,
        title: r.title,
        kind: r.kind,
        starts_at: iso(r.starts_at),
        ends_at: iso(r.ends_at),
        all_day: r.all_day,
        location: r.location,
      })),
    },
  };
}

function gradingReason(row: editorRepo.GradingRow): OverviewGradingReason {
  switch (row.status) {
    case 'Scheduled':
      return 'queued_long';
    case 'Executing':
      return 'executing_long';
    case 'InternalError':
      return 'internal_error';
    default:
      return 'invalid_format';
  }
}

const studentOf = (row: {
  student_id: number;
  student_email: string;
  student_first_name: string;
  student_last_name: string;
}): UserSummary => ({
  id: row.student_id,
  email: row.student_email,
  first_name: row.student_first_name,
  last_name: row.student_last_name,
});

export async function getEditorOverview(
  ctx: AppContext,
  courseId: number,
  now: Date,
): Promise<EditorCourseOverview> {
  const scope = { courseId };
  const [counts, grading, closing, missing, questions] = await Promise.all([
    editorRepo.findCourseCounts(ctx.db, scope),
    editorRepo.listGradingAttention(ctx.db, scope),
    editorRepo.listClosing(ctx.db, scope),
    editorRepo.listMissing(ctx.db, scope),
    editorRepo.listUnansweredQuestions(ctx.db, scope),
  ]);
  return {
    view: 'editor',
    course_id: courseId,
    now: iso(now),
    student_count: counts.studentCount,
    grading_attention: {
      count: grading.count,
      results: grading.rows.map((r) => ({
        submission_id: r.submission_id,
        assignment_id: r.assignment_id,
        assignment_title: r.assignment_title,
        student: studentOf(r),
        status: r.status,
        reason: gradingReason(r),
        message: r.message,
        created_at: iso(r.created_at),
        since: iso(
          (r.status === 'Scheduled' ? r.queued_at : r.status === 'Executing' ? r.started_at : null) ??
            r.created_at,
        ),
      })),
    },
    closing_soon: {
      count: closing.count,
      results: closing.rows.map((r) => ({
        kind: r.kind,
        assignment_id: r.assignment_id,
        quiz_id: r.quiz_id,
        quiz_course_id: r.quiz_course_id,
        title: r.title,
        opens_at: iso(r.opens_at),
        due_at: iso(r.due_at),
        late_until: isoOrNull(r.late_until),
        submitted_students: r.submitted_students,
        student_count: counts.studentCount,
      })),
    },
    missing_submissions: {
      count: missing.count,
      results: missing.rows.map((r) => ({
        assignment_id: r.assignment_id,
        title: r.title,
        due_at: iso(r.due_at),
        late_until: isoOrNull(r.late_until),
        accepts_late: r.late_until !== null && r.late_until.getTime() > now.getTime(),
        missing_count: r.missing_count,
        students: r.students,
      })),
    },
    unanswered_questions: {
      count: questions.count,
      results: questions.rows.map((r) => ({
        id: r.id,
        title: r.title,
        author: authorOf(r),
        comment_count: r.comment_count,
        created_at: iso(r.created_at),
      })),
    },
    open_workbook_sessions: counts.liveSessions,
    open_regrade_requests: counts.openRegrades,
  };
}

/** `GET Course/{id}/overview/`: the editor view for editors of the course and staff, else the student one. */
export async function getCourseOverview(
  ctx: AppContext,
  actor: Actor,
  courseId: number,
  now: Date = new Date(),
): Promise<CourseOverview> {
  const role = await getCourseRole(ctx.db, actor, courseId);
  return canManageCourse(role)
    ? getEditorOverview(ctx, courseId, now)
    : getStudentOverview(ctx, actor, courseId, now);
}
