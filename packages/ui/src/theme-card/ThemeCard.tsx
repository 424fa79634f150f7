import { NO_DESCRIPTION, THEME_CARD_IMAGE } from '@marketplace/core';
import type { ReactNode } from 'react';
import type { CardItem } from '../plugin-card/card-data';
import { assetUrl, CardChart, CardLink, CardMeta, itemHref } from '../plugin-card/PluginCard';
import { LoadingPlaceholder } from '../loading-placeholder/LoadingPlaceholder';
import { StarRating } from '../star-rating/StarRating';

export interface ThemeCardProps {
  item: CardItem;
  /** A screenshot of the theme, shown at 382x213; a relative address is resolved on `assetBase`. */
  imageUrl?: string;
  baseUrl?: string;
  /** Where relative image addresses are resolved from (see PluginCardProps.assetBase). */
  assetBase?: string;
  newWindow?: boolean;
  now?: number;
  /** Shown at the bottom instead of the chart of `item.downloadStatistics` (see PluginCardProps.chart). */
  chart?: ReactNode;
}

/** A theme in a list: a large screenshot, then name, vendor, rating, numbers and the 30-day chart. */
export function ThemeCard({
  item,
  imageUrl,
  baseUrl,
  assetBase,
  newWindow = false,
  now = Date.now(),
  chart,
}: ThemeCardProps) {
  const description = item.preview.trim();
  return (
    <article className="mp-card mp-card--theme" aria-label={item.name}>
      {imageUrl ? (
        <img
          className="mp-card__image"
          src={assetUrl(imageUrl, assetBase)}
          alt={`${item.name} screenshot`}
          width={THEME_CARD_IMAGE.width}
          height={THEME_CARD_IMAGE.height}
          loading="lazy"
        />
      ) : (
        <span className="mp-card__image" aria-hidden="true" />
      )}
      <div>
        <h3 className="mp-card__name">
          <CardLink href={itemHref(item.link, baseUrl)} newWindow={newWindow}>
            {item.name}
          </CardLink>
        </h3>
        {item.vendor.name ? <p className="mp-card__vendor">{item.vendor.name}</p> : null}
      </div>
      <div className="mp-card__rating">
        <StarRating value={item.rating} size="s" />
      </div>
      <p className={`mp-card__description${description ? '' : ' mp-card__description--empty'}`}>
        {description || NO_DESCRIPTION}
      </p>
      <CardMeta item={item} now={now} />
      <CardChart item={item} chart={chart} />
    </article>
  );
}

/** Stands in for a theme card while its item loads. */
export function ThemeCardSkeleton() {
  return (
    <div
      className="mp-card mp-card--theme mp-card--skeleton"
      role="status"
      aria-busy="true"
      aria-label="Loading theme"
    >
      <span className="mp-skeleton mp-card__image" />
      <LoadingPlaceholder decorative />
    </div>
  );
}
