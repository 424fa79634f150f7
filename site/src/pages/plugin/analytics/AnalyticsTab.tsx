import type { Plugin, Statistic } from '@marketplace/api-client';
import {
  formatNumber,
  minorToDecimalText,
  STATISTICS_UNAVAILABLE,
  type TimeDimension,
} from '@marketplace/core';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { currencyFrom, formatAmount } from '../../../lib/money';
import { AnalyticsControls } from './AnalyticsControls';
import { analyticsCsv, csvFileName, saveTextFile, type CsvPoint } from './analytics-csv';
import {
  BREAKDOWN_LABELS,
  breakdownValueLabel,
  changeLabel,
  measureLabel,
  updatedAtLabel,
} from './analytics-labels';
import {
  alignToPeriods,
  automaticUnit,
  BREAKDOWNS,
  breakdownsOf,
  comparedRangeOf,
  filtersWithout,
  firstDayOf,
  measuresFor,
  percentChange,
  periodLabel,
  periodTick,
  rangeLabel,
  rangeOf,
  readAnalyticsState,
  statisticQuery,
  today,
  total,
  unitOf,
  writeAnalyticsState,
  type AnalyticsState,
  type Breakdown,
  type DayRange,
  type SeriesPoint,
} from './analytics-state';
import { BreakdownSection } from './BreakdownSection';
import { StatisticsLoading } from './StatisticsLoading';
import { TimeSeriesChart, type ChartPoint } from './TimeSeriesChart';
import { UnavailableDetail } from './UnavailableDetail';
import { useStatistic } from './use-statistic';

const UNIT_WORDS: Readonly<Record<TimeDimension, string>> = { day: 'day', week: 'week', month: 'month' };

function filtersText(filters: AnalyticsState['filters']): string {
  return BREAKDOWNS.filter((breakdown) => filters[breakdown] !== undefined)
    .map((breakdown) => `${breakdown}=${filters[breakdown]}`)
    .join('; ');
}

/** The periods of an answer lined up with the range, labelled for the chart, its table and the CSV. */
function periodsOf(answer: Statistic | undefined, range: DayRange, unit: TimeDimension) {
  const points = alignToPeriods(answer?.data ?? [], range, unit);
  return points.map((point: SeriesPoint) => ({
    ...point,
    label: periodLabel(point.name, unit, range),
    tick: periodTick(point.name, unit),
  }));
}

/**
 * The vendor's analytics of an item (spec §2 tab `analytics`): one measure over a range as a time series,
 * optionally beside another period of the same length, broken down by version, product or country (a row
 * filters the series), and everything shown as a CSV. For the item's people and administrators; the page
 * shows the tab only to them.
 */
export default function AnalyticsTab({ plugin }: { plugin: Plugin }) {
  const id = useId();
  const [params, setParams] = useSearchParams();
  // "Today" is fixed while the tab is open, so a range does not move under the person reading it.
  const [now] = useState(() => new Date());
  const measures = measuresFor(plugin.info.pricingModel);
  const state = readAnalyticsState(params, measures);
  const family = plugin.info.family;
  const measureName = measureLabel(state.measure, family);
  const range = rangeOf(state, now, firstDayOf(plugin.info.cdate));
  const compared = range.ok ? comparedRangeOf(state, range.value) : undefined;
  const comparedRange = compared?.ok ? compared.value : undefined;
  const unit = range.ok ? unitOf(state, range.value) : 'day';
  const breakdowns = breakdownsOf(state.measure);

  const series = useStatistic(
    range.ok
      ? {
          measure: state.measure,
          dimension: unit,
          query: statisticQuery(plugin.id, range.value, state.filters, true),
        }
      : undefined,
  );
  const then = useStatistic(
    comparedRange
      ? {
          measure: state.measure,
          dimension: unit,
          query: statisticQuery(plugin.id, comparedRange, state.filters, true),
        }
      : undefined,
  );
  const breakdownFilters = filtersWithout(state.filters, state.breakdown);
  const breakdown = useStatistic(
    range.ok
      ? {
          measure: state.measure,
          dimension: state.breakdown,
          query: statisticQuery(plugin.id, range.value, breakdownFilters, false),
        }
      : undefined,
  );

  const change = (next: AnalyticsState) =>
    // Filtering from a table row far down the page keeps the page where it is.
    setParams(writeAnalyticsState(next), { preventScrollReset: true });
  const setFilter = (dimension: Breakdown, value: string | undefined) => {
    const filters = { ...state.filters };
    if (value === undefined) delete filters[dimension];
    else filters[dimension] = value;
    change({ ...state, filters });
  };

  // Revenue's answers name their currency; whichever came first says it for all of them.
  const currency = [series, then, breakdown]
    .map((answer) => (answer.status === 'resolved' ? answer.data?.currency : undefined))
    .find((code) => code !== undefined);
  const format =
    state.measure === 'revenue'
      ? (value: number) => formatAmount(value, currency ?? '')
      : (value: number) => formatNumber(value);
  // The axis of amounts without a fraction of zeros: '$2,000' rather than '$2,000.00'.
  const axisFormat =
    state.measure === 'revenue' ? (value: number) => format(value).replace(/\.0+$/, '') : format;
  const csvValue = (value: number) =>
    state.measure === 'revenue' && currency ? minorToDecimalText(value, currencyFrom(currency)) : value;

  const ready = range.ok && series.status === 'resolved' && (!comparedRange || then.status !== 'pending');
  const points = ready ? periodsOf(series.data, range.value, unit) : [];
  const comparedPoints =
    ready && comparedRange && then.status === 'resolved'
      ? periodsOf(then.data, comparedRange, unit)
      : undefined;
  const currentTotal = total(points);
  const comparedTotal = comparedPoints ? total(comparedPoints) : undefined;
  const empty = ready && currentTotal === 0 && !comparedTotal;
  const updatedAt = series.status === 'resolved' ? series.data?.updatedAt : undefined;
  const activeFilters = BREAKDOWNS.filter((dimension) => state.filters[dimension] !== undefined);

  function downloadCsv() {
    if (!range.ok || !ready) return;
    const toCsv = (point: { name: string; label: string; value: number }): CsvPoint => ({
      name: point.name,
      label: point.label,
      value: csvValue(point.value),
    });
    const rows = breakdown.status === 'resolved' ? (breakdown.data?.data ?? []) : undefined;
    const text = analyticsCsv({
      unit,
      series: points.map(toCsv),
      compared: comparedPoints?.map(toCsv),
      breakdown: rows && {
        dimension: state.breakdown,
        rows: rows.map((row) =>
          toCsv({ name: row.name, label: breakdownValueLabel(state.breakdown, row.name), value: row.value }),
        ),
      },
      seriesFilters: filtersText(state.filters),
      breakdownFilters: filtersText(breakdownFilters),
      currency: state.measure === 'revenue' ? currency : undefined,
    });
    saveTextFile(
      text,
      csvFileName(plugin.info.xmlId, state.measure, range.value.start, range.value.end),
      'text/csv;charset=utf-8',
    );
  }

  const seriesTitle = range.ok
    ? `${measureName} per ${UNIT_WORDS[unit]}, ${rangeLabel(range.value)}`
    : `${measureName} per ${UNIT_WORDS[unit]}`;

  return (
    <section aria-labelledby={`${id}-heading`} className="site-analytics">
      <div className="site-results__head">
        <h2 id={`${id}-heading`}>Analytics</h2>
        <button
          type="button"
          className="mp-button mp-button--secondary"
          disabled={!ready}
          onClick={downloadCsv}
        >
          Download CSV
        </button>
      </div>
      <AnalyticsControls
        state={state}
        measures={measures}
        family={family}
        automaticUnit={range.ok ? automaticUnit(range.value) : undefined}
        lastDay={today(now)}
        rangeProblem={range.ok ? undefined : range.message}
        compareProblem={compared && !compared.ok ? compared.message : undefined}
        onChange={change}
      />
      {range.ok ? (
        <section className="site-card-block" aria-labelledby={`${id}-series`}>
          <h3 id={`${id}-series`}>{seriesTitle}</h3>
          {activeFilters.length ? (
            <div className="site-analytics-filters">
              <span>Only:</span>
              {activeFilters.map((dimension) => (
                <span key={dimension} className="site-analytics-filter">
                  <span id={`${id}-filter-${dimension}`} className="site-chip">
                    {BREAKDOWN_LABELS[dimension]}: {breakdownValueLabel(dimension, state.filters[dimension]!)}
                  </span>
                  <button
                    type="button"
                    className="mp-button mp-button--secondary"
                    aria-describedby={`${id}-filter-${dimension}`}
                    onClick={() => setFilter(dimension, undefined)}
                  >
                    Clear filter
                  </button>
                </span>
              ))}
            </div>
          ) : null}
          {range.ok && !ready && series.status !== 'rejected' ? <StatisticsLoading lines={6} /> : null}
          {series.status === 'rejected' ? (
            <div role="alert">
              <p className="site-error">{STATISTICS_UNAVAILABLE}</p>
              <UnavailableDetail error={series.error} />
            </div>
          ) : null}
          {ready ? (
            <>
              <dl className="site-facts site-analytics-totals" aria-label="Totals">
                <dt>Total, {rangeLabel(range.value)}</dt>
                <dd>
                  <strong>{format(currentTotal)}</strong>
                </dd>
                {comparedRange && comparedTotal !== undefined ? (
                  <>
                    <dt>Total, {rangeLabel(comparedRange)}</dt>
                    <dd>{format(comparedTotal)}</dd>
                    <dt>Change</dt>
                    <dd>{changeLabel(percentChange(currentTotal, comparedTotal))}</dd>
                  </>
                ) : null}
              </dl>
              {comparedRange && then.status === 'rejected' ? (
                <p className="site-muted">The compared period: {STATISTICS_UNAVAILABLE.toLowerCase()}.</p>
              ) : null}
              {empty ? (
                <p className="site-empty">
                  No {measureName.toLowerCase()} in this range
                  {activeFilters.length > 1
                    ? ' with these filters'
                    : activeFilters.length
                      ? ' with this filter'
                      : ''}
                  .
                </p>
              ) : (
                <TimeSeriesChart
                  title={seriesTitle}
                  points={points satisfies ChartPoint[]}
                  compared={comparedPoints}
                  seriesName={rangeLabel(range.value)}
                  comparedName={comparedRange ? rangeLabel(comparedRange) : undefined}
                  format={format}
                  axisFormat={axisFormat}
                />
              )}
              {updatedAt !== undefined ? (
                <p className="site-muted">Figures up to {updatedAtLabel(updatedAt)}</p>
              ) : null}
            </>
          ) : null}
        </section>
      ) : null}
      {range.ok ? (
        <BreakdownSection
          breakdowns={breakdowns}
          breakdown={state.breakdown}
          measureName={measureName}
          rangeName={rangeLabel(range.value)}
          answer={breakdown}
          filter={state.filters[state.breakdown]}
          format={format}
          onBreakdownChange={(next) => change({ ...state, breakdown: next })}
          onFilter={setFilter}
        />
      ) : null}
    </section>
  );
}
