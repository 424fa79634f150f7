import { NO_DESCRIPTION, THEME_CARD_IMAGE } from '@marketplace/core';
import { useState, type ReactNode } from 'react';
import type { CardItem } from '../plugin-card/card-data';
import { assetUrl, CardChart, CardLink, CardMeta, itemHref } from '../plugin-card/PluginCard';
import { LoadingPlaceholder } from '../loading-placeholder/LoadingPlaceholder';
import { StarRating } from '../star-rating/StarRating';

export interface ThemeCardProps {
  item: CardItem;
  /**
   * A screenshot of the theme, shown at 382x213; a relative address is resolved on `assetBase`. Default: the
   * card image the item carries (`item.image`, which list answers give themes with screenshots).
   */
  imageUrl?: string;
  baseUrl?: string;
  /** Where relative image addresses are resolved from (see PluginCardProps.assetBase). */
  assetBase?: string;
  newWindow?: boolean;
  now?: number;
  /** Shown at the bottom instead of the chart of `item.downloadStatistics` (see PluginCardProps.chart). */
  chart?: ReactNode;
}

/** A whole number from a text, the same every time: the cover's colours follow the theme's name. */
function hashOf(text: string): number {
  let hash = 0;
  for (const character of text) hash = (Math.imul(hash, 31) + (character.codePointAt(0) ?? 0)) >>> 0;
  return hash;
}

/** The generated cover of a theme without a screenshot: a gradient of two hues picked by its name. */
export function themeCoverBackground(name: string): string {
  const hash = hashOf(name.trim().toLowerCase());
  const first = hash % 360;
  const second = (first + 40 + ((hash >>> 9) % 100)) % 360;
  return `linear-gradient(135deg, hsl(${first} 62% 42%), hsl(${second} 58% 24%))`;
}

/**
 * The card's 382:213 frame (spec §2): the theme's screenshot, drawn over a generated cover with its name;
 * the cover shows while the screenshot loads, and instead of it when there is none or it does not load, so
 * the card never shows an empty box and nothing moves when the image arrives.
 */
function ThemeCover({ name, src }: { name: string; src: string }) {
  const [failed, setFailed] = useState<string>();
  const showImage = src !== '' && failed !== src;
  return (
    <div className="mp-card__cover" style={{ backgroundImage: themeCoverBackground(name) }}>
      {/* Decorative: the card's heading names the theme. */}
      <span className="mp-card__cover-name" aria-hidden="true">
        {name}
      </span>
      {showImage ? (
        <img
          className="mp-card__image"
          src={src}
          alt={`${name} screenshot`}
          width={THEME_CARD_IMAGE.width}
          height={THEME_CARD_IMAGE.height}
          loading="lazy"
          onError={() => setFailed(src)}
        />
      ) : null}
    </div>
  );
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
      <ThemeCover name={item.name} src={assetUrl(imageUrl ?? item.image ?? '', assetBase)} />
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
