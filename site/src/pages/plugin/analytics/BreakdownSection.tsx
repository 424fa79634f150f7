import type { Statistic } from '@marketplace/api-client';
import { STATISTICS_UNAVAILABLE } from '@marketplace/core';
import { useId, useState } from 'react';
import type { Loaded } from '../../../lib/use-load';
import { BREAKDOWN_LABELS, breakdownValueLabel, shareLabel, updatedAtLabel } from './analytics-labels';
import type { Breakdown } from './analytics-state';
import { BarChart } from './BarChart';
import { StatisticsLoading } from './StatisticsLoading';
import { UnavailableDetail } from './UnavailableDetail';

/** The rows shown before 'Show all'; the chart draws the largest of them. */
const FIRST_ROWS = 20;
const CHART_BARS = 10;

export interface BreakdownSectionProps {
  breakdowns: readonly Breakdown[];
  breakdown: Breakdown;
  /** What is counted ('Downloads') and over which days ('27.10.2026–25.11.2026'), for headings. */
  measureName: string;
  rangeName: string;
  answer: Loaded<Statistic | undefined>;
  /** The value the time series is filtered by in this breakdown's dimension, if any. */
  filter: string | undefined;
  format: (value: number) => string;
  onBreakdownChange: (breakdown: Breakdown) => void;
  /** Filters the time series by a row, or clears the filter when the row is the one filtered by. */
  onFilter: (breakdown: Breakdown, value: string | undefined) => void;
}

/** One breakdown at a time (version, product or country): a bar chart of the largest and a table of all. */
export function BreakdownSection({
  breakdowns,
  breakdown,
  measureName,
  rangeName,
  answer,
  filter,
  format,
  onBreakdownChange,
  onFilter,
}: BreakdownSectionProps) {
  const id = useId();
  const [showAll, setShowAll] = useState(false);
  const label = BREAKDOWN_LABELS[breakdown];
  const title = `${measureName} by ${label.toLowerCase()}, ${rangeName}`;
  const rows = answer.status === 'resolved' ? (answer.data?.data ?? []) : [];
  const whole = rows.reduce((sum, row) => sum + row.value, 0);
  const shown = showAll ? rows : rows.slice(0, FIRST_ROWS);
  return (
    <section className="site-card-block site-analytics-breakdown" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>
        {measureName} by {label.toLowerCase()}
      </h3>
      {breakdowns.length > 1 ? (
        <fieldset className="site-choice">
          <legend>Break down by</legend>
          {breakdowns.map((candidate) => (
            <label key={candidate} className="site-check">
              <input
                type="radio"
                name={`${id}-breakdown`}
                value={candidate}
                checked={candidate === breakdown}
                onChange={() => {
                  setShowAll(false);
                  onBreakdownChange(candidate);
                }}
              />
              {BREAKDOWN_LABELS[candidate]}
            </label>
          ))}
        </fieldset>
      ) : null}
      {answer.status === 'pending' ? <StatisticsLoading /> : null}
      {answer.status === 'rejected' ? (
        <div role="alert">
          <p className="site-error">{STATISTICS_UNAVAILABLE}</p>
          <UnavailableDetail error={answer.error} />
        </div>
      ) : null}
      {answer.status === 'resolved' && rows.length === 0 ? (
        <p className="site-muted">Nothing to break down by {label.toLowerCase()} in this range.</p>
      ) : null}
      {answer.status === 'resolved' && rows.length > 0 ? (
        <>
          <BarChart
            title={title}
            format={format}
            bars={rows.slice(0, CHART_BARS).map((row) => ({
              label: breakdownValueLabel(breakdown, row.name),
              value: row.value,
              active: row.name === filter,
            }))}
          />
          <p id={`${id}-hint`} className="site-muted">
            Choose a {label.toLowerCase()} to see only its figures in the chart above; choose it again to see
            all.
          </p>
          <table className="site-table site-analytics-table">
            <caption className="site-visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{label}</th>
                <th scope="col" className="site-number">
                  {measureName}
                </th>
                <th scope="col" className="site-number">
                  Share
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => {
                const active = row.name === filter;
                return (
                  // The whole row answers a click; its button is what the keyboard and screen readers use
                  // (its click bubbles up to the row, so it needs no handler of its own).
                  <tr
                    key={row.name}
                    className={active ? 'site-analytics-table__active' : undefined}
                    onClick={() => onFilter(breakdown, active ? undefined : row.name)}
                  >
                    <th scope="row">
                      <button
                        type="button"
                        className="site-analytics-row-button"
                        aria-pressed={active}
                        aria-describedby={`${id}-hint`}
                      >
                        {breakdownValueLabel(breakdown, row.name)}
                      </button>
                    </th>
                    <td className="site-number">{format(row.value)}</td>
                    <td className="site-number">{shareLabel(row.value, whole)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {rows.length > FIRST_ROWS ? (
            <button
              type="button"
              className="mp-button mp-button--secondary"
              onClick={() => setShowAll(!showAll)}
            >
              {showAll ? `Show the first ${FIRST_ROWS}` : `Show all ${rows.length}`}
            </button>
          ) : null}
          {answer.data?.updatedAt !== undefined ? (
            <p className="site-muted">Figures up to {updatedAtLabel(answer.data.updatedAt)}</p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
