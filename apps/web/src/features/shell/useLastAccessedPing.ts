import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { LAST_ACCESSED_PING_MS, PUBLIC_ROUTES } from '@crp/contracts';
import { updateLastAccessed } from '../../api/accounts';
import { readToken } from '../../lib/storage';

const PUBLIC = new Set<string>(PUBLIC_ROUTES);

function ping(path: string): void {
  if (!readToken()) return; // with no token nothing is done (spec 000 §8)
  updateLastAccessed(path).catch((err: unknown) => console.warn('update_last_accessed failed', err));
}

/**
 * Reports the current page path on load and every 5 minutes while a token exists (spec 000 §4).
 * "On load" is the first signed-in page of a session: right after login that is the page login leads to.
 */
export function useLastAccessedPing(token: string | null): void {
  const { pathname } = useLocation();
  const pathRef = useRef(pathname);
  pathRef.current = pathname;
  const reported = useRef(false);

  useEffect(() => {
    if (!token) {
      reported.current = false;
      return;
    }
    if (!reported.current && !PUBLIC.has(pathname)) {
      reported.current = true;
      ping(pathname);
    }
  }, [token, pathname]);

  useEffect(() => {
    if (!token) return;
    const timer = window.setInterval(() => ping(pathRef.current), LAST_ACCESSED_PING_MS);
    return () => window.clearInterval(timer);
  }, [token]);
}
