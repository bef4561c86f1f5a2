import { ROUTES, ROUTE_NAMES, type RouteName } from '../routes/route-definitions.ts';

// Scores as react-router ranks its matches: a fixed segment outranks a parameter, which outranks `*`.
const STATIC_SEGMENT = 10;
const PARAMETER_SEGMENT = 3;
const SPLAT = -2;

function segments(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

/** A route the path opens, with the path's parameters (decoded). */
export interface RouteMatch {
  name: RouteName;
  params: Record<string, string>;
}

/** The score of `pattern` against `parts` (a path's segments) and its parameters, or null. */
function score(
  pattern: string,
  parts: readonly string[],
): { score: number; params: Record<string, string> } | null {
  let total = 0;
  let index = 0;
  const params: Record<string, string> = {};
  for (const segment of segments(pattern)) {
    if (segment === '*') return { score: total + SPLAT, params };
    const part = parts[index];
    if (segment.startsWith(':')) {
      if (part === undefined) {
        if (segment.endsWith('?')) continue;
        return null;
      }
      params[segment.slice(1).replace(/\?$/u, '')] = decodeSegment(part);
      total += PARAMETER_SEGMENT;
    } else {
      if (part === undefined || part.toLowerCase() !== segment.toLowerCase()) return null;
      total += STATIC_SEGMENT;
    }
    index += 1;
  }
  return index === parts.length ? { score: total, params } : null;
}

function decodeSegment(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * The named route a path opens, with its parameters, ranked as react-router ranks them (`/course/1/assignment/2` is the
 * assignment, not a video with platform "assignment"); NotFound (`*`) when no other matches. A small
 * matcher of the table's own patterns (fixed segments, `:param`, `:param?`, `*`), so that boot.ts can
 * name the page before react-router has arrived; router.tsx stays what decides.
 */
export function matchRoute(pathname: string): RouteMatch | null {
  const parts = segments(pathname);
  let best: (RouteMatch & { score: number }) | null = null;
  for (const name of ROUTE_NAMES) {
    const found = score(ROUTES[name].path, parts);
    if (found !== null && (best === null || found.score > best.score)) best = { name, ...found };
  }
  return best && { name: best.name, params: best.params };
}

/** The name of the route `matchRoute` finds. */
export function matchRouteName(pathname: string): RouteName | null {
  return matchRoute(pathname)?.name ?? null;
}
