import type { PluginSummary, SearchSuggestions } from '@marketplace/api-client';
import {
  familyLabel,
  IDE_PRODUCT_KEYS,
  IDE_PRODUCTS,
  isIdeProductKey,
  itemNoun,
  PRODUCT_FAMILIES,
  productFullName,
  type IdeProductKey,
  type ProductFamily,
} from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { RequireSignIn } from '../../components/RequireSignIn';
import { api } from '../../lib/api';
import { showErrorToast } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';
import { AdminNav } from './AdminNav';
import { adminErrorText } from './SellersSection';
import '../../styles/admin-featured.css';

/** The most items a family's list holds (api-contract's FEATURED_ITEMS_MAX; the server refuses more). */
const FEATURED_ITEMS_MAX = 24;
/** The most staff picks an IDE product holds (api-contract's FEATURED_PLUGINS_MAX). */
const FEATURED_PLUGINS_MAX = 24;

/** An item of the list being edited: what its row shows. */
interface Entry {
  id: number;
  name: string;
  link: string;
}

type Suggestion = SearchSuggestions['plugins'][number];

/** Items of the family whose name matches what is typed (two letters or more), for adding. */
function useItemSuggestions(text: string, family: ProductFamily): Suggestion[] {
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  useEffect(() => {
    const term = text.trim();
    if (term.length < 2) {
      setSuggestions([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api.searchSuggest({ term, family, max: 8 }, { signal: controller.signal }).then(
        (found) => setSuggestions(found.plugins),
        () => setSuggestions([]),
      );
    }, 150);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, family]);
  return suggestions;
}

function moved(entries: readonly Entry[], index: number, by: -1 | 1): Entry[] {
  const next = [...entries];
  const [entry] = next.splice(index, 1);
  if (entry) next.splice(index + by, 0, entry);
  return next;
}

/** What a list of picks is: where it is read and saved, what it is called, which items may join it. */
interface PicksList {
  /** Changes when another list is shown (the edits of the previous one are dropped). */
  key: string;
  /** The region's name, e.g. "Featured items of TeamCity". */
  label: string;
  load: (signal: AbortSignal) => Promise<PluginSummary[]>;
  save: (pluginIds: number[]) => Promise<unknown>;
  /** The toast once saved. */
  savedTitle: string;
  /** Said when the list is empty. */
  emptyText: string;
  /** The family whose items the type-ahead offers. */
  family: ProductFamily;
  max: number;
  /** The label of the type-ahead ("Add an item"). */
  addLabel: string;
  /** The name of the save button ("Save"). */
  saveLabel: string;
  /** The names of a row's buttons: an item can be in both lists of the page, so the picks' say so. */
  rowLabel: (action: RowAction, name: string) => string;
}

type RowAction = 'up' | 'down' | 'remove';

const PLAIN_ROW_LABELS: Record<RowAction, (name: string) => string> = {
  up: (name) => `Move ${name} up`,
  down: (name) => `Move ${name} down`,
  remove: (name) => `Remove ${name}`,
};

const PICKS_ROW_LABELS: Record<RowAction, (name: string) => string> = {
  up: (name) => `Move ${name} up in the picks`,
  down: (name) => `Move ${name} down in the picks`,
  remove: (name) => `Remove ${name} from the picks`,
};

/** One list of picks: saved items in order, edited here (add, remove, move) and saved as a whole. */
function PicksEditor({ list }: { list: PicksList }) {
  const toasts = useToasts();
  const searchId = useId();
  const { key, family } = list;
  const [saved, reload] = useLoad(async (signal) => ({ key, items: await list.load(signal) }), [key]);
  const [draft, setDraft] = useState<Entry[] | undefined>(undefined);
  const [text, setText] = useState('');
  const [saving, setSaving] = useState(false);
  const suggestions = useItemSuggestions(text, family);

  // The list of another key (kept by useLoad while the next loads) is not this one's.
  const current = saved.status === 'resolved' && saved.data.key === key ? saved.data.items : undefined;
  const savedEntries: Entry[] | undefined = current?.map(({ id, name, link }) => ({ id, name, link }));
  const entries = draft ?? savedEntries;
  const changed =
    draft !== undefined &&
    JSON.stringify(draft.map((e) => e.id)) !== JSON.stringify(savedEntries?.map((e) => e.id));

  useEffect(() => {
    setDraft(undefined);
    setText('');
  }, [key]);

  function edit(next: Entry[]) {
    setDraft(next);
  }

  function add(suggestion: Suggestion) {
    if (!entries || entries.some((entry) => entry.id === suggestion.id)) return;
    edit([...entries, { id: suggestion.id, name: suggestion.name, link: suggestion.link }]);
    setText('');
  }

  async function save() {
    if (!entries) return;
    setSaving(true);
    try {
      await list.save(entries.map((entry) => entry.id));
      toasts?.show({ kind: 'success', title: list.savedTitle });
      setDraft(undefined);
      reload();
    } catch (error) {
      showErrorToast(toasts, error, adminErrorText);
    } finally {
      setSaving(false);
    }
  }

  if (saved.status === 'rejected') return <p className="site-error">{adminErrorText(saved.error)}</p>;
  if (!entries) return <p className="site-muted">Loading…</p>;
  const full = entries.length >= list.max;
  const offered = suggestions.filter((suggestion) => !entries.some((entry) => entry.id === suggestion.id));
  return (
    <section className="site-featured-admin" aria-label={list.label}>
      {entries.length === 0 ? (
        <p className="site-muted">{list.emptyText}</p>
      ) : (
        <ol className="site-featured-admin__list">
          {entries.map((entry, index) => (
            <li key={entry.id} aria-label={entry.name}>
              <span className="site-featured-admin__position">{index + 1}.</span>
              <Link to={entry.link} className="site-featured-admin__name">
                {entry.name}
              </Link>
              <button
                type="button"
                className="site-button-secondary"
                aria-label={list.rowLabel('up', entry.name)}
                disabled={index === 0}
                onClick={() => edit(moved(entries, index, -1))}
              >
                ↑
              </button>
              <button
                type="button"
                className="site-button-secondary"
                aria-label={list.rowLabel('down', entry.name)}
                disabled={index === entries.length - 1}
                onClick={() => edit(moved(entries, index, 1))}
              >
                ↓
              </button>
              <button
                type="button"
                className="site-button-danger"
                aria-label={list.rowLabel('remove', entry.name)}
                onClick={() => edit(entries.filter((other) => other.id !== entry.id))}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
      )}
      <div className="site-featured-admin__add">
        <label htmlFor={searchId}>{list.addLabel}</label>
        <input
          id={searchId}
          type="search"
          value={text}
          disabled={full}
          autoComplete="off"
          placeholder={full ? `At most ${list.max} items` : 'Type two letters or more of its name'}
          onChange={(event) => setText(event.target.value)}
        />
        {offered.length > 0 && !full ? (
          <ul className="site-featured-admin__suggestions" aria-label="Matching items">
            {offered.map((suggestion) => (
              <li key={suggestion.id}>
                <button type="button" className="site-button-secondary" onClick={() => add(suggestion)}>
                  Add {suggestion.name}
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <div className="site-form-actions">
        <button type="button" className="mp-button" disabled={!changed || saving} onClick={() => void save()}>
          {saving ? 'Saving…' : list.saveLabel}
        </button>
        <button
          type="button"
          className="site-button-secondary"
          disabled={!changed || saving}
          onClick={() => setDraft(undefined)}
        >
          Discard changes
        </button>
        {changed ? <span className="site-muted">Unsaved changes</span> : null}
      </div>
    </section>
  );
}

function familyList(family: ProductFamily): PicksList {
  return {
    key: `family:${family}`,
    label: `Featured items of ${familyLabel(family)}`,
    load: (signal) => api.featuredItems.list(family, { signal }),
    save: (pluginIds) => api.featuredItems.set(family, pluginIds),
    savedTitle: `Featured items of ${familyLabel(family)} saved`,
    emptyText: 'No featured items: the home page shows no Featured section for this family.',
    family,
    max: FEATURED_ITEMS_MAX,
    addLabel: 'Add an item',
    saveLabel: 'Save',
    rowLabel: (action, name) => PLAIN_ROW_LABELS[action](name),
  };
}

function staffPicksList(product: IdeProductKey): PicksList {
  const ide = IDE_PRODUCTS[product];
  const name = productFullName(ide);
  return {
    key: `product:${product}`,
    label: `Staff picks of ${name}`,
    load: (signal) => api.getFeatured({ product }, { signal }),
    save: (pluginIds) => api.setFeaturedPlugins(product, pluginIds),
    savedTitle: `Staff picks of ${name} saved`,
    emptyText: `No staff picks: ${name} shows no featured ${itemNoun(ide.family, { plural: true })}.`,
    family: ide.family,
    max: FEATURED_PLUGINS_MAX,
    addLabel: `Add a ${itemNoun(ide.family)} to the picks`,
    saveLabel: 'Save staff picks',
    rowLabel: (action, name) => PICKS_ROW_LABELS[action](name),
  };
}

function Featured() {
  const [family, setFamily] = useState<ProductFamily>('intellij');
  const [product, setProduct] = useState<IdeProductKey>('IDEA');
  const familyId = useId();
  const productId = useId();
  return (
    <div className="site-page site-admin">
      <h1>Featured items</h1>
      <AdminNav />
      <section aria-labelledby="featured-families-heading">
        <h2 id="featured-families-heading">Home page, per product family</h2>
        <p className="site-muted">
          The items of each product family the home page shows first, in this order.
        </p>
        <div className="site-inline-form">
          <label htmlFor={familyId}>Product family</label>
          <select
            id={familyId}
            value={family}
            onChange={(event) => setFamily(event.target.value as ProductFamily)}
          >
            {PRODUCT_FAMILIES.map((value) => (
              <option key={value} value={value}>
                {familyLabel(value)}
              </option>
            ))}
          </select>
        </div>
        <PicksEditor list={familyList(family)} />
      </section>
      <section aria-labelledby="featured-products-heading">
        <h2 id="featured-products-heading">Staff picks, per IDE</h2>
        <p className="site-muted">
          What each IDE&apos;s marketplace window shows as featured, in this order; the browse page&apos;s
          &ldquo;Staff picks&rdquo; filter keeps them. Only items that run on the IDE can be picked.
        </p>
        <div className="site-inline-form">
          <label htmlFor={productId}>IDE</label>
          <select
            id={productId}
            value={product}
            onChange={(event) => {
              if (isIdeProductKey(event.target.value)) setProduct(event.target.value);
            }}
          >
            {IDE_PRODUCT_KEYS.map((key) => (
              <option key={key} value={key}>
                {productFullName(IDE_PRODUCTS[key])}
              </option>
            ))}
          </select>
        </div>
        <PicksEditor list={staffPicksList(product)} />
      </section>
    </div>
  );
}

export default function FeaturedPage() {
  usePageTitle('Featured items');
  return <RequireSignIn>{() => <Featured />}</RequireSignIn>;
}
