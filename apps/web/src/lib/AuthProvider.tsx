import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { STORAGE_KEYS, type CurrentUserResponse, type LoginResponse } from '@crp/contracts';
import { fetchCurrentUser, logout as logoutCall, logoutEverywhere } from '../api/accounts';
import { setUnauthorizedHandler } from '../api/http';
import { queryKeys } from '../api/queryKeys';
import { clearSession, clearSessionEnded, markSessionEnded, readTierData, readToken, touchActivity, writeSession, writeTierData } from './storage';

export interface AuthContextValue {
  token: string | null;
  isAuthenticated: boolean;
  /** True after the user logged out on purpose: the next login page carries no origin. */
  signedOutByUser: boolean;
  /** The signed-in user from `GET accounts/user/` (undefined while loading). */
  user: CurrentUserResponse | undefined;
  userLoading: boolean;
  /** Stores the session of a successful login (token, user_id, tier_data + tier-data-updated event). */
  signIn: (login: LoginResponse) => void;
  /** Revokes the token on the server (best effort) and drops the local session. */
  signOut: () => Promise<void>;
  /** Ends every session of the user on the server (all devices), then this one here. Throws when the server refused. */
  signOutEverywhere: () => Promise<void>;
  /** Drops a stored token without a server call (failed login or registration, spec 000 §4). */
  forgetSession: () => void;
  /** Drops the session because it ended by itself (idle time-out): the login page says so. */
  sessionLost: () => void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(() => readToken());
  const [signedOutByUser, setSignedOutByUser] = useState(false);

  const dropSession = useCallback(() => {
    clearSession();
    setToken(null);
    queryClient.clear();
  }, [queryClient]);

  // 401 on a data call: the token is dropped; RequireAuth then sends the visitor to /login with the origin.
  // A 403 (role may not do this) keeps the session; the caller shows its detail.
  // The login page then says "Your session ended" instead of showing a bare form.
  const sessionLost = useCallback(() => {
    markSessionEnded();
    dropSession();
  }, [dropSession]);
  useEffect(() => {
    setUnauthorizedHandler(sessionLost);
    return () => setUnauthorizedHandler(null);
  }, [sessionLost]);

  // Another tab signed in or out.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === null || e.key === STORAGE_KEYS.token) setToken(readToken());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const userQuery = useQuery({ queryKey: queryKeys.currentUser, queryFn: fetchCurrentUser, enabled: token !== null });

  // Keep the stored tier data in step with the server (an admin may change the tier).
  useEffect(() => {
    const fresh = userQuery.data?.tier_data;
    if (!fresh) return;
    if (JSON.stringify(readTierData()) !== JSON.stringify(fresh)) writeTierData(fresh);
  }, [userQuery.data]);

  const signIn = useCallback(
    (login: LoginResponse) => {
      queryClient.clear();
      writeSession({ token: login.token, userId: login.user.id, tierData: login.tier_data });
      clearSessionEnded();
      touchActivity();
      setSignedOutByUser(false);
      setToken(login.token);
    },
    [queryClient],
  );

  const signOut = useCallback(async () => {
    // Drop the local session at once, then revoke the token on the server (best effort).
    const current = readToken();
    setSignedOutByUser(true);
    dropSession();
    if (!current) return;
    try {
      await logoutCall(current);
    } catch (err) {
      console.warn('Logout call failed; the local session is gone anyway.', err);
    }
  }, [dropSession]);

  const signOutEverywhere = useCallback(async () => {
    const current = readToken();
    if (current) await logoutEverywhere(current);
    setSignedOutByUser(true);
    dropSession();
  }, [dropSession]);

  const forgetSession = useCallback(() => {
    if (readToken()) dropSession();
  }, [dropSession]);

  const value = useMemo<AuthContextValue>(
    () => ({
      token,
      isAuthenticated: token !== null,
      signedOutByUser,
      user: token ? userQuery.data : undefined,
      userLoading: token !== null && userQuery.isPending,
      signIn,
      signOut,
      signOutEverywhere,
      forgetSession,
      sessionLost,
    }),
    [token, signedOutByUser, userQuery.data, userQuery.isPending, signIn, signOut, signOutEverywhere, forgetSession, sessionLost],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>');
  return ctx;
}
