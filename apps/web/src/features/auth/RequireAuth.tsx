import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useAuth } from '../../lib/AuthProvider';

export interface OriginState {
  from?: { pathname: string; search?: string; hash?: string; state?: unknown };
}

/** Everything other than /, /login and /register needs sign-in: visitors go to /login carrying the origin. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isAuthenticated, signedOutByUser } = useAuth();
  const location = useLocation();
  if (!isAuthenticated && signedOutByUser) return <Navigate to="/login" replace />;
  if (!isAuthenticated) {
    const state: OriginState = { from: { pathname: location.pathname, search: location.search, hash: location.hash, state: location.state } };
    return <Navigate to="/login" replace state={state} />;
  }
  return <>{children}</>;
}

/** The place to return to after login, when the visitor was sent to /login from a signed-in page. */
export function originOf(state: unknown): { to: string; state?: unknown } | null {
  const from = (state as OriginState | null)?.from;
  if (!from || typeof from.pathname !== 'string' || !from.pathname.startsWith('/')) return null;
  if (from.pathname === '/login' || from.pathname === '/register') return null;
  return { to: `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`, state: from.state };
}
