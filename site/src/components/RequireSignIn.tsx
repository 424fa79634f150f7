import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useAuth, type SignedInUser } from '../auth/AuthProvider';
import { PageLoading } from './PageLoading';

/** Pages for signed-in people: guests get a sign-in button instead of the page. */
export function RequireSignIn({ children }: { children: (user: SignedInUser) => ReactNode }) {
  const { user, available, signIn } = useAuth();
  const location = useLocation();
  if (user === undefined) return <PageLoading />;
  if (!user) {
    return (
      <div className="site-message">
        <h1>Sign in to continue</h1>
        <p>This page is for developers and administrators of the marketplace.</p>
        {available ? (
          <button
            type="button"
            className="mp-button"
            onClick={() => void signIn(`${location.pathname}${location.search}`)}
          >
            Sign in
          </button>
        ) : (
          <p className="site-muted">Sign-in is not configured on this server.</p>
        )}
      </div>
    );
  }
  return <>{children(user)}</>;
}
