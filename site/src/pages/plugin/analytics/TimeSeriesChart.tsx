import { useId } from 'react';
import { areaPath, linePath, niceTicks, scale, spreadX, tickIndexes } from './chart-scale';

export interface ChartPoint {
  /** The period's label ('05.03.2026' or '02.03.2026–08.03.2026'). */
  label: string;
  /** The short axis label. */
  tick: string;
  value: number;
}

export interface TimeSeriesChartProps {
  /** What the chart shows ('Downloads per day, 27.10.2026–25.11.2026'): the image's name and the table's caption. */
  title: string;
  points: readonly ChartPoint[];
  /** The compared period's points, drawn as a dashed line lined up period by period. */
  compared?: readonly ChartPoint[] | undefined;
  /** Names of the two series in the legend and the table ('27.10.2026–25.11.2026'). */
  seriesName: string;
  comparedName?: string | undefined;
  /** A value as shown ('1,234' or '$12.34'). */
  format: (value: number) => string;
  /** An axis value as shown, when it differs ('$2,000' rather than '$2,000.00'). */
  axisFormat?: ((value: number) => string) | undefined;
}

const WIDTH = 960;
const HEIGHT = 300;
const LEFT = 64;
const RIGHT = 16;
const TOP = 12;
const BOTTOM = 28;
const PLOT_WIDTH = WIDTH - LEFT - RIGHT;
const PLOT_HEIGHT = HEIGHT - TOP - BOTTOM;
const BASELINE = TOP + PLOT_HEIGHT;
const MOST_TICKS = 6;
/** Beyond this many points the dots would touch; the line alone says it. */
const MOST_DOTS = 62;

/**
 * A time series as an inline SVG line with the area under it, and a compared period as a dashed line. The
 * picture is one image named by its title; the values are in a table beside it that only screen readers
 * see, and each period has a tooltip for the mouse. It scales to its container (viewBox and CSS).
 */
export function TimeSeriesChart({
  title,
  points,
  compared,
  seriesName,
  comparedName,
  format,
  axisFormat = format,
}: TimeSeriesChartProps) {
  const titleId = useId();
  const largest = Math.max(
    0,
    ...points.map((point) => point.value),
    ...(compared ?? []).map((point) => point.value),
  );
  const ticks = niceTicks(largest);
  const axisMax = ticks[ticks.length - 1]!;
  const xs = spreadX(points.length, LEFT, PLOT_WIDTH);
  const y = (value: number) => BASELINE - scale(value, axisMax, PLOT_HEIGHT);
  const current = points.map((point, index) => [xs[index]!, y(point.value)] as const);
  const other = (compared ?? [])
    .slice(0, points.length)
    .map((point, index) => [xs[index]!, y(point.value)] as const);
  const slot = points.length > 1 ? PLOT_WIDTH / (points.length - 1) : PLOT_WIDTH;
  const tooltip = (index: number) => {
    const point = points[index]!;
    const then = compared?.[index];
    return then
      ? `${point.label}: ${format(point.value)}; compared ${then.label}: ${format(then.value)}`
      : `${point.label}: ${format(point.value)}`;
  };
  return (
    <figure className="site-analytics-figure">
      <div className="site-analytics-scroll">
        <svg
          className="site-analytics-chart"
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          role="img"
          aria-labelledby={titleId}
        >
          <title id={titleId}>{title}</title>
          {ticks.map((tick) => (
            <g key={tick}>
              <line
                className="site-analytics-chart__grid"
                x1={LEFT}
                x2={WIDTH - RIGHT}
                y1={y(tick)}
                y2={y(tick)}
              />
              <text className="site-analytics-chart__text" x={LEFT - 8} y={y(tick) + 4} textAnchor="end">
                {axisFormat(tick)}
              </text>
            </g>
          ))}
          {tickIndexes(points.length, MOST_TICKS).map((index) => (
            <text
              key={index}
              className="site-analytics-chart__text"
              x={xs[index]}
              y={HEIGHT - 8}
              textAnchor={
                points.length === 1
                  ? 'middle'
                  : index === 0
                    ? 'start'
                    : index === points.length - 1
                      ? 'end'
                      : 'middle'
              }
            >
              {points[index]!.tick}
            </text>
          ))}
          {current.length > 1 ? (
            <path className="site-analytics-chart__area" d={areaPath(current, BASELINE)} />
          ) : null}
          {other.length > 1 ? (
            <path
              className="site-analytics-chart__line site-analytics-chart__line--compared"
              d={linePath(other)}
              data-series="compared"
            />
          ) : null}
          {current.length > 1 ? (
            <path className="site-analytics-chart__line" d={linePath(current)} data-series="current" />
          ) : null}
          {current.length <= MOST_DOTS
            ? current.map(([x, pointY], index) => (
                <circle
                  key={index}
                  className="site-analytics-chart__dot"
                  cx={x}
                  cy={pointY}
                  r={current.length > 31 ? 2 : 3}
                />
              ))
            : null}
          {xs.map((x, index) => (
            <rect
              key={index}
              className="site-analytics-chart__hit"
              x={Math.max(LEFT, x - slot / 2)}
              y={TOP}
              width={Math.min(slot, WIDTH - RIGHT - Math.max(LEFT, x - slot / 2))}
              height={PLOT_HEIGHT}
            >
              <title>{tooltip(index)}</title>
            </rect>
          ))}
        </svg>
      </div>
      <figcaption className="site-analytics-legend">
        <span>
          <span className="site-analytics-swatch site-analytics-swatch--current" aria-hidden="true" />{' '}
          {seriesName}
        </span>
        {compared && comparedName ? (
          <span>
            <span className="site-analytics-swatch site-analytics-swatch--compared" aria-hidden="true" />{' '}
            compared with {comparedName}
          </span>
        ) : null}
      </figcaption>
      <table className="site-visually-hidden">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">Period</th>
            <th scope="col">Value</th>
            {compared ? (
              <>
                <th scope="col">Compared period</th>
                <th scope="col">Compared value</th>
              </>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {points.map((point, index) => {
            const then = compared?.[index];
            return (
              <tr key={index}>
                <th scope="row">{point.label}</th>
                <td>{format(point.value)}</td>
                {compared ? (
                  <>
                    <td>{then?.label ?? ''}</td>
                    <td>{then ? format(then.value) : ''}</td>
                  </>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </figure>
  );
}
