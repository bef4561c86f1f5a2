import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { usePublicConfig } from '../../features/config/config.api.ts';
import { ROUTES, ROUTE_NAMES, type RouteName } from '../route-table.ts';

export interface RouteHandle {
  route: RouteName;
}

function isRouteName(value: unknown): value is RouteName {
  return typeof value === 'string' && ROUTE_NAMES.some((name) => name === value);
}

export function routeNameOf(handle: unknown): RouteName | undefined {
  if (typeof handle !== 'object' || handle === null || !('route' in handle)) return undefined;
  return isRouteName(handle.route) ? handle.route : undefined;
}

/** The deepest matched route that names itself, with its params. */
export function useCurrentRoute(): {
  name: RouteName;
  params: Readonly<Record<string, string | undefined>>;
} | null {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const match = matches[i]!;
    const name = routeNameOf(match.handle);
    if (name) return { name, params: match.params };
  }
  return null;
}

/** "Page · Kadai", from the route's title. */
export function useDocumentTitle(): void {
  const { t } = useTranslation();
  const { productName } = usePublicConfig();
  const current = useCurrentRoute();
  const title = current ? t(ROUTES[current.name].titleKey) : null;
  useEffect(() => {
    document.title = title ? `${title} · ${productName}` : productName;
  }, [title, productName]);
}
