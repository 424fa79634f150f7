import { ToastProvider, IdeBridgeContext } from '@marketplace/ui';
import { Suspense, useEffect } from 'react';
import {
  NavLink,
  Link as RouterLink,
  Outlet,
  ScrollRestoration,
  useLocation,
  useNavigate,
} from 'react-router';
import { AuthProvider, useAuth } from '../auth/AuthProvider';
import { pageIdeBridge } from '../lib/ide-bridge';
import { internalNavigation } from '../lib/internal-links';
import { ConsentBanner, ConsentSettingsLink } from './ConsentBanner';
import { PageLoading } from './PageLoading';
import { SearchBox } from './SearchBox';
import { SiteFooterLinks } from './SiteFooterLinks';

function AccountMenu() {
  const { user, available, signIn, signOut } = useAuth();
  const location = useLocation();
  if (user === undefined || !available) return null;
  if (!user) {
    return (
      <button
        type="button"
        className="mp-button site-header__sign-in"
        onClick={() => void signIn(`${location.pathname}${location.search}`)}
      >
        Sign in
      </button>
    );
  }
  return (
    <div className="site-header__account">
      <RouterLink to={`/author/${user.id}`} className="site-header__user">
        {user.name || user.login}
      </RouterLink>
      <button type="button" className="site-header__sign-out" onClick={() => void signOut()}>
        Sign out
      </button>
    </div>
  );
}

function Header() {
  const { user } = useAuth();
  return (
    <header className="site-header">
      <div className="site-header__inner">
        <RouterLink to="/" className="site-logo" aria-label="Marketplace home">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>Marketplace</span>
        </RouterLink>
        <SearchBox />
        <nav className="site-nav" aria-label="Main">
          <NavLink to="/search">Browse</NavLink>
          {user ? <NavLink to="/dashboard">My items</NavLink> : null}
          {user ? <NavLink to="/account/licenses">Licences</NavLink> : null}
          {user?.isAdmin ? <NavLink to="/admin">Moderation</NavLink> : null}
        </nav>
        <AccountMenu />
      </div>
    </header>
  );
}

/** The frame of every site page: header, content, footer, toasts, and the IDE bridge the buttons share. */
export function SiteLayout() {
  const navigate = useNavigate();
  // The components' cards and links are plain anchors: clicks on the site's own pages stay in the app.
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const target = internalNavigation(event, location.origin);
      if (target === undefined) return;
      event.preventDefault();
      void navigate(target);
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [navigate]);
  return (
    <AuthProvider>
      <IdeBridgeContext.Provider value={pageIdeBridge()}>
        <ToastProvider>
          <div className="mp-root site">
            <a className="site-skip" href="#main">
              Skip to content
            </a>
            <Header />
            <ConsentBanner />
            <main id="main" className="site-main">
              <Suspense fallback={<PageLoading />}>
                <Outlet />
              </Suspense>
            </main>
            <footer className="site-footer">
              <span>Marketplace — plugins, themes and courses for your IDE</span>
              <a href="/api/openapi.json">API</a>
              <ConsentSettingsLink />
              <SiteFooterLinks />
            </footer>
          </div>
        </ToastProvider>
      </IdeBridgeContext.Provider>
      {/* Back and Forward return to the scroll position the visitor left (spec §2). */}
      <ScrollRestoration />
    </AuthProvider>
  );
}
