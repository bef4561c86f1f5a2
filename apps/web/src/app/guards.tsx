import { useEffect, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { takeLeavingOnPurpose } from '../features/auth/deliberate-logout.ts';
import { useIsAuthenticated, useSession } from '../features/auth/session.ts';
import { pathTo } from '../routes/route-table.ts';

/** Wraps a route's page: it decides whether the page may show, or sends elsewhere. */
export type RouteGuard = (props: { children: ReactNode }) => ReactNode;

/**
 * Routes that need sign-in: a signed-out visitor is sent to /login, and the route they wanted is
 * remembered so sign-in returns there (not after a deliberate logout: features/auth/deliberate-logout.ts).
 */
export function RequireAuth() {
  const isAuthenticated = useIsAuthenticated();
  const location = useLocation();
  if (!isAuthenticated) {
    return <RememberAndSignIn target={`${location.pathname}${location.search}${location.hash}`} />;
  }
  return <Outlet />;
}

function RememberAndSignIn({ target }: { target: string }) {
  useEffect(() => {
    if (takeLeavingOnPurpose()) return;
    useSession.getState().setCallback(target);
  }, [target]);
  return <Navigate to={pathTo('Login')} replace />;
}
