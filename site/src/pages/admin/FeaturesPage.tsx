import type { FeatureFlag, FeatureStatistic, UserSuggestion } from '@marketplace/api-client';
import { FEATURE_TYPE_LABELS, FEATURE_TYPES, formatDisplayDate, type FeatureType } from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { RequireSignIn } from '../../components/RequireSignIn';
import { api } from '../../lib/api';
import { showErrorToast } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';
import { AdminNav } from './AdminNav';
import { adminErrorText } from './SellersSection';

type FlagValue = boolean | number | string[];

/** The value as one line of a table: "On", "30% of visitors", "admin, visitor". */
function valueText(flag: Pick<FeatureFlag, 'type' | 'value'>): string {
  const value = flag.value as FlagValue;
  switch (flag.type) {
    case 'boolean':
      return value === true ? 'On' : 'Off';
    case 'percentage':
      return `${String(value)}% of visitors`;
    case 'users':
    case 'vendors':
      return Array.isArray(value) && value.length > 0 ? value.join(', ') : 'Nobody';
    default:
      return flag.type satisfies never;
  }
}

function defaultValue(type: FeatureType): FlagValue {
  if (type === 'boolean') return false;
  if (type === 'percentage') return 0;
  return [];
}

/** Users are offered by type-ahead (`/api/users/suggestions`); a login typed in full works as well. */
function useUserSuggestions(text: string, enabled: boolean): UserSuggestion[] {
  const [suggestions, setSuggestions] = useState<UserSuggestion[]>([]);
  useEffect(() => {
    const term = text.trim();
    if (!enabled || term.length < 2) {
      setSuggestions([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api.users
        .suggestions(term, 8, { signal: controller.signal })
        .then(setSuggestions, () => setSuggestions([]));
    }, 150);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, enabled]);
  return suggestions;
}

/** The list of logins or vendor names of a list flag: chips to remove, a field to add. */
function ListInput({
  type,
  value,
  onChange,
}: {
  type: 'users' | 'vendors';
  value: string[];
  onChange: (value: string[]) => void;
}) {
  const [entry, setEntry] = useState('');
  const inputId = useId();
  const listId = useId();
  const suggestions = useUserSuggestions(entry, type === 'users');
  const what = type === 'users' ? 'login' : 'vendor name';
  function add() {
    const name = entry.trim();
    if (name && !value.includes(name)) onChange([...value, name]);
    setEntry('');
  }
  return (
    <fieldset className="site-features__list">
      <legend>{type === 'users' ? 'Users (by login)' : 'Vendors (by name)'}</legend>
      {value.length === 0 ? <p className="site-muted">Nobody yet.</p> : null}
      <ul className="site-chips">
        {value.map((name) => (
          <li key={name}>
            <button
              type="button"
              className="site-chip"
              aria-label={`Remove ${name}`}
              onClick={() => onChange(value.filter((other) => other !== name))}
            >
              {name} ×
            </button>
          </li>
        ))}
      </ul>
      <div className="site-inline-form">
        <label htmlFor={inputId} className="mp-visually-hidden">
          Add a {what}
        </label>
        <input
          id={inputId}
          value={entry}
          list={type === 'users' ? listId : undefined}
          placeholder={`Add a ${what}`}
          autoComplete="off"
          onChange={(event) => setEntry(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
        />
        {type === 'users' ? (
          <datalist id={listId}>
            {suggestions.map((user) => (
              <option key={user.id} value={user.login}>
                {user.name}
              </option>
            ))}
          </datalist>
        ) : null}
        <button type="button" className="site-button-secondary" onClick={add}>
          Add
        </button>
      </div>
    </fieldset>
  );
}

/** Create a flag (no `flag`) or change one: inputs follow the type. */
function FlagForm({
  flag,
  onSaved,
  onCancel,
}: {
  flag: FeatureFlag | undefined;
  onSaved: (flag: FeatureFlag) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(flag?.name ?? '');
  const [type, setType] = useState<FeatureType>(flag?.type ?? 'boolean');
  const [description, setDescription] = useState(flag?.description ?? '');
  const [value, setValue] = useState<FlagValue>((flag?.value as FlagValue | undefined) ?? false);
  const [reason, setReason] = useState('');
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const ids = { name: useId(), type: useId(), description: useId(), value: useId(), reason: useId() };

  function changeType(next: FeatureType) {
    setType(next);
    setValue(next === flag?.type ? (flag.value as FlagValue) : defaultValue(next));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setFailure('');
    try {
      const saved = flag
        ? await api.features.change(flag.name, { type, description, value, reason: reason || undefined })
        : await api.features.create({
            name: name.trim(),
            type,
            description,
            value,
            reason: reason || undefined,
          });
      onSaved(saved);
    } catch (error) {
      setFailure(adminErrorText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="site-card-block site-features__form"
      aria-label={flag ? `Edit ${flag.name}` : 'New flag'}
      onSubmit={(event) => void submit(event)}
    >
      <h2>{flag ? `Edit ${flag.name}` : 'New flag'}</h2>
      <div className="site-features__fields">
        <label className="site-field" htmlFor={ids.name}>
          Name
          <input
            id={ids.name}
            value={name}
            readOnly={flag !== undefined}
            required
            maxLength={64}
            placeholder="home-new-items"
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <label className="site-field" htmlFor={ids.type}>
          Type
          <select
            id={ids.type}
            value={type}
            onChange={(event) => changeType(event.target.value as FeatureType)}
          >
            {FEATURE_TYPES.map((option) => (
              <option key={option} value={option}>
                {FEATURE_TYPE_LABELS[option]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="site-field" htmlFor={ids.description}>
        Description
        <textarea
          id={ids.description}
          value={description}
          maxLength={500}
          rows={2}
          onChange={(event) => setDescription(event.target.value)}
        />
      </label>
      {type === 'boolean' ? (
        <label className="site-check">
          <input
            type="checkbox"
            checked={value === true}
            onChange={(event) => setValue(event.target.checked)}
          />
          On for everyone
        </label>
      ) : null}
      {type === 'percentage' ? (
        <label className="site-field" htmlFor={ids.value}>
          Share of visitors, in percent (0 to 100)
          <input
            id={ids.value}
            type="number"
            min={0}
            max={100}
            step={1}
            value={typeof value === 'number' ? value : 0}
            onChange={(event) => setValue(event.target.value === '' ? 0 : Number(event.target.value))}
          />
        </label>
      ) : null}
      {type === 'users' || type === 'vendors' ? (
        <ListInput
          type={type}
          value={Array.isArray(value) ? value : []}
          onChange={(next) => setValue(next)}
        />
      ) : null}
      <label className="site-field" htmlFor={ids.reason}>
        Reason (for the audit log)
        <input
          id={ids.reason}
          value={reason}
          maxLength={1000}
          onChange={(event) => setReason(event.target.value)}
        />
      </label>
      {failure ? (
        <p className="site-error" role="alert">
          {failure}
        </p>
      ) : null}
      <div className="site-form-actions">
        <button type="submit" className="mp-button" disabled={busy}>
          {flag ? 'Save' : 'Create flag'}
        </button>
        <button type="button" className="site-button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function FlagTable({
  label,
  flags,
  onEdit,
  onChanged,
}: {
  label: string;
  flags: FeatureFlag[];
  onEdit: (flag: FeatureFlag) => void;
  onChanged: () => void;
}) {
  const toasts = useToasts();

  async function act(work: () => Promise<unknown>, done: string) {
    try {
      await work();
      toasts?.show({ kind: 'success', title: done });
      onChanged();
    } catch (error) {
      showErrorToast(toasts, error, adminErrorText);
    }
  }

  if (flags.length === 0) return <p className="site-muted">No flags.</p>;
  return (
    <div className="site-table-scroll">
      <table className="site-table site-features__table" aria-label={label}>
        <thead>
          <tr>
            <th scope="col">Flag</th>
            <th scope="col">Type</th>
            <th scope="col">Value</th>
            <th scope="col">Changed</th>
            <th scope="col">
              <span className="mp-visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {flags.map((flag) => (
            <tr key={flag.name}>
              <td>
                <code>{flag.name}</code>
                {flag.description ? <div className="site-muted">{flag.description}</div> : null}
              </td>
              <td>{FEATURE_TYPE_LABELS[flag.type]}</td>
              <td>
                {flag.type === 'boolean' ? (
                  <span className={`site-badge${flag.value === true ? ' site-badge--success' : ''}`}>
                    {valueText(flag)}
                  </span>
                ) : (
                  valueText(flag)
                )}
              </td>
              <td>
                {formatDisplayDate(flag.updatedAt)}
                {flag.updatedBy ? <div className="site-muted">by {flag.updatedBy}</div> : null}
              </td>
              <td>
                <div className="site-features__actions">
                  {flag.type === 'boolean' ? (
                    <button
                      type="button"
                      className="site-button-secondary"
                      aria-label={`${flag.value === true ? 'Turn off' : 'Turn on'} ${flag.name}`}
                      onClick={() =>
                        void act(
                          () => api.features.change(flag.name, { value: flag.value !== true }),
                          `${flag.name} is ${flag.value === true ? 'off' : 'on'}`,
                        )
                      }
                    >
                      {flag.value === true ? 'Turn off' : 'Turn on'}
                    </button>
                  ) : null}
                  <button
                    type="button"
                    className="site-button-secondary"
                    aria-label={`Edit ${flag.name}`}
                    onClick={() => onEdit(flag)}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="site-button-danger"
                    aria-label={`Delete ${flag.name}`}
                    onClick={() => {
                      if (
                        !window.confirm(`Delete the flag ${flag.name}? It is off for everyone from then on.`)
                      )
                        return;
                      void act(() => api.features.remove(flag.name), `${flag.name} deleted`);
                    }}
                  >
                    Delete
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Usage({ generation }: { generation: number }) {
  const [usage, reload] = useLoad(
    (signal): Promise<FeatureStatistic> => api.features.statistic({ signal }),
    [generation],
  );
  return (
    <section className="site-section" aria-labelledby="feature-usage-heading">
      <div className="site-section__head">
        <h2 id="feature-usage-heading">Usage</h2>
        <button type="button" className="site-button-secondary" onClick={reload}>
          Refresh
        </button>
      </div>
      <p className="site-muted">
        How often each flag was asked for and came out on, counted since its type or value last changed.
      </p>
      {usage.status === 'rejected' ? <p className="site-error">{adminErrorText(usage.error)}</p> : null}
      {usage.status === 'resolved' ? (
        <div className="site-table-scroll">
          <table className="site-table" aria-label="Usage of each flag">
            <thead>
              <tr>
                <th scope="col">Flag</th>
                <th scope="col">Evaluations</th>
                <th scope="col">On</th>
                <th scope="col">Off</th>
                <th scope="col">On share</th>
                <th scope="col">Since</th>
                <th scope="col">Last asked</th>
              </tr>
            </thead>
            <tbody>
              {usage.data.flags.map((flag) => (
                <tr key={flag.name}>
                  <td>
                    <code>{flag.name}</code>
                  </td>
                  <td>{flag.evaluations.toLocaleString('en-US')}</td>
                  <td>{flag.on.toLocaleString('en-US')}</td>
                  <td>{flag.off.toLocaleString('en-US')}</td>
                  <td>{flag.onPercent === null ? '—' : `${flag.onPercent}%`}</td>
                  <td>{formatDisplayDate(flag.countedSince)}</td>
                  <td>{flag.lastEvaluatedAt === null ? 'Never' : formatDisplayDate(flag.lastEvaluatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

function Features() {
  const [query, setQuery] = useState('');
  const [type, setType] = useState<FeatureType | ''>('');
  const [grouped, setGrouped] = useState(false);
  const [editing, setEditing] = useState<FeatureFlag | 'new' | undefined>(undefined);
  const [generation, setGeneration] = useState(0);
  const searchId = useId();
  const typeId = useId();
  const [flags, reload] = useLoad(
    (signal): Promise<FeatureFlag[]> =>
      query.trim()
        ? api.features.search(query.trim(), type || undefined, { signal })
        : api.features.list(type || undefined, { signal }),
    [query, type, generation],
  );
  const [groups] = useLoad(
    (signal) => (grouped ? api.features.groupByTypes({ signal }) : Promise.resolve(undefined)),
    [grouped, generation],
  );
  // Grouped: the server's grouping of every flag, or the search's answer grouped here.
  let shownGroups: Record<FeatureType, FeatureFlag[]> | undefined;
  if (grouped && query.trim() && flags.status === 'resolved') {
    shownGroups = { boolean: [], percentage: [], users: [], vendors: [] };
    for (const flag of flags.data) shownGroups[flag.type].push(flag);
  } else if (grouped && !query.trim() && groups.status === 'resolved' && groups.data) {
    shownGroups = groups.data;
  }
  const changed = () => {
    setGeneration((value) => value + 1);
    reload();
  };

  return (
    <div className="site-page site-admin site-features">
      <h1>Feature flags</h1>
      <AdminNav />
      <form
        className="site-inline-form site-features__search"
        role="search"
        onSubmit={(event) => event.preventDefault()}
      >
        <label htmlFor={searchId}>Search flags</label>
        <input
          id={searchId}
          type="search"
          value={query}
          placeholder="Name or description"
          onChange={(event) => setQuery(event.target.value)}
        />
        <label htmlFor={typeId}>Type</label>
        <select
          id={typeId}
          value={type}
          onChange={(event) => setType(event.target.value as FeatureType | '')}
        >
          <option value="">All types</option>
          {FEATURE_TYPES.map((option) => (
            <option key={option} value={option}>
              {FEATURE_TYPE_LABELS[option]}
            </option>
          ))}
        </select>
        <label className="site-check">
          <input type="checkbox" checked={grouped} onChange={(event) => setGrouped(event.target.checked)} />
          Group by type
        </label>
        <button type="button" className="mp-button" onClick={() => setEditing('new')}>
          New flag
        </button>
      </form>
      {editing !== undefined ? (
        <FlagForm
          key={editing === 'new' ? 'new' : editing.name}
          flag={editing === 'new' ? undefined : editing}
          onCancel={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            changed();
          }}
        />
      ) : null}
      {flags.status === 'rejected' ? <p className="site-error">{adminErrorText(flags.error)}</p> : null}
      {flags.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
      {shownGroups ? (
        FEATURE_TYPES.filter((group) => !type || group === type).map((group) => (
          <section key={group} className="site-section" aria-labelledby={`features-${group}`}>
            <h2 id={`features-${group}`}>{FEATURE_TYPE_LABELS[group]}</h2>
            <FlagTable
              label={FEATURE_TYPE_LABELS[group]}
              flags={shownGroups[group]}
              onEdit={setEditing}
              onChanged={changed}
            />
          </section>
        ))
      ) : flags.status === 'resolved' ? (
        <section className="site-section" aria-label="Flags">
          <FlagTable label="Flags" flags={flags.data} onEdit={setEditing} onChanged={changed} />
        </section>
      ) : null}
      <Usage generation={generation} />
    </div>
  );
}

export default function FeaturesPage() {
  usePageTitle('Feature flags');
  return <RequireSignIn>{() => <Features />}</RequireSignIn>;
}
