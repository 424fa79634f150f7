import { STATISTICS_LOADING } from '@marketplace/core';
import { LoadingPlaceholder } from '@marketplace/ui';

/** 'Getting statistics...' (spec §4) above grey lines where the figures will be, so the page does not jump. */
export function StatisticsLoading({ lines = 4 }: { lines?: number }) {
  return (
    <div className="site-analytics-loading">
      <p className="site-muted" role="status">
        {STATISTICS_LOADING}
      </p>
      <LoadingPlaceholder decorative lines={lines} />
    </div>
  );
}
