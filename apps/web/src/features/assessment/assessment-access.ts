import type { Course } from '@kadai/contracts';

/** What the Assessment route guard does (spec §2 "Assessment route guard"). */
export type AssessmentAccess =
  | { kind: 'wait' }
  /** The existence check failed: nothing proceeds. */
  | { kind: 'error' }
  /** The course has no assessment analysis: navigation stays blocked. */
  | { kind: 'blocked' }
  | { kind: 'proceed' }
  | { kind: 'redirect'; userId: number };

export interface ExistenceState {
  status: 'pending' | 'error' | 'success';
  exists?: boolean;
}

/**
 * The existence check comes first; on the table page staff and the course's editors proceed and everyone
 * else goes to their own AssessmentDetail; the detail page proceeds on existence alone (the API decides
 * whose detail a caller may read).
 */
export function decideAssessmentAccess(
  page: 'table' | 'detail',
  existence: ExistenceState,
  viewer: { canManage: boolean; userId: number | null },
): AssessmentAccess {
  if (existence.status === 'pending') return { kind: 'wait' };
  if (existence.status === 'error') return { kind: 'error' };
  if (existence.exists !== true) return { kind: 'blocked' };
  if (page === 'detail' || viewer.canManage) return { kind: 'proceed' };
  if (viewer.userId === null) return { kind: 'blocked' };
  return { kind: 'redirect', userId: viewer.userId };
}

/**
 * Staff, or an editor of this course. The session's editor list is what the spec names; the course's
 * `my_role` (fresh from the server) also counts, so someone made editor since signing in is not sent away.
 */
export function canManageAssessment(
  course: Pick<Course, 'id' | 'my_role'>,
  session: { is_staff: boolean; editorCourses: readonly number[] },
): boolean {
  return (
    session.is_staff ||
    session.editorCourses.includes(course.id) ||
    course.my_role === 'staff' ||
    course.my_role === 'editor'
  );
}
