import { useEffect, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useIsAuthenticated, useSession } from '../features/auth/session.ts';
import { pathTo } from './route-table.ts';

/** Wraps a route's page: it decides whether the page may show, or sends elsewhere. */
export type RouteGuard = (props: { children: ReactNode }) => ReactNode;

/**
 * Set by a deliberate logout: the page being left is not an "intended route" to come back to, so the
 * guard that sees the session end there must not remember it.
 */
let isLeavingOnPurpose = false;

export function leaveWithoutRemembering(): void {
  isLeavingOnPurpose = true;
}

/** The login page is reached: a logout from a public page leaves nothing for a later guard to skip. */
export function useArrivedAtLogin(): void {
  useEffect(() => {
    isLeavingOnPurpose = false;
  }, []);
}

/**
 * Routes that need sign-in: a signed-out visitor is sent to /login, and the route they wanted is
 * remembered so sign-in returns there.
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
    if (isLeavingOnPurpose) {
      isLeavingOnPurpose = false;
      return;
    }
    useSession.getState().setCallback(target);
  }, [target]);
  return <Navigate to={pathTo('Login')} replace />;
}
