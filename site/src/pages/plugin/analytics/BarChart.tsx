import { useId } from 'react';
import { barLengths } from './chart-scale';

export interface Bar {
  label: string;
  value: number;
  /** Drawn in the stronger colour: the row the time series is filtered by. */
  active?: boolean;
}

const WIDTH = 720;
const LABEL_WIDTH = 220;
const VALUE_WIDTH = 96;
const ROW = 26;
const BAR = 16;
const PLOT_WIDTH = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
/** Longer labels are cut on the picture (the tooltip and the table beside it say them whole). */
const MOST_LABEL_CHARACTERS = 30;

function shortLabel(label: string): string {
  return label.length > MOST_LABEL_CHARACTERS ? `${label.slice(0, MOST_LABEL_CHARACTERS - 1)}…` : label;
}

/**
 * Horizontal bars, largest first as given, as an inline SVG scaled to its container. The image is named by
 * its title and described by every bar's label and value; each bar has a tooltip for the mouse.
 */
export function BarChart({
  title,
  bars,
  format,
}: {
  title: string;
  bars: readonly Bar[];
  format: (value: number) => string;
}) {
  const titleId = useId();
  const descriptionId = useId();
  const lengths = barLengths(
    bars.map((bar) => bar.value),
    PLOT_WIDTH,
  );
  const height = Math.max(1, bars.length) * ROW + 4;
  const summaries = bars.map((bar) => `${bar.label}: ${format(bar.value)}`);
  return (
    <div className="site-analytics-scroll">
      <svg
        className="site-analytics-chart site-analytics-bars"
        viewBox={`0 0 ${WIDTH} ${height}`}
        role="img"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
      >
        <title id={titleId}>{title}</title>
        <desc id={descriptionId}>{summaries.join('; ')}</desc>
        {bars.map((bar, index) => {
          const top = index * ROW + 2;
          const length = lengths[index] ?? 0;
          return (
            <g key={`${index}-${bar.label}`}>
              <title>{summaries[index]}</title>
              <text
                className="site-analytics-chart__text"
                x={LABEL_WIDTH - 8}
                y={top + ROW / 2 + 4}
                textAnchor="end"
              >
                {shortLabel(bar.label)}
              </text>
              <rect
                className={`site-analytics-bars__bar${bar.active ? ' site-analytics-bars__bar--active' : ''}`}
                x={LABEL_WIDTH}
                y={top + (ROW - BAR) / 2}
                width={length}
                height={BAR}
                rx={2}
              />
              <text className="site-analytics-chart__text" x={LABEL_WIDTH + length + 6} y={top + ROW / 2 + 4}>
                {format(bar.value)}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}
