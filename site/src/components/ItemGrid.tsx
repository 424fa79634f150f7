import type { PluginSummary } from '@marketplace/api-client';
import { PluginCard, PluginCardSkeleton, ThemeCard, ThemeCardSkeleton } from '@marketplace/ui';

/** Plugin and theme cards in a grid; while loading, the same number of skeletons keeps the layout still. */
export function ItemGrid({
  items,
  loading = false,
  skeletons = 6,
  label,
}: {
  items: readonly PluginSummary[] | undefined;
  loading?: boolean;
  skeletons?: number;
  label: string;
}) {
  if (!items) {
    return (
      <ul className="site-grid" aria-label={label} aria-busy="true">
        {Array.from({ length: skeletons }, (_, index) => (
          <li key={index}>{index % 4 === 3 ? <ThemeCardSkeleton /> : <PluginCardSkeleton />}</li>
        ))}
      </ul>
    );
  }
  const now = Date.now();
  return (
    <ul className={`site-grid${loading ? ' is-loading' : ''}`} aria-label={label} aria-busy={loading}>
      {items.map((item) => (
        <li key={item.id}>
          {item.isTheme ? <ThemeCard item={item} now={now} /> : <PluginCard item={item} now={now} />}
        </li>
      ))}
    </ul>
  );
}
