import type { QueryClient } from '@tanstack/react-query';
import type { TranslationKey } from '../../i18n/keys.ts';
import { ROUTES, coursePath, isCourseRoute, pathTo, type RouteName } from '../../routes/route-table.ts';

export type Params = Readonly<Record<string, string | undefined>>;

/** One breadcrumb: a fixed label, or the title of the object a path parameter names. */
export type Crumb =
  | { kind: 'label'; labelKey: TranslationKey; to: string | null }
  | { kind: 'object'; param: string; value: string; to: string | null };

/**
 * Finds the title of the object a path parameter names (a course, later an assignment, a forum post, a
 * quiz, a video). Resolvers should read the query cache first so a title already loaded costs nothing.
 */
export type TitleResolver = (value: string, params: Params, queryClient: QueryClient) => Promise<string>;

const titleResolvers = new Map<string, TitleResolver>();

/** Features register a resolver for the parameters their routes carry (`course_id`, `assignment_id`, …). */
export function registerTitleResolver(param: string, resolver: TitleResolver): void {
  titleResolvers.set(param, resolver);
}

export function findTitleResolver(param: string): TitleResolver | undefined {
  return titleResolvers.get(param);
}

function trail(name: RouteName): RouteName[] {
  const chain: RouteName[] = [];
  let current: RouteName | undefined = name;
  while (current !== undefined) {
    chain.unshift(current);
    current = ROUTES[current].parent;
  }
  return chain;
}

/**
 * Course > course title > page (> object): the trail of a course route. The last crumb is the current
 * page and links nowhere; on the course's home that is the course title itself.
 */
export function buildCrumbs(name: RouteName, params: Params): Crumb[] {
  if (!isCourseRoute(name) || params.course_id === undefined) return [];
  const isHome = name === 'CourseHome';
  const crumbs: Crumb[] = [
    { kind: 'label', labelKey: ROUTES.Course.titleKey, to: pathTo('Course') },
    {
      kind: 'object',
      param: 'course_id',
      value: params.course_id,
      to: isHome ? null : coursePath(params.course_id),
    },
  ];
  if (isHome) return crumbs;
  for (const routeName of trail(name)) {
    const route = ROUTES[routeName];
    const value = route.titleParam === undefined ? undefined : params[route.titleParam];
    const to = routeName === name ? null : pathTo(routeName, params);
    if (route.titleParam !== undefined && value !== undefined && findTitleResolver(route.titleParam)) {
      crumbs.push({ kind: 'object', param: route.titleParam, value, to });
    } else {
      crumbs.push({ kind: 'label', labelKey: route.titleKey, to });
    }
  }
  return crumbs;
}
