import type { Plugin } from '@marketplace/api-client';
import {
  formatNumber,
  itemNoun,
  parseProductPageId,
  pricingModelLabel,
  downloadWording,
} from '@marketplace/core';
import { InstallButton, StarRating } from '@marketplace/ui';
import { lazy, Suspense, useRef, useState } from 'react';
import { NavLink, useParams } from 'react-router';
import { PageLoading } from '../../components/PageLoading';
import { RequireSignIn } from '../../components/RequireSignIn';
import { api } from '../../lib/api';
import { takePrefetchedPlugin } from '../../lib/prefetch';
import { errorText, isNotFound } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';
import NotFoundPage from '../NotFoundPage';
import { MonetizationTab } from './MonetizationTab';
import { OverviewTab } from './OverviewTab';
import { PricingTab } from './PricingTab';
import { ReviewsTab } from './ReviewsTab';
import { SalesTab } from './SalesTab';
import { usePublishedPages } from './custom-pages/use-custom-pages';
import { useManagement } from './use-management';
import { VersionsTab } from './VersionsTab';
import { ReportAction } from './ReportAction';
import { GetItem } from './GetItem';

// The vendor's insight tabs carry charts and tables no visitor needs: their code loads when they open.
const AnalyticsTab = lazy(() => import('./analytics/AnalyticsTab'));
const ExceptionAnalyzerTab = lazy(() => import('./exceptions/ExceptionAnalyzerTab'));
const CustomPagesTab = lazy(() => import('./custom-pages/CustomPagesTab'));

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
  const management = useManagement(pluginId);
  const customPages = usePublishedPages(pluginId);
  usePageTitle(plugin.status === 'resolved' ? plugin.data.info.name : undefined);

  if (pluginId === undefined || (plugin.status === 'rejected' && isNotFound(plugin.error)))
    return <NotFoundPage />;
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
  if (!current) return <NotFoundPage />;
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
          <InstallButton
            pluginXmlId={data.info.xmlId}
            pluginUrl={`${location.origin}${base}`}
            marketplaceUrl={location.origin}
            whenNoIde={<GetItem versionsPath={`${base}/versions`} family={family} />}
          />
          <ReportAction target={{ pluginId: data.id, family }} />
        </div>
      </header>
      <nav className="site-tabs" aria-label={`${itemNoun(family, { capitalised: true })} sections`}>
        {tabs.map(({ key, label }) => (
          // The custom-pages tab stays highlighted on its pages' own URLs (/custom-pages/{page-url}).
          <NavLink key={key} to={key ? `${base}/${key}` : base} end={key !== 'custom-pages'}>
            {label}
          </NavLink>
        ))}
      </nav>
      <div className="site-tab-panel">
        {current.key === '' ? <OverviewTab plugin={data} /> : null}
        {current.key === 'versions' ? <VersionsTab plugin={data} /> : null}
        {current.key === 'reviews' ? (
          <ReviewsTab plugin={data} onRatingChange={reload} canReply={management.status === 'yes'} />
        ) : null}
        {current.key === 'pricing' ? <PricingTab plugin={data} /> : null}
        {current.key === 'sales' ? <SalesTab plugin={data} /> : null}
        {current.key === 'monetization' && management.status === 'yes' ? (
          <MonetizationTab plugin={data} monetization={management.monetization} />
        ) : null}
        {current.key === 'custom-pages' && customPages !== 'pending' ? (
          <Suspense fallback={<PageLoading />}>
            <CustomPagesTab plugin={data} pages={customPages} />
          </Suspense>
        ) : null}
        {current.key === 'analytics' || current.key === 'exception-analyzer' ? (
          <Suspense fallback={<PageLoading />}>
            {current.key === 'analytics' ? (
              <AnalyticsTab plugin={data} />
            ) : (
              <ExceptionAnalyzerTab plugin={data} />
            )}
          </Suspense>
        ) : null}
      </div>
    </div>
  );
}
