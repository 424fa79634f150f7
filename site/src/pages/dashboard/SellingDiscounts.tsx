import type { Pricing } from '@marketplace/api-client';
import {
  COMMUNITY_PROGRAM_LABELS,
  COMMUNITY_PROGRAMS,
  DEFAULT_CONTINUITY_DISCOUNTS,
  MAX_ORDER_QUANTITY,
  type CommunityProgram,
} from '@marketplace/core';
import { useState, type FormEvent } from 'react';
import { api } from '../../lib/api';
import { readWholeNumber } from './money-input';
import { FormFailure, Section, useFormAction } from './selling-parts';

interface Row {
  /** A key for React that survives edits and removals. */
  key: number;
  first: string;
  percent: string;
}

let nextRowKey = 1;
const row = (first: string, percent: string): Row => ({ key: nextRowKey++, first, percent });

/** A number field's reading, or a sentence for the form's failure. */
function wholeIn(text: string, min: number, max: number, what: string): number | string {
  const value = readWholeNumber(text);
  if (value === undefined || value < min || value > max)
    return `${what}: “${text.trim()}” is not a whole number from ${min} to ${max}.`;
  return value;
}

/** Rows of two numbers (a threshold and a percent) with add and remove, as both discount forms use them. */
function RowsEditor({
  rows,
  onChange,
  firstLabel,
  firstMin,
  firstMax,
  percentMin,
  what,
}: {
  rows: Row[];
  onChange: (rows: Row[]) => void;
  firstLabel: string;
  firstMin: number;
  firstMax: number;
  percentMin: number;
  what: string;
}) {
  const set = (key: number, patch: Partial<Row>) =>
    onChange(rows.map((candidate) => (candidate.key === key ? { ...candidate, ...patch } : candidate)));
  return (
    <>
      {rows.length === 0 ? <p className="site-muted">None.</p> : null}
      {rows.map((entry, index) => (
        <div key={entry.key} className="site-inline-form" role="group" aria-label={`${what} ${index + 1}`}>
          <label>
            {firstLabel}{' '}
            <input
              type="number"
              min={firstMin}
              max={firstMax}
              style={{ width: '7em' }}
              value={entry.first}
              onChange={(event) => set(entry.key, { first: event.target.value })}
            />
          </label>
          <label>
            Percent off{' '}
            <input
              type="number"
              min={percentMin}
              max={100}
              style={{ width: '6em' }}
              value={entry.percent}
              onChange={(event) => set(entry.key, { percent: event.target.value })}
            />
          </label>
          <button
            type="button"
            className="site-button-secondary"
            onClick={() => onChange(rows.filter((candidate) => candidate.key !== entry.key))}
          >
            Remove {what.toLowerCase()} {index + 1}
          </button>
        </div>
      ))}
    </>
  );
}

export function VolumeDiscountsSection({ pricing, onSaved }: { pricing: Pricing; onSaved: () => void }) {
  const [rows, setRows] = useState(() =>
    pricing.volumeDiscounts.map((tier) => row(String(tier.minQuantity), String(tier.percent))),
  );
  const action = useFormAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const tiers: { minQuantity: number; percent: number }[] = [];
    for (const entry of rows) {
      const minQuantity = wholeIn(entry.first, 2, MAX_ORDER_QUANTITY, 'From licences');
      if (typeof minQuantity === 'string') return action.setFailure(minQuantity);
      const percent = wholeIn(entry.percent, 1, 100, 'Percent off');
      if (typeof percent === 'string') return action.setFailure(percent);
      tiers.push({ minQuantity, percent });
    }
    if (
      await action.run('Volume discounts saved', () =>
        api.commerce.setVolumeDiscounts(pricing.pluginId, tiers),
      )
    )
      onSaved();
  }

  return (
    <Section title="Volume discounts">
      <p className="site-muted">
        Percent off the whole order when it buys at least so many licences; more licences must give more off.
      </p>
      <form className="site-form" onSubmit={submit} noValidate aria-label="Volume discounts">
        <RowsEditor
          rows={rows}
          onChange={setRows}
          firstLabel="From licences"
          firstMin={2}
          firstMax={MAX_ORDER_QUANTITY}
          percentMin={1}
          what="Tier"
        />
        <FormFailure text={action.failure} />
        <div className="site-form-actions">
          <button
            type="button"
            className="site-button-secondary"
            disabled={rows.length >= 10}
            onClick={() => setRows([...rows, row('', '')])}
          >
            Add a tier
          </button>
          <button type="submit" className="mp-button" disabled={action.busy}>
            Save volume discounts
          </button>
        </div>
      </form>
    </Section>
  );
}

export function ContinuitySection({ pricing, onSaved }: { pricing: Pricing; onSaved: () => void }) {
  const [rows, setRows] = useState(() =>
    pricing.continuityDiscounts.map((step) => row(String(step.year), String(step.percent))),
  );
  const action = useFormAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const steps: { year: number; percent: number }[] = [];
    for (const entry of rows) {
      const year = wholeIn(entry.first, 2, 10, 'Subscription year');
      if (typeof year === 'string') return action.setFailure(year);
      const percent = wholeIn(entry.percent, 0, 100, 'Percent off');
      if (typeof percent === 'string') return action.setFailure(percent);
      steps.push({ year, percent });
    }
    if (
      await action.run('Continuity discount saved', () =>
        api.commerce.setContinuityDiscount(pricing.pluginId, steps),
      )
    )
      onSaved();
  }

  const defaultText = DEFAULT_CONTINUITY_DISCOUNTS.map(
    (step) => `${step.percent}% from year ${step.year}`,
  ).join(', ');
  return (
    <Section title="Continuity discount">
      <p className="site-muted">
        Customers who keep subscribing pay less: percent off from a subscription year on. The marketplace’s
        default is {defaultText}.
      </p>
      <form className="site-form" onSubmit={submit} noValidate aria-label="Continuity discount">
        <RowsEditor
          rows={rows}
          onChange={setRows}
          firstLabel="From year"
          firstMin={2}
          firstMax={10}
          percentMin={0}
          what="Step"
        />
        <FormFailure text={action.failure} />
        <div className="site-form-actions">
          <button
            type="button"
            className="site-button-secondary"
            disabled={rows.length >= 9}
            onClick={() => setRows([...rows, row('', '')])}
          >
            Add a year
          </button>
          <button
            type="button"
            className="site-button-secondary"
            onClick={() =>
              setRows(
                DEFAULT_CONTINUITY_DISCOUNTS.map((step) => row(String(step.year), String(step.percent))),
              )
            }
          >
            Use the default
          </button>
          <button type="submit" className="mp-button" disabled={action.busy}>
            Save continuity discount
          </button>
        </div>
      </form>
    </Section>
  );
}

export function ProgramsSection({ pricing, onSaved }: { pricing: Pricing; onSaved: () => void }) {
  const [offered, setOffered] = useState<Record<CommunityProgram, { on: boolean; percent: string }>>(() => {
    const state = {} as Record<CommunityProgram, { on: boolean; percent: string }>;
    for (const program of COMMUNITY_PROGRAMS) {
      const current = pricing.programs.find((offer) => offer.program === program);
      state[program] = { on: current !== undefined, percent: String(current?.percent ?? 100) };
    }
    return state;
  });
  const action = useFormAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const programs: { program: CommunityProgram; percent: number }[] = [];
    for (const program of COMMUNITY_PROGRAMS) {
      if (!offered[program].on) continue;
      const percent = wholeIn(offered[program].percent, 1, 100, COMMUNITY_PROGRAM_LABELS[program]);
      if (typeof percent === 'string') return action.setFailure(percent);
      programs.push({ program, percent });
    }
    if (await action.run('Programs saved', () => api.commerce.setPrograms(pricing.pluginId, programs)))
      onSaved();
  }

  return (
    <Section title="Community programs">
      <p className="site-muted">
        Discounted or free (100% off) licences for people who qualify; they apply with evidence and you decide
        below.
      </p>
      <form className="site-form" onSubmit={submit} noValidate aria-label="Community programs">
        {COMMUNITY_PROGRAMS.map((program) => (
          <div key={program} className="site-inline-form">
            <label className="site-check">
              <input
                type="checkbox"
                checked={offered[program].on}
                onChange={(event) =>
                  setOffered({ ...offered, [program]: { ...offered[program], on: event.target.checked } })
                }
              />
              Offer to {COMMUNITY_PROGRAM_LABELS[program]}
            </label>
            <label>
              Percent off for {COMMUNITY_PROGRAM_LABELS[program]}{' '}
              <input
                type="number"
                min={1}
                max={100}
                style={{ width: '6em' }}
                disabled={!offered[program].on}
                value={offered[program].percent}
                onChange={(event) =>
                  setOffered({ ...offered, [program]: { ...offered[program], percent: event.target.value } })
                }
              />
            </label>
          </div>
        ))}
        <FormFailure text={action.failure} />
        <div className="site-form-actions">
          <button type="submit" className="mp-button" disabled={action.busy}>
            Save programs
          </button>
        </div>
      </form>
    </Section>
  );
}
