import type { PluginSummary } from '@marketplace/api-client';
import { PluginCard, PluginCardSkeleton, ThemeCard, ThemeCardSkeleton } from '@marketplace/ui';
import type { ReactNode } from 'react';

/**
 * Plugin and theme cards in a grid, each with the item's 30-day download chart (every list answer carries
 * it); while loading, the same number of skeletons keeps the layout still. `actions` adds links under each
 * card (outside it: the whole card is the item's link). `className` is added to the list's (e.g.
 * `site-grid--six`: three, two or one columns, so six items fill their rows at every width).
 */
export function ItemGrid<Item extends PluginSummary>({
  items,
  loading = false,
  skeletons = 6,
  label,
  actions,
  className,
}: {
  items: readonly Item[] | undefined;
  loading?: boolean;
  skeletons?: number;
  label: string;
  actions?: (item: Item) => ReactNode;
  className?: string;
}) {
  const classes = className ? `site-grid ${className}` : 'site-grid';
  if (!items) {
    return (
      <ul className={classes} aria-label={label} aria-busy="true">
        {Array.from({ length: skeletons }, (_, index) => (
          <li key={index}>{index % 4 === 3 ? <ThemeCardSkeleton /> : <PluginCardSkeleton />}</li>
        ))}
      </ul>
    );
  }
  const now = Date.now();
  return (
    <ul className={`${classes}${loading ? ' is-loading' : ''}`} aria-label={label} aria-busy={loading}>
      {items.map((item) => (
        <li key={item.id} className={actions ? 'site-grid__item--actions' : undefined}>
          {item.isTheme ? <ThemeCard item={item} now={now} /> : <PluginCard item={item} now={now} />}
          {actions ? <div className="site-grid__actions">{actions(item)}</div> : null}
        </li>
      ))}
    </ul>
  );
}
