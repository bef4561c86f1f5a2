import { useSession } from '../auth/session.ts';

/**
 * PyGrade is for staff and for editors of any course, as the API decides (`Pygrade/status/` answers
 * others 403). The session's editor courses come from sign-in, so someone made an editor since sees the
 * tab after signing in again; someone no longer an editor is answered 403 by the API and sees NotFound.
 */
export function canUsePyGrade(session: { is_staff: boolean; editorCourses: readonly number[] }): boolean {
  return session.is_staff || session.editorCourses.length > 0;
}

export function useCanUsePyGrade(): boolean {
  return useSession((s) => canUsePyGrade(s));
}
