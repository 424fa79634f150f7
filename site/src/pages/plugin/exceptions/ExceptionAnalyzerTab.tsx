import type {
  ExceptionEnvironmentCount,
  ExceptionGroup,
  ExceptionGroupDetail,
  Plugin,
} from '@marketplace/api-client';
import {
  comparePluginVersions,
  EXCEPTION_STATUS_LABELS,
  EXCEPTION_STATUSES,
  exceptionStatusText,
  formatDisplayDate,
  itemNoun,
  formatNumber,
  isExceptionStatus,
  reporterDeclaration,
  type ExceptionStatus,
} from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Pagination } from '../../../components/Pagination';
import { api } from '../../../lib/api';
import { errorText } from '../../../lib/errors';
import { useLoad } from '../../../lib/use-load';

const PAGE_SIZE = 20;
/** Versions named in a list row; the rest are counted. */
const LISTED_VERSIONS = 3;

const STATUS_BADGES: Readonly<Record<ExceptionStatus, string>> = {
  new: 'site-badge site-badge--warning',
  investigating: 'site-badge',
  fixed: 'site-badge site-badge--success',
  ignored: 'site-badge site-exceptions__ignored',
};

/** A whole number from 1 in the address, or undefined. */
function positiveNumber(text: string | null): number | undefined {
  if (text === null || !/^\d{1,9}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= 1 ? value : undefined;
}

function StatusBadge({ group }: { group: Pick<ExceptionGroup, 'status' | 'fixedInVersion'> }) {
  return (
    <span className={STATUS_BADGES[group.status]}>
      {exceptionStatusText(group.status, group.fixedInVersion)}
    </span>
  );
}

/** The last segment of a class name, for the list's first line (`IllegalStateException`). */
function shortClassName(className: string): string {
  return className.slice(className.lastIndexOf('.') + 1) || className;
}

function versionsText(versions: readonly string[]): string {
  const named = versions.slice(0, LISTED_VERSIONS).map((version) => version || 'unknown');
  const more = versions.length - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}

/** What a vendor does to receive reports here: the reporter class and its registration in plugin.xml. */
function ReporterHowTo({ family }: { family: Plugin['info']['family'] }) {
  return (
    <div className="site-card-block" role="note" aria-label="How to receive error reports">
      <p>
        No error reports have arrived yet. To receive your {itemNoun(family)}’s error reports here, point its
        error reporter at this marketplace:
      </p>
      <pre className="site-exceptions__code">
        <code>{reporterDeclaration(location.origin)}</code>
      </pre>
      <p className="site-muted">
        and register it in plugin.xml:{' '}
        <code>
          {
            '<extensions defaultExtensionNs="com.intellij"><errorHandler implementation="…Reporter"/></extensions>'
          }
        </code>
        . Reports sent from the IDE’s error dialog then appear here, grouped by stack trace.
      </p>
    </div>
  );
}

function GroupList({ plugin }: { plugin: Plugin }) {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const page = positiveNumber(params.get('page')) ?? 1;
  const statusParameter = params.get('status');
  const status = isExceptionStatus(statusParameter) ? statusParameter : undefined;
  const [list] = useLoad(
    (signal) => api.exceptions.listGroups(plugin.id, { page, size: PAGE_SIZE, status }, { signal }),
    [plugin.id, page, status],
  );

  const query = (next: { page?: number; status?: ExceptionStatus }) => {
    const search = new URLSearchParams();
    if (next.status) search.set('status', next.status);
    if (next.page && next.page > 1) search.set('page', String(next.page));
    return search;
  };
  const pageCount = list.status === 'resolved' ? Math.ceil(list.data.total / PAGE_SIZE) : 0;

  return (
    <section aria-labelledby={`${id}-heading`}>
      <div className="site-results__head">
        <h2 id={`${id}-heading`}>Exception analyzer</h2>
        <form
          className="site-inline-form"
          aria-label="Exception filters"
          onSubmit={(event) => event.preventDefault()}
        >
          <label htmlFor={`${id}-status`}>Status</label>
          <select
            id={`${id}-status`}
            value={status ?? ''}
            onChange={(event) =>
              setParams(
                query({ status: isExceptionStatus(event.target.value) ? event.target.value : undefined }),
              )
            }
          >
            <option value="">Every status</option>
            {EXCEPTION_STATUSES.map((value) => (
              <option key={value} value={value}>
                {EXCEPTION_STATUS_LABELS[value]}
              </option>
            ))}
          </select>
        </form>
      </div>
      {list.status === 'pending' ? <p className="site-muted">Loading exceptions…</p> : null}
      {list.status === 'rejected' ? (
        <p className="site-error" role="alert">
          {errorText(list.error)}
        </p>
      ) : null}
      {list.status === 'resolved' && list.data.groups.length === 0 ? (
        status || page > 1 ? (
          <p className="site-muted">No exceptions match this filter.</p>
        ) : (
          <ReporterHowTo family={plugin.info.family} />
        )
      ) : null}
      {list.status === 'resolved' && list.data.groups.length > 0 ? (
        <table className="site-table site-exceptions__table">
          <caption className="site-visually-hidden">
            Exceptions, the most reported in the last {list.data.recentDays} days first
          </caption>
          <thead>
            <tr>
              <th scope="col">Exception</th>
              <th scope="col" className="site-number">
                Last {list.data.recentDays} days
              </th>
              <th scope="col" className="site-number">
                Total
              </th>
              <th scope="col">First seen</th>
              <th scope="col">Last seen</th>
              <th scope="col">Versions</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {list.data.groups.map((group) => (
              <tr key={group.id}>
                <td className="site-exceptions__summary">
                  <Link to={`?group=${group.id}`} title={group.exceptionClass}>
                    {shortClassName(group.exceptionClass)}
                  </Link>
                  {group.message ? <span className="site-muted">{group.message}</span> : null}
                </td>
                <td className="site-number">{formatNumber(group.recent)}</td>
                <td className="site-number">{formatNumber(group.total)}</td>
                <td>{formatDisplayDate(group.firstSeen)}</td>
                <td>{formatDisplayDate(group.lastSeen)}</td>
                <td>{versionsText(group.versions)}</td>
                <td>
                  <StatusBadge group={group} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Pagination
        page={page}
        pageCount={pageCount}
        hrefFor={(next) => `?${query({ page: next, status }).toString()}`}
      />
    </section>
  );
}

function EnvironmentTable({
  caption,
  counts,
}: {
  caption: string;
  counts: readonly ExceptionEnvironmentCount[];
}) {
  return (
    <table className="site-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Value</th>
          <th scope="col" className="site-number">
            Reports
          </th>
        </tr>
      </thead>
      <tbody>
        {counts.length === 0 ? (
          <tr>
            <td colSpan={2} className="site-muted">
              Not told
            </td>
          </tr>
        ) : (
          counts.map((count) => (
            <tr key={count.value}>
              <td>{count.value || <span className="site-muted">not told</span>}</td>
              <td className="site-number">{formatNumber(count.reports)}</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}

/** The status control: new, investigating, fixed in one of the plugin's versions, ignored. */
function StatusForm({
  plugin,
  group,
  onChanged,
}: {
  plugin: Plugin;
  group: ExceptionGroupDetail;
  onChanged: () => void;
}) {
  const id = useId();
  const toasts = useToasts();
  const [status, setStatus] = useState<ExceptionStatus>(group.status);
  const [version, setVersion] = useState(group.fixedInVersion ?? '');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const [published] = useLoad(
    (signal) => api.getVersions(plugin.id, { size: 100 }, { signal }).then((answer) => answer.data),
    [plugin.id],
  );
  const versions = [
    ...new Set([
      ...(published.status === 'resolved' ? published.data.map((entry) => entry.version) : []),
      ...group.versions.filter((entry) => entry !== ''),
      ...(group.fixedInVersion ? [group.fixedInVersion] : []),
    ]),
  ].sort((a, b) => comparePluginVersions(b, a));
  const chosenVersion = version || versions[0] || '';

  async function save() {
    setFailure('');
    setBusy(true);
    try {
      const changed = await api.exceptions.setStatus(
        plugin.id,
        group.id,
        status === 'fixed' ? { status, fixedInVersion: chosenVersion } : { status },
      );
      toasts?.show({
        kind: 'success',
        title: `Marked ${exceptionStatusText(changed.status, changed.fixedInVersion).toLowerCase()}`,
      });
      onChanged();
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  const unchanged = status === group.status && (status !== 'fixed' || chosenVersion === group.fixedInVersion);
  return (
    <form
      className="site-inline-form site-card-block"
      aria-label="Exception status"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label htmlFor={`${id}-status`}>Status</label>
      <select
        id={`${id}-status`}
        value={status}
        onChange={(event) => {
          if (isExceptionStatus(event.target.value)) setStatus(event.target.value);
        }}
      >
        {EXCEPTION_STATUSES.map((value) => (
          <option key={value} value={value}>
            {EXCEPTION_STATUS_LABELS[value]}
          </option>
        ))}
      </select>
      {status === 'fixed' ? (
        <>
          <label htmlFor={`${id}-version`}>in version</label>
          {versions.length > 0 ? (
            <select
              id={`${id}-version`}
              value={chosenVersion}
              onChange={(event) => setVersion(event.target.value)}
            >
              {versions.map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </select>
          ) : (
            <input
              id={`${id}-version`}
              value={version}
              maxLength={100}
              size={10}
              required
              onChange={(event) => setVersion(event.target.value)}
            />
          )}
        </>
      ) : null}
      <button
        type="submit"
        className="mp-button"
        disabled={busy || unchanged || (status === 'fixed' && !chosenVersion)}
      >
        Save status
      </button>
      {failure ? (
        <span className="site-error" role="alert">
          {failure}
        </span>
      ) : null}
    </form>
  );
}

function GroupPage({ plugin, groupId }: { plugin: Plugin; groupId: number }) {
  const id = useId();
  const [group, reload] = useLoad(
    (signal) => api.exceptions.getGroup(plugin.id, groupId, { signal }),
    [plugin.id, groupId],
  );

  return (
    <section aria-labelledby={`${id}-heading`}>
      <p>
        <Link to={{ search: '' }}>← All exceptions</Link>
      </p>
      {group.status === 'pending' ? <p className="site-muted">Loading the exception…</p> : null}
      {group.status === 'rejected' ? (
        <p className="site-error" role="alert">
          {errorText(group.error)}
        </p>
      ) : null}
      {group.status === 'resolved' ? (
        <GroupDetail plugin={plugin} group={group.data} headingId={`${id}-heading`} onChanged={reload} />
      ) : (
        <h2 id={`${id}-heading`} className="site-visually-hidden">
          Exception
        </h2>
      )}
    </section>
  );
}

function GroupDetail({
  plugin,
  group,
  headingId,
  onChanged,
}: {
  plugin: Plugin;
  group: ExceptionGroupDetail;
  headingId: string;
  onChanged: () => void;
}) {
  const latest = group.latest;
  return (
    <>
      <h2 id={headingId} className="site-exceptions__heading">
        {group.exceptionClass} <StatusBadge group={group} />
      </h2>
      {group.message ? <p className="site-exceptions__message">{group.message}</p> : null}
      {group.statusNote ? (
        <p className="site-exceptions__note" role="note">
          {group.statusNote}
          {group.statusChangedAt ? ` (${formatDisplayDate(group.statusChangedAt)})` : ''}
        </p>
      ) : null}
      <dl className="site-facts" aria-label="Counts">
        <dt>Reports</dt>
        <dd>{formatNumber(group.total)}</dd>
        <dt>Last 30 days</dt>
        <dd>{formatNumber(group.recent)}</dd>
        <dt>Installations</dt>
        <dd>{formatNumber(group.installations)}</dd>
        <dt>First seen</dt>
        <dd>{formatDisplayDate(group.firstSeen)}</dd>
        <dt>Last seen</dt>
        <dd>{formatDisplayDate(group.lastSeen)}</dd>
      </dl>
      <StatusForm
        key={`${group.status}:${group.fixedInVersion ?? ''}`}
        plugin={plugin}
        group={group}
        onChanged={onChanged}
      />

      <section className="site-card-block" aria-label="Latest report">
        <h3>Latest report</h3>
        {latest ? (
          <>
            <p className="site-muted">
              Report {latest.id}, {formatDisplayDate(latest.receivedAt)}
              {latest.pluginVersion ? `, version ${latest.pluginVersion}` : ''}
              {latest.productName ? `, ${latest.productName}` : ''}
              {latest.build ? ` (${latest.build})` : ''}
              {latest.os ? `, ${latest.os}` : ''}
              {latest.java ? `, Java ${latest.java}` : ''}
              {latest.lastAction ? `, after the action ${latest.lastAction}` : ''}
              {latest.attachmentNames.length
                ? `. Attachments (not kept): ${latest.attachmentNames.join(', ')}`
                : ''}
            </p>
            <pre className="site-exceptions__trace" aria-label="Stack trace" tabIndex={0}>
              {latest.stackTrace}
            </pre>
          </>
        ) : (
          <p className="site-muted">No report of this group is kept whole any more; its counts are below.</p>
        )}
        <details>
          <summary>What reports are grouped by</summary>
          <pre className="site-exceptions__code">{group.normalisedTrace}</pre>
          <p className="site-muted">
            The exception classes and the frames of the plugin’s own package
            {group.pluginPackage ? ` (${group.pluginPackage})` : ' (none found, so the top frames)'}, without
            line numbers, messages or generated names. {formatNumber(group.storedReports)} of{' '}
            {formatNumber(group.total)} reports are kept whole.
          </p>
        </details>
      </section>

      <section aria-label="Environment">
        <h3>Environment</h3>
        <div className="site-exceptions__environment">
          <EnvironmentTable
            caption={`${itemNoun(plugin.info.family, { capitalised: true })} versions`}
            counts={group.environment.versions}
          />
          <EnvironmentTable caption="IDE builds" counts={group.environment.builds} />
          <EnvironmentTable caption="Operating systems" counts={group.environment.operatingSystems} />
          <EnvironmentTable caption="Java runtimes" counts={group.environment.javaVersions} />
        </div>
      </section>

      <section aria-label="Comments">
        <h3>Comments</h3>
        {group.comments.length === 0 ? <p className="site-muted">No user has written a comment.</p> : null}
        {group.comments.map((comment) => (
          <article key={comment.reportId} className="site-review">
            <header className="site-muted">
              {formatDisplayDate(comment.receivedAt)}
              {comment.pluginVersion ? `, version ${comment.pluginVersion}` : ''}
              {comment.build ? `, ${comment.build}` : ''}, report {comment.reportId}
            </header>
            <p className="site-review__text">{comment.text}</p>
          </article>
        ))}
      </section>
    </>
  );
}

/**
 * The exception analyzer tab of an item (for its people and administrators): the groups of error reports its
 * users' IDEs sent, the most reported in the last 30 days first; `?group=<id>` opens one group.
 */
export default function ExceptionAnalyzerTab({ plugin }: { plugin: Plugin }) {
  const [params] = useSearchParams();
  const groupId = positiveNumber(params.get('group'));
  return groupId === undefined ? (
    <GroupList plugin={plugin} />
  ) : (
    <GroupPage key={groupId} plugin={plugin} groupId={groupId} />
  );
}
