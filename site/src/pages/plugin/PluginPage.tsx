import type { Plugin } from '@marketplace/api-client';
import {
  formatNumber,
  itemNoun,
  parseProductPageId,
  pricingModelLabel,
  downloadWording,
} from '@marketplace/core';
import { StarRating } from '@marketplace/ui';
import { Suspense, useRef, useState } from 'react';
import { NavLink, useParams } from 'react-router';
import { PageLoading } from '../../components/PageLoading';
import { RequireSignIn } from '../../components/RequireSignIn';
import { loadSanitizer } from '../../components/SafeHtml';
import { api } from '../../lib/api';
import { itemHead } from '../../lib/item-head';
import { isHydrating } from '../../lib/page-data';
import { takePrefetchedPlugin } from '../../lib/prefetch';
import { useServerRender, useSiteOrigin } from '../../lib/server-render';
import { errorText, isNotFound } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';
import { usePublishedPages } from './custom-pages/use-custom-pages';
import { useManagement } from './use-management';
import { ReportAction } from './ReportAction';
import { MirroredFrom } from './MirroredFrom';
import { InstallButtonPending } from './InstallButtonPending';
import { lazyPart } from './lazy-part';

// Each tab's code is a chunk of its own, so the page's first load carries the tab it shows only; the server
// preloads the one it draws and the browser loads it before hydrating (lazyPart).
const Overview = lazyPart(
  () => import('./OverviewTab').then((module) => module.OverviewTab),
  'src/pages/plugin/OverviewTab.tsx',
);
const Versions = lazyPart(
  () => import('./VersionsTab').then((module) => module.VersionsTab),
  'src/pages/plugin/VersionsTab.tsx',
);
const Reviews = lazyPart(
  () => import('./ReviewsTab').then((module) => module.ReviewsTab),
  'src/pages/plugin/ReviewsTab.tsx',
);
const Pricing = lazyPart(
  () => import('./PricingTab').then((module) => module.PricingTab),
  'src/pages/plugin/PricingTab.tsx',
);
const CustomPages = lazyPart(
  () => import('./custom-pages/CustomPagesTab').then((module) => module.default),
  'src/pages/plugin/custom-pages/CustomPagesTab.tsx',
);
// The not-found page, for an address that names no item: most visitors of an item page never see it.
const NotFound = lazyPart(
  () => import('../NotFoundPage').then((module) => module.default),
  'src/pages/NotFoundPage.tsx',
);
// The tabs of the item's people, which the server never draws (it renders for a guest).
const Sales = lazyPart(() => import('./SalesTab').then((module) => module.SalesTab));
const Monetization = lazyPart(() => import('./MonetizationTab').then((module) => module.MonetizationTab));
const Analytics = lazyPart(() => import('./analytics/AnalyticsTab').then((module) => module.default));
const ExceptionAnalyzer = lazyPart(() =>
  import('./exceptions/ExceptionAnalyzerTab').then((module) => module.default),
);
// The install button and the IDE bridge load once the page is drawn: the server's markup (the button as it
// is before it knows of any IDE) stays until then.
const Install = lazyPart(() => import('./ItemInstall').then((module) => module.ItemInstall));

/** The tabs that exist (spec §2 lists more; those whose features are not built are not shown at all). */
type TabKey =
  | ''
  | 'versions'
  | 'reviews'
  | 'pricing'
  | 'custom-pages'
  | 'sales'
  | 'analytics'
  | 'monetization'
  | 'exception-analyzer';

/** The tabs only the item's people and administrators see (see useManagement for how the page knows). */
const MANAGER_TABS: readonly { key: TabKey; label: string }[] = [
  { key: 'sales', label: 'Sales' },
  { key: 'analytics', label: 'Analytics' },
  { key: 'monetization', label: 'Monetization' },
  { key: 'exception-analyzer', label: 'Exception analyzer' },
];

/** Each tab's code, and whether the tab shows HTML (SafeHtml: the browser sanitises it after a navigation). */
const TAB_CODE: Record<TabKey, { load: () => Promise<unknown>; html?: boolean }> = {
  '': { load: Overview.load, html: true },
  versions: { load: Versions.load, html: true },
  reviews: { load: Reviews.load },
  pricing: { load: Pricing.load },
  'custom-pages': { load: CustomPages.load, html: true },
  sales: { load: Sales.load },
  analytics: { load: Analytics.load },
  monetization: { load: Monetization.load },
  'exception-analyzer': { load: ExceptionAnalyzer.load },
};

/** Starts loading what a tab needs in the browser, before it is shown (a navigation, a link pointed at). */
function loadTab(key: string): void {
  const code = Object.hasOwn(TAB_CODE, key) ? TAB_CODE[key as TabKey] : undefined;
  if (!code) return;
  void code.load();
  if (code.html) void loadSanitizer();
}

function tabsOf(plugin: Plugin, manages: boolean, hasPages = false): { key: TabKey; label: string }[] {
  return [
    { key: '', label: 'Overview' },
    { key: 'versions', label: 'Versions' },
    { key: 'reviews', label: 'Reviews' },
    ...(plugin.info.pricingModel === 'FREE' ? [] : [{ key: 'pricing' as const, label: 'Pricing' }]),
    ...(hasPages ? [{ key: 'custom-pages' as const, label: 'Custom pages' }] : []),
    ...(manages ? MANAGER_TABS : []),
  ];
}

/**
 * The item's icon, or its first letter when it has none or the image does not load (the icon of an item
 * waiting for approval answers only signed-in requests, and an `<img>` sends no token).
 */
function ItemIcon({ icon, name }: { icon: string; name: string }) {
  const [failed, setFailed] = useState<string>();
  if (icon && failed !== icon)
    return (
      <img
        className="site-item__icon"
        src={icon}
        alt=""
        width={80}
        height={80}
        onError={() => setFailed(icon)}
      />
    );
  return (
    <span className="site-item__icon site-item__icon--letter" aria-hidden="true">
      {name.charAt(0).toUpperCase()}
    </span>
  );
}

export default function PluginPage() {
  const { item = '', page, tab = page === undefined ? '' : 'custom-pages' } = useParams();
  const pluginId = parseProductPageId(item);
  // Only the first load of this page may use the answer the router asked for; reloads (after a review) ask afresh.
  const firstLoad = useRef(true);
  const [plugin, reload] = useLoad(
    (signal) => {
      if (pluginId === undefined) return Promise.reject(new Error('not found'));
      const prefetched = firstLoad.current ? takePrefetchedPlugin(pluginId) : undefined;
      firstLoad.current = false;
      // fullInfo: the overview shows the item's developers and the items of a bundle (spec §3).
      return prefetched ?? api.getPlugin(pluginId, { fullInfo: true }, { signal });
    },
    [pluginId],
  );
  const server = useServerRender();
  // After a navigation the tab's code loads beside the item's data (a hydrated page has it already).
  if (!server && !isHydrating()) loadTab(tab);
  const management = useManagement(pluginId);
  const customPages = usePublishedPages(pluginId);
  const origin = useSiteOrigin();
  usePageTitle(plugin.status === 'resolved' ? plugin.data.info.name : undefined, () =>
    plugin.status === 'resolved'
      ? itemHead(plugin.data, origin, page === undefined ? tab : `custom-pages/${page}`)
      : {},
  );

  if (pluginId === undefined || (plugin.status === 'rejected' && isNotFound(plugin.error)))
    return <NotFound.Part />;
  if (plugin.status === 'rejected') {
    return (
      <div className="site-message" role="alert">
        <h1>This item could not be loaded</h1>
        <p>{errorText(plugin.error)}</p>
      </div>
    );
  }
  if (plugin.status === 'pending') return <PageLoading />;
  const data = plugin.data;
  const tabs = tabsOf(data, management.status === 'yes', customPages !== 'pending' && customPages.length > 0);
  const current = tabs.find((candidate) => candidate.key === tab);
  const managerTab = MANAGER_TABS.some(({ key }) => key === tab);
  if (!current && managerTab && management.status === 'pending') return <PageLoading />;
  if (!current && tab === 'custom-pages' && customPages === 'pending') return <PageLoading />;
  // A guest who follows a link to the sales tab is asked to sign in (RequireSignIn's prompt) rather than told 404.
  if (!current && managerTab && management.status === 'guest')
    return <RequireSignIn>{() => null}</RequireSignIn>;
  if (!current) return <NotFound.Part />;
  const base = data.info.link;
  const family = data.info.family;

  return (
    <div className="site-page site-item">
      <header className="site-item__head">
        <ItemIcon icon={data.info.icon} name={data.info.name} />
        <div className="site-item__title">
          <h1>{data.info.name}</h1>
          <p className="site-item__meta">
            {data.vendor.name ? <span>{data.vendor.name}</span> : null}
            <MirroredFrom origin={data.mirroredFrom} />
            <span className="site-item__rating">
              <StarRating value={data.rating.meanRating} size="s" />
              <span>{data.rating.meanRating ? data.rating.meanRating.toFixed(1) : 'Not rated yet'}</span>
            </span>
            <span>
              {formatNumber(data.info.downloads)} {downloadWording(family, { plural: true })}
            </span>
            <span className="site-badge">{pricingModelLabel(data.info.pricingModel)}</span>
            {data.info.isBlocked ? <span className="site-badge site-badge--danger">Blocked</span> : null}
            {!data.info.approve ? (
              <span className="site-badge site-badge--warning">Waiting for approval</span>
            ) : null}
          </p>
        </div>
        <div className="site-item__install">
          <Suspense fallback={<InstallButtonPending />}>
            <Install.Part
              pluginXmlId={data.info.xmlId}
              pluginUrl={`${origin}${base}`}
              marketplaceUrl={origin}
              versionsPath={`${base}/versions`}
              family={family}
            />
          </Suspense>
          <ReportAction target={{ pluginId: data.id, family }} />
        </div>
      </header>
      <nav className="site-tabs" aria-label={`${itemNoun(family, { capitalised: true })} sections`}>
        {tabs.map(({ key, label }) => (
          // The custom-pages tab stays highlighted on its pages' own URLs (/custom-pages/{page-url}).
          <NavLink
            key={key}
            to={key ? `${base}/${key}` : base}
            end={key !== 'custom-pages'}
            // The tab's code starts loading as the visitor points at it, so it opens as soon as clicked.
            onPointerEnter={() => loadTab(key)}
            onFocus={() => loadTab(key)}
          >
            {label}
          </NavLink>
        ))}
      </nav>
      <div className="site-tab-panel">
        <Suspense fallback={<PageLoading />}>
          {current.key === '' ? <Overview.Part plugin={data} /> : null}
          {current.key === 'versions' ? <Versions.Part plugin={data} /> : null}
          {current.key === 'reviews' ? (
            <Reviews.Part plugin={data} onRatingChange={reload} canReply={management.status === 'yes'} />
          ) : null}
          {current.key === 'pricing' ? <Pricing.Part plugin={data} /> : null}
          {current.key === 'sales' ? <Sales.Part plugin={data} /> : null}
          {current.key === 'monetization' && management.status === 'yes' ? (
            <Monetization.Part plugin={data} monetization={management.monetization} />
          ) : null}
          {current.key === 'custom-pages' && customPages !== 'pending' ? (
            <CustomPages.Part plugin={data} pages={customPages} />
          ) : null}
          {current.key === 'analytics' ? <Analytics.Part plugin={data} /> : null}
          {current.key === 'exception-analyzer' ? <ExceptionAnalyzer.Part plugin={data} /> : null}
        </Suspense>
      </div>
    </div>
  );
}
