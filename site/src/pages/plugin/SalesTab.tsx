import type { Plugin } from '@marketplace/api-client';
import {
  BILLING_PERIOD_LABELS,
  BILLING_PERIODS,
  formatDisplayDate,
  formatNumber,
  isBillingPeriod,
  isLicenseKind,
  LICENSE_KIND_LABELS,
  LICENSE_KINDS,
} from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Pagination } from '../../components/Pagination';
import { api } from '../../lib/api';
import { errorText, showErrorToast } from '../../lib/errors';
import { useLoad } from '../../lib/use-load';
import { currencyFrom, formatAmount } from '../../lib/money';
import { RevenueChart } from './RevenueChart';
import {
  attachmentFileName,
  RANGE_PRESETS,
  readSalesFilter,
  salesQueryOf,
  writeSalesFilter,
  type RangePreset,
  type SalesFilterState,
} from './sales-filter';

const PAGE_SIZE = 20;

/** Saves text as a file the way a download link would, with the name the server gave it. */
function saveFile(text: string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled; the browser keeps the download going.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function Filters({
  state,
  onChange,
}: {
  state: SalesFilterState;
  onChange: (next: SalesFilterState) => void;
}) {
  const id = useId();
  const [country, setCountry] = useState(state.countryCode ?? '');
  // The typed code follows the address when it changes from outside (Back, a link), as React suggests.
  const [shownCode, setShownCode] = useState(state.countryCode);
  if (state.countryCode !== shownCode) {
    setShownCode(state.countryCode);
    setCountry(state.countryCode ?? '');
  }
  const change = (patch: Partial<SalesFilterState>) => onChange({ ...state, ...patch, page: 1 });
  // Labels point at their fields (htmlFor), so each field's name is its label alone, not its options too.
  return (
    <form
      className="site-inline-form site-card-block"
      aria-label="Sales filters"
      onSubmit={(event) => event.preventDefault()}
    >
      <label htmlFor={`${id}-range`}>Date range</label>
      <select
        id={`${id}-range`}
        value={state.range}
        onChange={(event) => change({ range: event.target.value as RangePreset })}
      >
        {RANGE_PRESETS.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      {state.range === 'custom' ? (
        <>
          <label htmlFor={`${id}-from`}>From</label>
          <input
            id={`${id}-from`}
            type="date"
            value={state.from}
            onChange={(event) => change({ from: event.target.value })}
          />
          <label htmlFor={`${id}-to`}>To</label>
          <input
            id={`${id}-to`}
            type="date"
            value={state.to}
            onChange={(event) => change({ to: event.target.value })}
          />
        </>
      ) : null}
      <label htmlFor={`${id}-kind`}>Licence kind</label>
      <select
        id={`${id}-kind`}
        value={state.licenseKind ?? ''}
        onChange={(event) =>
          change({ licenseKind: isLicenseKind(event.target.value) ? event.target.value : undefined })
        }
      >
        <option value="">Every kind</option>
        {LICENSE_KINDS.map((kind) => (
          <option key={kind} value={kind}>
            {LICENSE_KIND_LABELS[kind]}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-period`}>Billing period</label>
      <select
        id={`${id}-period`}
        value={state.billingPeriod ?? ''}
        onChange={(event) =>
          change({ billingPeriod: isBillingPeriod(event.target.value) ? event.target.value : undefined })
        }
      >
        <option value="">Every period</option>
        {BILLING_PERIODS.map((period) => (
          <option key={period} value={period}>
            {BILLING_PERIOD_LABELS[period]}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-country`}>Country</label>
      <input
        id={`${id}-country`}
        value={country}
        size={4}
        maxLength={2}
        placeholder="any"
        aria-describedby={`${id}-country-hint`}
        onChange={(event) => {
          const text = event.target.value.toUpperCase();
          setCountry(text);
          // Applied once it is a whole code (or cleared), not at each letter.
          if (text === '' || /^[A-Z]{2}$/.test(text)) change({ countryCode: text || undefined });
        }}
      />
      <span id={`${id}-country-hint`} className="site-muted">
        two letters, e.g. DE
      </span>
    </form>
  );
}

/** The vendor's sales of an item: filters, totals, revenue per month, the sales a page at a time, the CSV. */
export function SalesTab({ plugin }: { plugin: Plugin }) {
  const toasts = useToasts();
  const [params, setParams] = useSearchParams();
  const state = readSalesFilter(params);
  const query = salesQueryOf(state, new Date());
  const queryKey = JSON.stringify(query);
  const [info] = useLoad(
    (signal) =>
      api.commerce.getSalesInfo(plugin.id, { ...query, page: state.page, size: PAGE_SIZE }, { signal }),
    [plugin.id, queryKey, state.page],
  );
  const [analytics] = useLoad(
    (signal) => api.commerce.getSalesAnalytics(plugin.id, query, { signal }),
    [plugin.id, queryKey],
  );
  const [downloading, setDownloading] = useState(false);

  async function downloadCsv() {
    setDownloading(true);
    try {
      // The report needs the vendor's token, so it is fetched (not linked) and saved from memory.
      const answer = await api.request({
        method: 'GET',
        path: api.commerce.salesReportPath(plugin.id, query),
        forceAuthorization: true,
      });
      const text =
        answer.kind === 'notification'
          ? answer.message
          : answer.kind === 'json'
            ? JSON.stringify(answer.data)
            : '';
      const fallback = `${plugin.info.xmlId.replace(/[^A-Za-z0-9._-]+/g, '_')}-sales.csv`;
      saveFile(text, attachmentFileName(answer.headers.get('content-disposition'), fallback), 'text/csv');
    } catch (error) {
      showErrorToast(toasts, error);
    } finally {
      setDownloading(false);
    }
  }

  const code = info.status === 'resolved' ? info.data.currency : '';
  const pageCount = info.status === 'resolved' ? Math.ceil(info.data.total / PAGE_SIZE) : 0;

  return (
    <section aria-labelledby="sales-heading">
      <div className="site-results__head">
        <h2 id="sales-heading">Sales</h2>
        <button
          type="button"
          className="mp-button mp-button--secondary"
          disabled={downloading}
          onClick={() => void downloadCsv()}
        >
          Download CSV
        </button>
      </div>
      <Filters state={state} onChange={(next) => setParams(writeSalesFilter(next))} />
      {info.status === 'pending' ? <p className="site-muted">Loading sales…</p> : null}
      {info.status === 'rejected' ? (
        <p className="site-error" role="alert">
          {errorText(info.error)}
        </p>
      ) : null}
      {info.status === 'resolved' ? (
        <dl className="site-facts" aria-label="Totals">
          <dt>Sales</dt>
          <dd>{formatNumber(info.data.totals.sales)}</dd>
          <dt>Licences</dt>
          <dd>{formatNumber(info.data.totals.licenses)}</dd>
          <dt>Gross</dt>
          <dd>{formatAmount(info.data.totals.grossMinor, code)}</dd>
          <dt>Discounts</dt>
          <dd>{formatAmount(info.data.totals.discountMinor, code)}</dd>
          <dt>Commission ({info.data.commissionPercent}%)</dt>
          <dd>{formatAmount(info.data.totals.commissionMinor, code)}</dd>
          <dt>Net</dt>
          <dd>
            <strong>{formatAmount(info.data.totals.netMinor, code)}</strong>
          </dd>
        </dl>
      ) : null}
      <section className="site-card-block" aria-labelledby="revenue-heading">
        <h3 id="revenue-heading">Revenue per month</h3>
        {analytics.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
        {analytics.status === 'rejected' ? (
          <p className="site-muted">Revenue per month is not available: {errorText(analytics.error)}</p>
        ) : null}
        {analytics.status === 'resolved'
          ? (() => {
              const analyticsCurrency = currencyFrom(analytics.data.currency);
              const trials = analytics.data.months.reduce((sum, month) => sum + month.trials, 0);
              return (
                <>
                  {analyticsCurrency ? (
                    <RevenueChart months={analytics.data.months} currency={analyticsCurrency} />
                  ) : null}
                  <p>
                    <strong>Trial-to-paid conversion:</strong>{' '}
                    {analytics.data.trialConversionPercent === null
                      ? 'no trials started in this range.'
                      : `${analytics.data.trialConversionPercent}% of ${formatNumber(trials)} ${trials === 1 ? 'trial' : 'trials'} started in this range became a sale.`}
                  </p>
                  {analytics.data.countries.length ? (
                    <p>
                      <strong>Top countries:</strong>{' '}
                      {analytics.data.countries
                        .slice(0, 5)
                        .map(
                          (country) =>
                            `${country.countryCode}: ${formatNumber(country.sales)} ${country.sales === 1 ? 'sale' : 'sales'}, ${formatAmount(country.netMinor, analytics.data.currency)} net`,
                        )
                        .join('; ')}
                    </p>
                  ) : null}
                </>
              );
            })()
          : null}
      </section>
      {info.status === 'resolved' && info.data.sales.length === 0 ? (
        <p className="site-muted">No sales match these filters.</p>
      ) : null}
      {info.status === 'resolved' && info.data.sales.length ? (
        <table className="site-table">
          <caption className="site-visually-hidden">Sales</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Licence</th>
              <th scope="col">Seats</th>
              <th scope="col">Country</th>
              <th scope="col" className="site-number">
                Gross
              </th>
              <th scope="col" className="site-number">
                Discounts
              </th>
              <th scope="col" className="site-number">
                Commission
              </th>
              <th scope="col" className="site-number">
                Net
              </th>
            </tr>
          </thead>
          <tbody>
            {info.data.sales.map((sale) => (
              <tr key={sale.id}>
                <td>{formatDisplayDate(sale.soldAt)}</td>
                <td>
                  {LICENSE_KIND_LABELS[sale.licenseKind]},{' '}
                  {BILLING_PERIOD_LABELS[sale.billingPeriod].toLowerCase()}
                </td>
                <td className="site-number">{formatNumber(sale.quantity)}</td>
                <td>{sale.countryCode}</td>
                <td className="site-number">{formatAmount(sale.grossMinor, code)}</td>
                <td className="site-number">{formatAmount(sale.discountMinor, code)}</td>
                <td className="site-number">{formatAmount(sale.commissionMinor, code)}</td>
                <td className="site-number">{formatAmount(sale.netMinor, code)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Pagination
        page={state.page}
        pageCount={pageCount}
        hrefFor={(page) => `?${writeSalesFilter({ ...state, page }).toString()}`}
      />
    </section>
  );
}
