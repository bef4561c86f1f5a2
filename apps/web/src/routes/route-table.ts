import { generatePath } from 'react-router';
import { ROUTES, type RouteName } from './route-definitions.ts';

export * from './route-definitions.ts';

export type RouteParams = Record<string, string | number | undefined>;

/** The URL of a named route, e.g. `pathTo('Assignment', { course_id: 3 })` → `/course/3/assignment`. */
export function pathTo(name: RouteName, params: RouteParams = {}): string {
  const stringParams: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(params)) {
    stringParams[key] = value === undefined ? undefined : String(value);
  }
  return generatePath(ROUTES[name].path, stringParams);
}

/** The page a course opens on: its home (issue 21; before, its assignments). */
export function coursePath(courseId: number | string): string {
  return pathTo('CourseHome', { course_id: courseId });
}
