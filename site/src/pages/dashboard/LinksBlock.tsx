import type { Plugin, PluginUrlsChanges } from '@marketplace/api-client';
import { PLUGIN_URL_FIELDS, type PluginUrlField } from '@marketplace/api-contract';
import { useState, type FormEvent } from 'react';
import { api } from '../../lib/api';
import { Block, useSave } from './manage-parts';

/** The single links, in the order the form shows them. */
export const URL_FIELD_LABELS: Readonly<Record<PluginUrlField, string>> = {
  url: 'Website',
  sourceCodeUrl: 'Source code',
  bugtrackerUrl: 'Issue tracker',
  docUrl: 'Documentation',
  forumUrl: 'Forum',
  licenseUrl: 'License',
  privacyPolicyUrl: 'Privacy policy',
};
const URL_FIELDS = Object.keys(URL_FIELD_LABELS) as PluginUrlField[];

/** The server keeps at most this many donation links and custom contacts (the contract's maxItems). */
export const MAX_LINK_ROWS = 20;

interface Row {
  /** The row's own key, so React keeps its inputs while rows above it go. */
  key: number;
  label: string;
  url: string;
}

let nextRowKey = 1;
const row = (label = '', url = ''): Row => ({ key: nextRowKey++, label, url });

/** One list of named links (donation links, custom contacts) as rows to edit, add and remove. */
function LinkRows({
  legend,
  what,
  labelName,
  rows,
  onChange,
}: {
  legend: string;
  /** One row's name in button labels and messages ('donation link'). */
  what: string;
  labelName: string;
  rows: readonly Row[];
  onChange: (rows: Row[]) => void;
}) {
  const change = (key: number, part: Partial<Row>) =>
    onChange(rows.map((item) => (item.key === key ? { ...item, ...part } : item)));
  return (
    <fieldset className="site-link-rows">
      <legend>{legend}</legend>
      {rows.length === 0 ? <p className="site-muted">None yet.</p> : null}
      {rows.map((item, index) => (
        <div key={item.key} className="site-link-row">
          <label className="site-field">
            <span>
              {labelName} {index + 1}
            </span>
            <input
              maxLength={100}
              value={item.label}
              onChange={(event) => change(item.key, { label: event.target.value })}
            />
          </label>
          <label className="site-field">
            <span>Address {index + 1}</span>
            <input
              type="url"
              maxLength={2048}
              value={item.url}
              onChange={(event) => change(item.key, { url: event.target.value })}
            />
          </label>
          <button
            type="button"
            className="site-button-secondary"
            aria-label={`Remove ${what} ${index + 1}`}
            onClick={() => onChange(rows.filter((other) => other.key !== item.key))}
          >
            Remove
          </button>
        </div>
      ))}
      <div>
        <button
          type="button"
          className="site-button-secondary"
          disabled={rows.length >= MAX_LINK_ROWS}
          onClick={() => onChange([...rows, row()])}
        >
          Add a {what}
        </button>
      </div>
    </fieldset>
  );
}

/** Rows with something typed, trimmed; the first half-filled one's problem, if any. */
function filled(rows: readonly Row[], what: string, labelName: string) {
  const kept = rows
    .map((item) => ({ label: item.label.trim(), url: item.url.trim() }))
    .filter((item) => item.label !== '' || item.url !== '');
  const broken = kept.findIndex((item) => item.label === '' || item.url === '');
  const problem =
    broken === -1
      ? ''
      : `${what.charAt(0).toUpperCase()}${what.slice(1)} ${broken + 1} needs a ${labelName.toLowerCase()} and an address.`;
  return { kept, problem };
}

/**
 * The item's links (PUT /api/plugins/{id}/urls): website, source code and the other single links, and the
 * donation links and custom contacts as lists; saving sends every field, so a list emptied here is emptied.
 */
export function LinksBlock({ plugin, onSaved }: { plugin: Plugin; onSaved: () => void }) {
  const { busy, save } = useSave();
  const [urls, setUrls] = useState(
    () =>
      Object.fromEntries(URL_FIELDS.map((key) => [key, plugin.urls[key]])) as Record<PluginUrlField, string>,
  );
  const [donations, setDonations] = useState(() =>
    plugin.urls.donationLinks.map((link) => row(link.name, link.url)),
  );
  const [contacts, setContacts] = useState(() =>
    plugin.urls.customContacts.map((contact) => row(contact.title, contact.link)),
  );
  const [problem, setProblem] = useState('');

  async function submit(event: FormEvent) {
    event.preventDefault();
    const donationRows = filled(donations, 'donation link', 'Name');
    const contactRows = filled(contacts, 'custom contact', 'Title');
    const found = donationRows.problem || contactRows.problem;
    setProblem(found);
    if (found) return;
    const body: PluginUrlsChanges = {
      ...Object.fromEntries(PLUGIN_URL_FIELDS.map((key) => [key, urls[key].trim()])),
      donationLinks: donationRows.kept.map((item) => ({ name: item.label, url: item.url })),
      customContacts: contactRows.kept.map((item) => ({ title: item.label, link: item.url })),
    };
    if (await save('Links', () => api.setPluginUrls(plugin.id, body))) onSaved();
  }

  return (
    <Block title="Links">
      <form className="site-form" onSubmit={submit} aria-label="Links" noValidate>
        {URL_FIELDS.map((key) => (
          <label key={key} className="site-field">
            <span>{URL_FIELD_LABELS[key]}</span>
            <input
              type="url"
              maxLength={2048}
              value={urls[key]}
              onChange={(event) => setUrls((previous) => ({ ...previous, [key]: event.target.value }))}
            />
          </label>
        ))}
        <LinkRows
          legend="Donation links"
          what="donation link"
          labelName="Name"
          rows={donations}
          onChange={setDonations}
        />
        <LinkRows
          legend="Custom contacts"
          what="custom contact"
          labelName="Title"
          rows={contacts}
          onChange={setContacts}
        />
        {problem ? (
          <p className="site-error" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="site-form-actions">
          <button type="submit" className="mp-button" disabled={busy}>
            Save links
          </button>
        </div>
      </form>
    </Block>
  );
}
