import type { Assignment, AssignmentCourse } from '@kadai/contracts';
import type { AssignmentAccess } from './assignment-access.ts';
import type { LinkView, TestCaseTotals } from './assignments.repo.ts';

export function toAssignmentCourse(link: LinkView): AssignmentCourse {
  return {
    course_id: link.courseId,
    course_title: link.courseTitle,
    opens_at: link.opensAt.toISOString(),
    due_at: link.dueAt.toISOString(),
    late_until: link.lateUntil?.toISOString() ?? null,
    leaderboard_enabled: link.leaderboardEnabled,
    extended: link.extended,
  };
}

/** The editor view for those who manage it; the student view (no reference solution) for everyone else. */
export function toAssignment(access: AssignmentAccess, totals: TestCaseTotals): Assignment {
  const a = access.assignment;
  const common = {
    id: a.id,
    title: a.title,
    statement: a.statement,
    starter_code: a.starterCode,
    entry_file: a.entryFile,
    required_files: a.requiredFiles,
    allowed_extensions: a.allowedExtensions,
    max_files: a.maxFiles,
    max_file_bytes: a.maxFileBytes,
    created_by: a.createdBy,
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
    courses: access.links.map(toAssignmentCourse),
    total_points: totals.points,
    test_case_count: totals.count,
  };
  return access.canManage
    ? { view: 'editor', ...common, reference_solution: a.referenceSolution }
    : { view: 'student', ...common };
}
