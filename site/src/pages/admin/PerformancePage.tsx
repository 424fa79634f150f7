import type { CacheInfo, PerformanceReport } from '@marketplace/api-client';
import { useToasts } from '@marketplace/ui';
import { useEffect, useId, useRef, useState } from 'react';
import { RequireSignIn } from '../../components/RequireSignIn';
import { api } from '../../lib/api';
import { showErrorToast } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { linePath, niceTicks, scale, spreadX } from '../plugin/analytics/chart-scale';
import { AdminNav } from './AdminNav';
import { adminErrorText } from './SellersSection';

/** How often the figures are asked for again. */
const REFRESH_MS = 3000;
/** Samples the latency chart keeps (two minutes at one every 3 s). */
const SAMPLES_KEPT = 40;

interface Sample {
  at: number;
  p50: number;
  p95: number;
  p99: number;
}

const number = new Intl.NumberFormat('en-US');
const milliseconds = (value: number) =>
  `${value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)} ms`;
const time = (at: number) => new Date(at).toLocaleTimeString('en-GB', { hour12: false });

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

function age(since: number | null, now: number): string {
  if (since === null) return '—';
  const seconds = Math.max(0, Math.round((now - since) / 1000));
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

const WIDTH = 960;
const HEIGHT = 240;
const LEFT = 64;
const RIGHT = 16;
const TOP = 12;
const BOTTOM = 28;
const SERIES = [
  ['p50', 'p50'],
  ['p95', 'p95'],
  ['p99', 'p99'],
] as const;

/**
 * The p50, p95 and p99 latency of all requests at each refresh, as lines in an inline SVG (the analytics
 * charts' way: one image named by its title, the values in a table only screen readers see).
 */
function LatencyChart({ samples }: { samples: readonly Sample[] }) {
  const titleId = useId();
  const largest = Math.max(0, ...samples.map((sample) => sample.p99));
  const ticks = niceTicks(largest);
  const axisMax = ticks[ticks.length - 1]!;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const xs = spreadX(samples.length, LEFT, WIDTH - LEFT - RIGHT);
  const y = (value: number) => TOP + plotHeight - scale(value, axisMax, plotHeight);
  const title = 'Request latency (all routes), p50, p95 and p99 at each refresh';
  return (
    <figure className="site-analytics-figure site-performance-chart">
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
              {tick} ms
            </text>
          </g>
        ))}
        {samples.length > 0 ? (
          <>
            <text className="site-analytics-chart__text" x={LEFT} y={HEIGHT - 8}>
              {time(samples[0]!.at)}
            </text>
            <text className="site-analytics-chart__text" x={WIDTH - RIGHT} y={HEIGHT - 8} textAnchor="end">
              {time(samples[samples.length - 1]!.at)}
            </text>
          </>
        ) : null}
        {samples.length > 1
          ? SERIES.map(([key]) => (
              <path
                key={key}
                className={`site-analytics-chart__line site-performance-chart__${key}`}
                d={linePath(samples.map((sample, index) => [xs[index]!, y(sample[key])] as const))}
              />
            ))
          : null}
      </svg>
      <figcaption className="site-performance-legend">
        {SERIES.map(([key, label]) => (
          <span key={key} className={`site-performance-legend__${key}`}>
            {label}
          </span>
        ))}
      </figcaption>
      <table className="mp-visually-hidden">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">p50</th>
            <th scope="col">p95</th>
            <th scope="col">p99</th>
          </tr>
        </thead>
        <tbody>
          {samples.map((sample) => (
            <tr key={sample.at}>
              <th scope="row">{time(sample.at)}</th>
              <td>{milliseconds(sample.p50)}</td>
              <td>{milliseconds(sample.p95)}</td>
              <td>{milliseconds(sample.p99)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

function CachesTable({
  caches,
  now,
  onAction,
  busy,
}: {
  caches: readonly CacheInfo[];
  now: number;
  onAction: (action: 'flush' | 'reload', name?: string) => void;
  busy: boolean;
}) {
  return (
    <table className="site-table" aria-label="Caches">
      <thead>
        <tr>
          <th scope="col">Cache</th>
          <th scope="col">Entries</th>
          <th scope="col">Size (approx.)</th>
          <th scope="col">Built</th>
          <th scope="col">Hit rate</th>
          <th scope="col">
            <span className="mp-visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {caches.map((cache) => (
          <tr key={cache.name} data-cache={cache.name}>
            <th scope="row" title={cache.description}>
              {cache.name}
              {cache.reloading ? <span className="site-badge site-badge--warning">Reloading</span> : null}
              {cache.lastReload && !cache.lastReload.ok ? (
                <span className="site-badge site-badge--danger" title={cache.lastReload.message}>
                  Reload failed
                </span>
              ) : null}
            </th>
            <td>{number.format(cache.entries)}</td>
            <td>{formatBytes(cache.bytes)}</td>
            <td>{cache.builtAt === null ? 'on demand' : `${age(cache.builtAt, now)} ago`}</td>
            <td>{cache.hitRate === null ? '—' : `${(cache.hitRate * 100).toFixed(1)} %`}</td>
            <td className="site-performance-actions">
              <button
                type="button"
                className="site-button-secondary"
                disabled={busy}
                aria-label={`Flush ${cache.name}`}
                onClick={() => onAction('flush', cache.name)}
              >
                Flush
              </button>
              <button
                type="button"
                className="site-button-secondary"
                disabled={busy}
                aria-label={`Reload ${cache.name}`}
                onClick={() => onAction('reload', cache.name)}
              >
                Reload
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Performance() {
  usePageTitle('Performance');
  const toasts = useToasts();
  const [report, setReport] = useState<PerformanceReport>();
  const [error, setError] = useState<unknown>();
  const [samples, setSamples] = useState<Sample[]>([]);
  const [busy, setBusy] = useState(false);
  const [generation, setGeneration] = useState(0);
  const refreshNow = useRef(() => setGeneration((value) => value + 1));

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const next = await api.performance.report({ signal: controller.signal });
        setReport(next);
        setError(undefined);
        const { latency } = next.totals;
        setSamples((previous) =>
          [...previous, { at: next.now, p50: latency.p50Ms, p95: latency.p95Ms, p99: latency.p99Ms }].slice(
            -SAMPLES_KEPT,
          ),
        );
      } catch (caught) {
        if (controller.signal.aborted) return;
        setError(caught);
      }
      if (!controller.signal.aborted) timer = setTimeout(() => void load(), REFRESH_MS);
    };
    void load();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [generation]);

  async function act(label: string, call: () => Promise<unknown>) {
    setBusy(true);
    try {
      await call();
      toasts?.show({ kind: 'success', title: label });
    } catch (caught) {
      showErrorToast(toasts, caught, adminErrorText);
    } finally {
      setBusy(false);
      refreshNow.current();
    }
  }

  const cacheAction = (action: 'flush' | 'reload', name?: string) =>
    void act(
      action === 'flush'
        ? `${name ?? 'Every cache'} flushed`
        : `${name ?? 'Every cache'} reloading in the background`,
      () => (action === 'flush' ? api.performance.flushCache(name) : api.performance.reloadCache(name)),
    );

  const totals = report?.totals;
  return (
    <div className="site-page site-admin site-performance">
      <h1>Performance</h1>
      <AdminNav />
      {error ? <p className="site-error">{adminErrorText(error)}</p> : null}
      {!report && !error ? <p className="site-muted">Loading…</p> : null}
      {report && totals ? (
        <>
          <p className="site-muted">
            Node {report.node}; {report.enabled ? 'collecting' : 'not collecting'} since{' '}
            {new Date(report.since).toLocaleString('en-GB')}; refreshed every {REFRESH_MS / 1000} s.
          </p>
          <div className="site-form-actions">
            <button
              type="button"
              className="site-button-secondary"
              disabled={busy}
              onClick={() =>
                void act(report.enabled ? 'Collection turned off' : 'Collection turned on', () =>
                  api.performance.enable(!report.enabled),
                )
              }
            >
              {report.enabled ? 'Turn collection off' : 'Turn collection on'}
            </button>
            <button
              type="button"
              className="site-button-secondary"
              disabled={busy}
              onClick={() => {
                setSamples([]);
                void act('Figures reset', () => api.performance.reset());
              }}
            >
              Reset figures
            </button>
          </div>
          <dl className="site-performance-numbers" aria-label="Live numbers">
            <div>
              <dt>Requests</dt>
              <dd data-testid="performance-requests">{number.format(totals.requests)}</dd>
            </div>
            <div>
              <dt>Client errors</dt>
              <dd>{number.format(totals.clientErrors)}</dd>
            </div>
            <div>
              <dt>Server errors</dt>
              <dd>{number.format(totals.serverErrors)}</dd>
            </div>
            <div>
              <dt>p50</dt>
              <dd>{milliseconds(totals.latency.p50Ms)}</dd>
            </div>
            <div>
              <dt>p95</dt>
              <dd>{milliseconds(totals.latency.p95Ms)}</dd>
            </div>
            <div>
              <dt>p99</dt>
              <dd>{milliseconds(totals.latency.p99Ms)}</dd>
            </div>
            <div>
              <dt>Database connections</dt>
              <dd>
                {report.database.pool.total - report.database.pool.idle} busy of {report.database.pool.max}
                {report.database.pool.waiting > 0 ? `, ${report.database.pool.waiting} waiting` : ''}
              </dd>
            </div>
            <div>
              <dt>Memory</dt>
              <dd>{formatBytes(report.memory.rssBytes)}</dd>
            </div>
          </dl>
          <LatencyChart samples={samples} />

          <section className="site-section" aria-labelledby="performance-routes">
            <h2 id="performance-routes">Busiest routes</h2>
            {report.routes.length === 0 ? (
              <p className="site-muted">No requests yet.</p>
            ) : (
              <table className="site-table" aria-label="Busiest routes">
                <thead>
                  <tr>
                    <th scope="col">Route</th>
                    <th scope="col">Requests</th>
                    <th scope="col">Errors</th>
                    <th scope="col">p50</th>
                    <th scope="col">p95</th>
                    <th scope="col">p99</th>
                  </tr>
                </thead>
                <tbody>
                  {report.routes.slice(0, 20).map((route) => (
                    <tr key={`${route.method} ${route.route}`}>
                      <th scope="row">
                        <code>
                          {route.method} {route.route}
                        </code>
                      </th>
                      <td>{number.format(route.requests)}</td>
                      <td>{number.format(route.clientErrors + route.serverErrors)}</td>
                      <td>{milliseconds(route.latency.p50Ms)}</td>
                      <td>{milliseconds(route.latency.p95Ms)}</td>
                      <td>{milliseconds(route.latency.p99Ms)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>

          <section className="site-section" aria-labelledby="performance-caches">
            <h2 id="performance-caches">Caches</h2>
            <p className="site-muted">
              Flush empties a cache (the next answer reads the source); Reload rebuilds it in the background
              while the old one answers. Both reach every node.
            </p>
            <div className="site-form-actions">
              <button
                type="button"
                className="site-button-secondary"
                disabled={busy}
                onClick={() => cacheAction('flush')}
              >
                Flush all
              </button>
              <button
                type="button"
                className="site-button-secondary"
                disabled={busy}
                onClick={() => cacheAction('reload')}
              >
                Reload all
              </button>
            </div>
            <CachesTable caches={report.caches} now={report.now} onAction={cacheAction} busy={busy} />
          </section>

          <section className="site-section" aria-labelledby="performance-database">
            <h2 id="performance-database">Database</h2>
            <p className="site-muted">
              {report.database.kind === 'postgres' ? 'PostgreSQL' : 'Embedded PGlite'}:{' '}
              {number.format(report.database.queries.count)} queries, p95{' '}
              {milliseconds(report.database.queries.p95Ms)}, {number.format(report.database.queryErrors)}{' '}
              failed. Slow: at least {report.database.slowQueryMs} ms.
            </p>
            {report.database.slowQueries.length === 0 ? (
              <p className="site-muted">No slow queries.</p>
            ) : (
              <table className="site-table" aria-label="Slow queries">
                <thead>
                  <tr>
                    <th scope="col">Query</th>
                    <th scope="col">Times</th>
                    <th scope="col">Mean</th>
                    <th scope="col">Slowest</th>
                  </tr>
                </thead>
                <tbody>
                  {report.database.slowQueries.slice(0, 20).map((query) => (
                    <tr key={query.text}>
                      <td>
                        <code className="site-performance-query">{query.text}</code>
                      </td>
                      <td>{number.format(query.count)}</td>
                      <td>{milliseconds(query.meanMs)}</td>
                      <td>{milliseconds(query.maxMs)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </>
      ) : null}
    </div>
  );
}

export default function PerformancePage() {
  return <RequireSignIn>{() => <Performance />}</RequireSignIn>;
}
