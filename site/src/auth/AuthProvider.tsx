import { isApiError, type AuthUser } from '@marketplace/api-client';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api } from '../lib/api';
import { needsForcedTokenRefresh } from './crawler';
import { readStored, sessionStore } from './storage';
import {
  CALLBACK_PATH,
  clearTokens,
  currentAccessToken,
  identityService,
  onSessionChange,
  REDIRECT_FLAG_KEY,
  signOut as signOutEverywhere,
  startSignIn,
} from './session';

/** The auth user of a signed-in person (never a guest): id, name and login are known. */
export type SignedInUser = Pick<AuthUser, 'email' | 'banned' | 'isAdmin'> & {
  id: NonNullable<AuthUser['id']>;
  name: string;
  login: string;
};

export interface AuthState {
  /** Undefined while the first check runs. */
  user: SignedInUser | null | undefined;
  /** Sign-in is possible (the page names an identity service). */
  available: boolean;
  signIn(returnTo?: string): Promise<void>;
  signOut(): Promise<void>;
}

const AuthContext = createContext<AuthState | null>(null);

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth needs <AuthProvider>.');
  return state;
}

/**
 * Who is signed in: checked once per page load (spec §4: auth is initialised once), and again when another tab
 * of the browser signs in or out, since the tabs share one sign-in (see session.ts).
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<SignedInUser | null | undefined>(undefined);
  const [sessionChanges, setSessionChanges] = useState(0);
  const available = identityService() !== undefined;

  useEffect(() => onSessionChange(() => setSessionChanges((count) => count + 1)), []);

  useEffect(() => {
    if (location.pathname === CALLBACK_PATH) return;
    const controller = new AbortController();
    if (!currentAccessToken()) {
      setUser(null);
      const redirected = readStored<boolean>(sessionStore(), REDIRECT_FLAG_KEY) === true;
      if (
        available &&
        needsForcedTokenRefresh({
          userAgent: navigator.userAgent,
          cookieEnabled: navigator.cookieEnabled,
          redirected,
        })
      ) {
        startSignIn({ silent: true }).catch((error: unknown) => console.warn('Silent sign-in failed', error));
      }
      return;
    }
    api
      .request<AuthUser>({ method: 'GET', path: '/api/users/me', signal: controller.signal })
      .then((answer) => {
        const me = answer.kind === 'json' ? answer.data : undefined;
        if (!me || me.guest || me.id === null) {
          clearTokens();
          setUser(null);
        } else {
          setUser({
            id: me.id,
            name: me.name ?? me.login ?? '',
            login: me.login ?? '',
            email: me.email,
            banned: me.banned,
            isAdmin: me.isAdmin,
          });
        }
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.warn('Could not read the signed-in user', error);
        // An expired or revoked token (401) is forgotten, in every tab; a failure of the call itself leaves
        // the other tabs' sign-in alone, and this tab continues as a guest.
        if (isApiError(error) && error.status === 401) clearTokens();
        setUser(null);
      });
    return () => controller.abort();
  }, [available, sessionChanges]);

  const signIn = useCallback(
    async (returnTo?: string) => {
      // Spec §4: the sign-in flow starts only for a guest.
      if (user) return;
      await startSignIn(returnTo === undefined ? {} : { returnTo });
    },
    [user],
  );

  const value = useMemo<AuthState>(
    () => ({ user, available, signIn, signOut: signOutEverywhere }),
    [user, available, signIn],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
