import {
  downloadWording,
  formatNumber,
  STATISTICS_LOADING,
  STATISTICS_MAX_DAYS,
  STATISTICS_UNAVAILABLE,
  statisticsBarHeights,
  type ProductFamily,
} from '@marketplace/core';

export interface DownloadPoint {
  /** The day, yyyy-MM-dd. */
  name: string;
  value: number;
}

export interface DownloadsChartProps {
  /** pending: the statistics are on their way; rejected: they failed; resolved: `points` holds them. */
  status: 'pending' | 'rejected' | 'resolved';
  /** Downloads per day, oldest first; only the last 30 are drawn. */
  points?: readonly DownloadPoint[];
  /** The item's family: its counts say 'installations' for space, 'downloads' otherwise (spec §1). */
  family?: ProductFamily;
}

/** Downloads per day over the last 30 days as bars, with the total in words. */
export function DownloadsChart({ status, points: allPoints = [], family }: DownloadsChartProps) {
  const counted = downloadWording(family, { plural: true });
  if (status === 'pending') {
    return (
      <div className="mp-chart" role="status" aria-busy="true">
        <p className="mp-chart__message">{STATISTICS_LOADING}</p>
      </div>
    );
  }
  if (status === 'rejected') {
    return (
      <div className="mp-chart">
        <p className="mp-chart__message">{STATISTICS_UNAVAILABLE}</p>
      </div>
    );
  }
  const points = allPoints.slice(-STATISTICS_MAX_DAYS);
  const heights = statisticsBarHeights(points.map((point) => point.value));
  const total = points.reduce((sum, point) => sum + point.value, 0);
  const caption = `${formatNumber(total)} ${counted} in the last ${points.length} days`;
  return (
    <figure className="mp-chart" style={{ margin: 0 }}>
      <ul
        className="mp-chart__bars"
        aria-label={`${downloadWording(family, { plural: true, capitalised: true })} per day`}
      >
        {points.map((point, index) => {
          const height = heights[index] ?? 0;
          const text = `${point.name}: ${formatNumber(point.value)} ${counted}`;
          return (
            <li
              key={point.name}
              className={`mp-chart__bar${height === 0 ? ' mp-chart__bar--empty' : ''}`}
              style={{ height: `${Math.max(height, 2)}%` }}
              title={text}
              aria-label={text}
            />
          );
        })}
      </ul>
      <figcaption className="mp-chart__caption">{caption}</figcaption>
    </figure>
  );
}
