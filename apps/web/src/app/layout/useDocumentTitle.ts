import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { usePublicConfig } from '../../features/config/config.api.ts';
import { matchRoute } from '../route-match.ts';
import { ROUTES, ROUTE_NAMES, type RouteName } from '../../routes/route-table.ts';

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

/**
 * The route of the table the address opens, with its params: the one router.tsx renders (route-match.ts
 * ranks as react-router does, and route-match.test.ts holds the two to the same answers).
 */
export function useCurrentRoute(): {
  name: RouteName;
  params: Readonly<Record<string, string | undefined>>;
} | null {
  const { pathname } = useLocation();
  return useMemo(() => matchRoute(pathname), [pathname]);
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
