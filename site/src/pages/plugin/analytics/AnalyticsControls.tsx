import {
  MARKETPLACE_START_DATE,
  type ProductFamily,
  type StatisticMeasure,
  type TimeDimension,
} from '@marketplace/core';
import { useId } from 'react';
import { measureLabel } from './analytics-labels';
import {
  COMPARISONS,
  RANGES,
  UNITS,
  withMeasure,
  type AnalyticsState,
  type Comparison,
  type RangeKey,
  type UnitChoice,
} from './analytics-state';

export interface AnalyticsControlsProps {
  state: AnalyticsState;
  measures: readonly StatisticMeasure[];
  family: ProductFamily;
  /** The unit 'Automatic' stands for with the current range, shown in its option. */
  automaticUnit: TimeDimension | undefined;
  /** The last day that can be chosen (today, yyyy-MM-dd). */
  lastDay: string;
  /** What is wrong with the chosen days, shown under the fields that are wrong. */
  rangeProblem: string | undefined;
  compareProblem: string | undefined;
  onChange: (next: AnalyticsState) => void;
}

/** The measure, the range (a preset or two days), the unit and the comparison. */
export function AnalyticsControls({
  state,
  measures,
  family,
  automaticUnit,
  lastDay,
  rangeProblem,
  compareProblem,
  onChange,
}: AnalyticsControlsProps) {
  const id = useId();
  const change = (patch: Partial<AnalyticsState>) => onChange({ ...state, ...patch });
  const rangeProblemId = `${id}-range-problem`;
  const compareProblemId = `${id}-compare-problem`;
  const compareHintId = `${id}-compare-hint`;
  const rangeInvalid = rangeProblem ? { 'aria-invalid': true, 'aria-describedby': rangeProblemId } : {};
  const compareInvalid = compareProblem ? { 'aria-invalid': true, 'aria-describedby': compareProblemId } : {};
  // Labels point at their fields (htmlFor), so each field's name is its label alone, not its options too.
  return (
    <form
      className="site-card-block site-analytics-controls"
      aria-label="Statistics options"
      onSubmit={(event) => event.preventDefault()}
    >
      <div className="site-inline-form">
        <span className="site-analytics-field">
          <label htmlFor={`${id}-measure`}>Measure</label>
          <select
            id={`${id}-measure`}
            value={state.measure}
            onChange={(event) => {
              const measure = measures.find((candidate) => candidate === event.target.value);
              if (measure) onChange(withMeasure(state, measure));
            }}
          >
            {measures.map((measure) => (
              <option key={measure} value={measure}>
                {measureLabel(measure, family)}
              </option>
            ))}
          </select>
        </span>
        <span className="site-analytics-field">
          <label htmlFor={`${id}-range`}>Range</label>
          <select
            id={`${id}-range`}
            value={state.range}
            onChange={(event) => change({ range: event.target.value as RangeKey })}
          >
            {RANGES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </span>
        {state.range === 'custom' ? (
          <>
            <span className="site-analytics-field">
              <label htmlFor={`${id}-from`}>Start date</label>
              <input
                id={`${id}-from`}
                type="date"
                value={state.from}
                min={MARKETPLACE_START_DATE}
                max={lastDay}
                {...rangeInvalid}
                onChange={(event) => change({ from: event.target.value })}
              />
            </span>
            <span className="site-analytics-field">
              <label htmlFor={`${id}-to`}>End date</label>
              <input
                id={`${id}-to`}
                type="date"
                value={state.to}
                min={MARKETPLACE_START_DATE}
                max={lastDay}
                {...rangeInvalid}
                onChange={(event) => change({ to: event.target.value })}
              />
            </span>
          </>
        ) : null}
        <span className="site-analytics-field">
          <label htmlFor={`${id}-unit`}>Show per</label>
          <select
            id={`${id}-unit`}
            value={state.unit}
            onChange={(event) => change({ unit: event.target.value as UnitChoice })}
          >
            {UNITS.map(([value, label]) => (
              <option key={value} value={value}>
                {value === 'auto' && automaticUnit ? `${label} (${automaticUnit})` : label}
              </option>
            ))}
          </select>
        </span>
        <span className="site-analytics-field">
          <label htmlFor={`${id}-compare`}>Compare with</label>
          <select
            id={`${id}-compare`}
            value={state.range === 'all' ? 'none' : state.compare}
            disabled={state.range === 'all'}
            aria-describedby={state.range === 'all' ? compareHintId : undefined}
            onChange={(event) => change({ compare: event.target.value as Comparison })}
          >
            {COMPARISONS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </span>
        {state.range === 'all' ? (
          <span id={compareHintId} className="site-muted">
            nothing comes before the whole life of the item
          </span>
        ) : null}
        {state.range !== 'all' && state.compare === 'custom' ? (
          <span className="site-analytics-field">
            <label htmlFor={`${id}-compare-from`}>Compared period starts</label>
            <input
              id={`${id}-compare-from`}
              type="date"
              value={state.compareFrom}
              min={MARKETPLACE_START_DATE}
              max={lastDay}
              {...compareInvalid}
              onChange={(event) => change({ compareFrom: event.target.value })}
            />
          </span>
        ) : null}
      </div>
      {rangeProblem ? (
        <p id={rangeProblemId} className="site-error" role="alert">
          {rangeProblem}
        </p>
      ) : null}
      {compareProblem ? (
        <p id={compareProblemId} className="site-error" role="alert">
          {compareProblem}
        </p>
      ) : null}
    </form>
  );
}
