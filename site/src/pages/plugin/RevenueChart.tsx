import type { SalesAnalytics } from '@marketplace/api-client';
import { formatMoney, formatNumber, type Currency } from '@marketplace/core';
import { useId } from 'react';
import { barHeights, monthLabel, monthTick, niceAxisMax } from './revenue-chart';

const PLOT_HEIGHT = 180;
const AXIS_WIDTH = 72;
/** The narrowest a month's slot gets; a short range spreads its months over MIN_PLOT_WIDTH instead. */
const MIN_SLOT_WIDTH = 44;
const MIN_PLOT_WIDTH = 480;
const MAX_BAR_WIDTH = 28;
const TOP = 10;
const TICK_SPACE = 22;
const GROSS_COLOR = '#b7d3ff';
const NET_COLOR = '#0b6ee6';

/** An axis amount without a fraction of zeros: '$2,000' rather than '$2,000.00'. */
function axisAmount(amountMinor: number, currency: Currency): string {
  return formatMoney(amountMinor, currency).replace(/\.0+$/, '');
}

/**
 * Gross and net revenue per month as an inline SVG bar chart (no chart library): the picture is one image
 * whose description lists every month's amounts, so screen readers read the numbers, and each bar pair has
 * a tooltip for the mouse.
 */
export function RevenueChart({ months, currency }: { months: SalesAnalytics['months']; currency: Currency }) {
  const titleId = useId();
  const descriptionId = useId();
  const axisMax = niceAxisMax(Math.max(0, ...months.map((month) => month.grossMinor)));
  const gross = barHeights(
    months.map((month) => month.grossMinor),
    axisMax,
    PLOT_HEIGHT,
  );
  const net = barHeights(
    months.map((month) => month.netMinor),
    axisMax,
    PLOT_HEIGHT,
  );
  const slotWidth = Math.max(MIN_SLOT_WIDTH, MIN_PLOT_WIDTH / Math.max(months.length, 1));
  const barWidth = Math.min(MAX_BAR_WIDTH, Math.floor(slotWidth * 0.36));
  const width = AXIS_WIDTH + Math.max(months.length, 1) * slotWidth + 8;
  const height = TOP + PLOT_HEIGHT + TICK_SPACE;
  const baseline = TOP + PLOT_HEIGHT;
  const summaries = months.map(
    (month) =>
      `${monthLabel(month.month)}: gross ${formatMoney(month.grossMinor, currency)}, net ${formatMoney(month.netMinor, currency)}, ${formatNumber(month.sales)} ${month.sales === 1 ? 'sale' : 'sales'}`,
  );
  const totalNet = months.reduce((sum, month) => sum + month.netMinor, 0);
  return (
    <figure className="site-revenue-chart" style={{ margin: 0 }}>
      <svg
        role="img"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        style={{ maxWidth: `${width}px`, height: 'auto', display: 'block' }}
      >
        <title id={titleId}>Revenue per month</title>
        <desc id={descriptionId}>{summaries.join('; ')}</desc>
        {[0, 0.5, 1].map((share) => {
          const y = baseline - share * PLOT_HEIGHT;
          return (
            <g key={share}>
              <line x1={AXIS_WIDTH} x2={width} y1={y} y2={y} stroke="#e1e2e6" strokeWidth={1} />
              <text x={AXIS_WIDTH - 6} y={y + 4} textAnchor="end" fontSize={11} fill="#5b5b66">
                {axisAmount(Math.round(axisMax * share), currency)}
              </text>
            </g>
          );
        })}
        {months.map((month, index) => {
          const x = AXIS_WIDTH + index * slotWidth + (slotWidth - 2 * barWidth) / 2;
          const grossHeight = gross[index] ?? 0;
          const netHeight = net[index] ?? 0;
          return (
            <g key={month.month} data-month={month.month}>
              <title>{summaries[index]}</title>
              <rect
                x={x}
                y={baseline - grossHeight}
                width={barWidth}
                height={grossHeight}
                fill={GROSS_COLOR}
                data-series="gross"
              />
              <rect
                x={x + barWidth}
                y={baseline - netHeight}
                width={barWidth}
                height={netHeight}
                fill={NET_COLOR}
                data-series="net"
              />
              <text
                x={x + barWidth}
                y={baseline + 15}
                textAnchor="middle"
                fontSize={months.length > 14 ? 9 : 11}
                fill="#5b5b66"
              >
                {monthTick(month.month, index === 0)}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="site-muted">
        <span aria-hidden="true" style={{ color: GROSS_COLOR }}>
          ■
        </span>{' '}
        Gross{' '}
        <span aria-hidden="true" style={{ color: NET_COLOR }}>
          ■
        </span>{' '}
        Net — {formatMoney(totalNet, currency)} net over {formatNumber(months.length)}{' '}
        {months.length === 1 ? 'month' : 'months'}
      </figcaption>
    </figure>
  );
}
