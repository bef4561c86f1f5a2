import type {
  AssignmentCourseDetail,
  AssignmentInCourse,
  CourseSpecificQuery,
  TotalScore,
} from '@kadai/contracts';
import type { Actor, AppContext } from '../../lib/context.ts';
import { getCourseRole } from '../courses/courses.service.ts';
import { acceptsSubmissions, getAssignmentInCourse, isLatePeriod } from './assignment-access.ts';
import * as repo from './assignments.repo.ts';
import * as lists from './assignment-lists.repo.ts';
import { listFiles } from './files.repo.ts';
import { toAssignmentFile } from './files.service.ts';
import { toAssignment, toAssignmentCourse } from './assignments.shape.ts';

/**
 * `CourseSpecific`: the course's assignments (students: the opened ones) with the caller's own
 * submission figures and, for editors and staff, how many students submitted. Four queries whatever
 * the number of assignments.
 */
export async function listCourseAssignments(
  ctx: AppContext,
  actor: Actor,
  query: CourseSpecificQuery,
): Promise<{ count: number; results: AssignmentInCourse[] }> {
  const role = await getCourseRole(ctx.db, actor, query.course_id);
  const isManager = role !== 'student';
  const { count, rows } = await lists.listCourseAssignments(ctx.db, query.course_id, actor.userId, {
    openedOnly: !isManager,
    search: query.search || undefined,
    ordering: query.ordering,
  });
  const ids = rows.map((r) => r.id);
  const [totals, mine, submitters] = await Promise.all([
    repo.testCaseTotals(ctx.db, ids),
    lists.mySubmissionStats(ctx.db, query.course_id, actor.userId, ids),
    isManager ? lists.submittedStudentCounts(ctx.db, query.course_id, ids) : null,
  ]);
  const now = new Date();
  const results = rows.map((row): AssignmentInCourse => {
    const stats = mine.get(row.id);
    const total = totals.get(row.id)!;
    return {
      id: row.id,
      title: row.title,
      course_id: row.courseId,
      opens_at: row.opensAt.toISOString(),
      due_at: row.dueAt.toISOString(),
      late_until: row.lateUntil?.toISOString() ?? null,
      extended: row.extended,
      accepts_submissions: acceptsSubmissions(row, now),
      total_points: total.points,
      test_case_count: total.count,
      my_submission_count: stats?.count ?? 0,
      my_latest_status: stats?.latestStatus ?? null,
      my_latest_score: stats?.latestScore ?? null,
      my_latest_max_score: stats?.latestMaxScore ?? null,
      my_best_score: stats?.bestScore ?? null,
      my_final_submission_id: stats?.finalSubmissionId ?? null,
      submitted_students: submitters ? (submitters.get(row.id) ?? 0) : null,
    };
  });
  return { count, results };
}

/** `CourseSpecificDetail`: the assignment, its dates in this course, its attachments. */
export async function getCourseDetail(
  ctx: AppContext,
  actor: Actor,
  assignmentId: number,
  courseId: number,
): Promise<AssignmentCourseDetail> {
  const { access, link } = await getAssignmentInCourse(ctx.db, actor, assignmentId, courseId);
  const [totals, files] = await Promise.all([
    repo.testCaseTotals(ctx.db, [assignmentId]),
    listFiles(ctx.db, assignmentId),
  ]);
  const now = new Date();
  return {
    assignment: toAssignment(access, totals.get(assignmentId)!),
    course: toAssignmentCourse(link),
    accepts_submissions: acceptsSubmissions(link, now),
    is_late_period: isLatePeriod(link, now),
    files: files.map((row) => toAssignmentFile(ctx, row)),
    can_edit: access.canManage,
  };
}

/** `total_score`: the caller's own score in this course: their final submission's, else their best. */
export async function getTotalScore(
  ctx: AppContext,
  actor: Actor,
  assignmentId: number,
  courseId: number,
): Promise<TotalScore> {
  await getAssignmentInCourse(ctx.db, actor, assignmentId, courseId);
  const [totalPoints, scoring] = await Promise.all([
    lists.findAssignmentMax(ctx.db, assignmentId),
    lists.findScoringSubmission(ctx.db, assignmentId, courseId, actor.userId),
  ]);
  return {
    assignment_id: assignmentId,
    course_id: courseId,
    total_points: totalPoints,
    score: scoring?.score ?? null,
    submission_id: scoring?.id ?? null,
  };
}
