import { ROUTES, ROUTE_NAMES, type RouteName } from './route-definitions.ts';

// Scores as react-router ranks its matches: a fixed segment outranks a parameter, which outranks `*`.
const STATIC_SEGMENT = 10;
const PARAMETER_SEGMENT = 3;
const SPLAT = -2;

function segments(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

/** The score of `pattern` against `parts` (a path's segments), or null when it does not match. */
function score(pattern: string, parts: readonly string[]): number | null {
  let total = 0;
  let index = 0;
  for (const segment of segments(pattern)) {
    if (segment === '*') return total + SPLAT;
    const part = parts[index];
    if (segment.startsWith(':')) {
      if (part === undefined) {
        if (segment.endsWith('?')) continue;
        return null;
      }
      total += PARAMETER_SEGMENT;
    } else {
      if (part === undefined || part.toLowerCase() !== segment.toLowerCase()) return null;
      total += STATIC_SEGMENT;
    }
    index += 1;
  }
  return index === parts.length ? total : null;
}

/**
 * The named route a path opens, ranked as react-router ranks them (`/course/1/assignment/2` is the
 * assignment, not a video with platform "assignment"); NotFound (`*`) when no other matches. A small
 * matcher of the table's own patterns (fixed segments, `:param`, `:param?`, `*`), so that boot.ts can
 * name the page before react-router has arrived; router.tsx stays what decides.
 */
export function matchRouteName(pathname: string): RouteName | null {
  const parts = segments(pathname);
  let best: { name: RouteName; score: number } | null = null;
  for (const name of ROUTE_NAMES) {
    const found = score(ROUTES[name].path, parts);
    if (found !== null && (best === null || found > best.score)) best = { name, score: found };
  }
  return best?.name ?? null;
}
