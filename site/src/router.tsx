import { createBrowserRouter, type HydrationState, type RouteObject } from 'react-router';
import { RouteError } from './components/RouteError';
import { SiteLayout } from './components/SiteLayout';
import { prefetchPlugin } from './lib/prefetch';

/**
 * What shows while the first page's code loads: nothing beyond the HTML (React Router warns on every load
 * when a route tree with lazy pages names no fallback).
 */
function NothingYet() {
  return null;
}

/** A page module loaded on first visit, so the first page downloads only its own code. */
function page(load: () => Promise<{ default: React.ComponentType }>): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load()).default }) };
}

/** What a route tells the server that renders it (site-hosting): the page module, to preload its files. */
export interface SiteRouteHandle {
  /** The module's path in the site, as the build's manifest names it. */
  module: string;
}

function rendered(module: string): Pick<RouteObject, 'handle'> {
  return { handle: { module } satisfies SiteRouteHandle };
}

export const routes: RouteObject[] = [
  {
    // Embed pages: no site chrome, transparent, may be framed (the server's headers say so).
    path: '/embeddable/:type/:pluginId',
    HydrateFallback: NothingYet,
    ...page(() => import('./pages/embed/EmbedPage')),
  },
  {
    path: '/',
    Component: SiteLayout,
    HydrateFallback: NothingYet,
    ErrorBoundary: RouteError,
    children: [
      {
        index: true,
        ...rendered('src/pages/home/HomePage.tsx'),
        ...page(() => import('./pages/home/HomePage')),
      },
      {
        path: 'search',
        ...rendered('src/pages/search/SearchPage.tsx'),
        ...page(() => import('./pages/search/SearchPage')),
      },
      {
        path: 'plugin/:item/:tab?',
        // Returns at once: the item's data loads beside the page's code instead of after it.
        loader: ({ params }) => {
          prefetchPlugin(params.item);
          return null;
        },
        ...rendered('src/pages/plugin/PluginPage.tsx'),
        ...page(() => import('./pages/plugin/PluginPage')),
      },
      {
        path: 'plugin/:item/custom-pages/:page',
        loader: ({ params }) => {
          prefetchPlugin(params.item);
          return null;
        },
        ...rendered('src/pages/plugin/PluginPage.tsx'),
        ...page(() => import('./pages/plugin/PluginPage')),
      },
      {
        path: 'author/:userId',
        ...rendered('src/pages/user/UserPage.tsx'),
        ...page(() => import('./pages/user/UserPage')),
      },
      { path: 'dashboard', ...page(() => import('./pages/dashboard/DashboardPage')) },
      { path: 'dashboard/new', ...page(() => import('./pages/dashboard/NewPluginPage')) },
      { path: 'dashboard/plugin/:pluginId', ...page(() => import('./pages/dashboard/EditPluginPage')) },
      {
        path: 'dashboard/plugin/:pluginId/selling',
        ...page(() => import('./pages/dashboard/SellingPage')),
      },
      {
        path: 'dashboard/plugin/:pluginId/custom-pages',
        ...page(() => import('./pages/dashboard/CustomPagesPage')),
      },
      { path: 'dashboard/selling/apply', ...page(() => import('./pages/dashboard/SellerApplicationPage')) },
      { path: 'dashboard/tokens', ...page(() => import('./pages/dashboard/TokensPage')) },
      { path: 'dashboard/namespaces', ...page(() => import('./pages/dashboard/NamespacesPage')) },
      { path: 'admin', ...page(() => import('./pages/admin/AdminPage')) },
      { path: 'admin/performance', ...page(() => import('./pages/admin/PerformancePage')) },
      { path: 'admin/users', ...page(() => import('./pages/admin/UsersPage')) },
      { path: 'admin/reports', ...page(() => import('./pages/admin/ReportsPage')) },
      { path: 'admin/audit', ...page(() => import('./pages/admin/AuditLogPage')) },
      { path: 'admin/features', ...page(() => import('./pages/admin/FeaturesPage')) },
      { path: 'admin/featured', ...page(() => import('./pages/admin/FeaturedPage')) },
      { path: 'admin/scheduler', ...page(() => import('./pages/admin/SchedulerPage')) },
      { path: 'admin/trust', ...page(() => import('./pages/admin/TrustPage')) },
      { path: 'admin/mirrors', ...page(() => import('./pages/admin/MirrorsPage')) },
      { path: 'trust/certificate', ...page(() => import('./pages/trust/CertificatePage')) },
      { path: 'account/licenses', ...page(() => import('./pages/account/LicensesPage')) },
      { path: 'auth/callback', ...page(() => import('./pages/auth/CallbackPage')) },
      { path: '*', ...rendered('src/pages/NotFoundPage.tsx'), ...page(() => import('./pages/NotFoundPage')) },
    ],
  },
];

/**
 * The browser's router. A server-rendered page passes the router's state it was rendered with, so its
 * loaders do not run again (see main.tsx).
 */
export function createSiteRouter(hydrationData?: HydrationState) {
  return createBrowserRouter(routes, hydrationData ? { hydrationData } : undefined);
}
