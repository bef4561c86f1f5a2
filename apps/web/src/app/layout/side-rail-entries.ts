import type { Course } from '@kadai/contracts';
import { canManageCourse } from '../../features/courses/course-access.ts';
import type { TranslationKey } from '../../i18n/keys.ts';
import type { RouteName } from '../../routes/route-table.ts';

export interface RailEntry {
  route: RouteName;
  labelKey: TranslationKey;
}

/** Who or what shows an entry: the course's flags, its managers (editors and staff), staff. */
type ShownIf = 'has_videos' | 'has_assessment' | 'manager' | 'staff';

/** The side rail of spec §2, in its order. */
const ENTRIES: readonly (RailEntry & { shownIf?: ShownIf })[] = [
  // Beyond spec §2 (issue 21): the course's home, first.
  { route: 'CourseHome', labelKey: 'rail.home' },
  { route: 'Workbook', labelKey: 'rail.workbook' },
  { route: 'Video', labelKey: 'rail.videos', shownIf: 'has_videos' },
  { route: 'Calendar', labelKey: 'rail.calendar' },
  { route: 'Assignment', labelKey: 'rail.assignment' },
  { route: 'QuizList', labelKey: 'rail.quizzes' },
  { route: 'Submission', labelKey: 'rail.submission' },
  { route: 'Forum', labelKey: 'rail.forum' },
  { route: 'Assessment', labelKey: 'rail.assessment', shownIf: 'has_assessment' },
  // Beyond spec §2: editors add and remove students without the staff-only Settings (issue 21).
  { route: 'Gradebook', labelKey: 'rail.gradebook', shownIf: 'manager' },
  // Issue 21 §2: a student's own due dates and quiz windows, beside the gradebook that shows them.
  { route: 'Extensions', labelKey: 'rail.extensions', shownIf: 'manager' },
  // Issue 39: the students' regrade requests of every assignment, with the open ones counted.
  { route: 'RegradeRequests', labelKey: 'rail.regradeRequests', shownIf: 'manager' },
  { route: 'Members', labelKey: 'rail.members', shownIf: 'manager' },
  { route: 'Settings', labelKey: 'rail.settings', shownIf: 'staff' },
];

/**
 * Lecture Videos only with has_videos, Assessment only with has_assessment, Gradebook, Extensions,
 * Regrade requests and Members for the course's editors and staff, Settings only for staff.
 */
export function visibleRailEntries(
  course: Pick<Course, 'has_videos' | 'has_assessment' | 'my_role'>,
  isStaff: boolean,
): RailEntry[] {
  return ENTRIES.filter((entry) => {
    switch (entry.shownIf) {
      case 'has_videos':
        return course.has_videos;
      case 'has_assessment':
        return course.has_assessment;
      case 'manager':
        return canManageCourse(course, isStaff);
      case 'staff':
        return isStaff;
      default:
        return true;
    }
  }).map(({ route, labelKey }) => ({ route, labelKey }));
}

/** Spec §9: mini rail under 1440 px, hidden behind a burger under 500 px, 200 px wide when expanded. */
export const RAIL_WIDE_MIN_PX = 1440;
export const RAIL_BREAKPOINT_PX = 500;
export const RAIL_EXPANDED_WIDTH = 200;
export const RAIL_MINI_WIDTH = 64;
