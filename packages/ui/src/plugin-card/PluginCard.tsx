import {
  downloadWording,
  formatDisplayDate,
  formatNumber,
  NO_DESCRIPTION,
  pricingModelLabel,
  shouldShowDownloads,
  shouldShowUpdateDate,
} from '@marketplace/core';
import { useState, type ReactNode } from 'react';
import { DownloadsChart } from '../downloads-chart/DownloadsChart';
import { LoadingPlaceholder } from '../loading-placeholder/LoadingPlaceholder';
import { StarRating } from '../star-rating/StarRating';
import type { CardItem } from './card-data';

export interface PluginCardProps {
  item: CardItem;
  /** Where the item's link is resolved from; give the marketplace's address when the card runs on another site. */
  baseUrl?: string;
  /** Open the item page in a new window (embedded cards do). */
  newWindow?: boolean;
  /** The current time, for the update-date rule. */
  now?: number;
  /**
   * Where the item's relative image addresses (the API gives `/files/...` paths) are resolved from: the
   * marketplace's address when the card runs on another site. Default: the page's own address.
   */
  assetBase?: string;
  /** Shown at the bottom instead of the chart of `item.downloadStatistics`, e.g. a chart still loading. */
  chart?: ReactNode;
}

export function itemHref(link: string, baseUrl: string | undefined): string {
  return baseUrl === undefined ? link : new URL(link, baseUrl).toString();
}

/**
 * An image address from the API made absolute on `assetBase` ('' stays ''); a base with a path keeps it
 * for relative addresses (`files/x.png` under `https://example.com/marketplace/`).
 */
export function assetUrl(address: string, assetBase: string | undefined): string {
  if (!address || assetBase === undefined) return address;
  try {
    return new URL(address, assetBase.endsWith('/') ? assetBase : `${assetBase}/`).href;
  } catch {
    return address;
  }
}

/**
 * The item's icon, or its first letter when it has none or the image does not load (an item waiting for
 * approval serves its icon only to a signed-in request, which an `<img>` is not): never a broken image.
 */
export function CardIcon({ icon, name, assetBase }: { icon: string; name: string; assetBase?: string }) {
  const src = assetUrl(icon, assetBase);
  const [failed, setFailed] = useState<string>();
  if (src && failed !== src)
    return (
      <img
        className="mp-card__icon"
        src={src}
        alt=""
        width={48}
        height={48}
        loading="lazy"
        onError={() => setFailed(src)}
      />
    );
  return (
    <span className="mp-card__icon mp-card__icon--letter" aria-hidden="true">
      {name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}

export function CardLink({
  href,
  newWindow,
  children,
}: {
  href: string;
  newWindow: boolean;
  children: ReactNode;
}) {
  return newWindow ? (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  ) : (
    <a href={href}>{children}</a>
  );
}

export function CardMeta({ item, now }: { item: CardItem; now: number }) {
  const showDate = shouldShowUpdateDate({ updatedAt: item.updateDate, now, isTheme: item.isTheme });
  return (
    <ul className="mp-card__meta">
      {shouldShowDownloads(item.downloads) ? (
        <li>{`${formatNumber(item.downloads)} ${downloadWording(item.family, { plural: true })}`}</li>
      ) : null}
      {showDate && item.updateDate !== null ? <li>Updated {formatDisplayDate(item.updateDate)}</li> : null}
      <li className="mp-card__pricing">{pricingModelLabel(item.pricingModel)}</li>
    </ul>
  );
}

/**
 * The chart at the bottom of a card: `chart` when given, else the downloads of the last 30 days the item
 * carries (lists and the item record send them), else nothing.
 */
export function CardChart({ item, chart }: { item: CardItem; chart?: ReactNode }) {
  if (chart !== undefined) return <>{chart}</>;
  return item.downloadStatistics ? (
    <DownloadsChart status="resolved" points={item.downloadStatistics} family={item.family} />
  ) : null;
}

/** An item in a list: icon, name, vendor, rating, description, downloads, update date, pricing and chart. */
export function PluginCard({
  item,
  baseUrl,
  assetBase,
  newWindow = false,
  now = Date.now(),
  chart,
}: PluginCardProps) {
  const description = item.preview.trim();
  return (
    <article className="mp-card" aria-label={item.name}>
      <div className="mp-card__header">
        <CardIcon icon={item.icon} name={item.name} assetBase={assetBase} />
        <div className="mp-card__titles">
          <h3 className="mp-card__name">
            <CardLink href={itemHref(item.link, baseUrl)} newWindow={newWindow}>
              {item.name}
            </CardLink>
          </h3>
          {item.vendor.name ? <p className="mp-card__vendor">{item.vendor.name}</p> : null}
        </div>
      </div>
      <div className="mp-card__rating">
        <StarRating value={item.rating} size="s" />
        {item.rating > 0 ? <span aria-hidden="true">{item.rating.toFixed(1)}</span> : null}
      </div>
      <p className={`mp-card__description${description ? '' : ' mp-card__description--empty'}`}>
        {description || NO_DESCRIPTION}
      </p>
      <CardMeta item={item} now={now} />
      <CardChart item={item} chart={chart} />
    </article>
  );
}

/** Stands in for a plugin card while its item loads. */
export function PluginCardSkeleton() {
  return (
    <div className="mp-card mp-card--skeleton" role="status" aria-busy="true" aria-label="Loading item">
      <div className="mp-card__header">
        <span className="mp-skeleton mp-card__skeleton-icon" />
        <div className="mp-card__titles" style={{ flex: 1 }}>
          <span className="mp-skeleton mp-card__skeleton-title" />
        </div>
      </div>
      <LoadingPlaceholder decorative />
    </div>
  );
}
