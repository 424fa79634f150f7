import type { SearchSuggestions } from '@marketplace/api-client';
import { familyLabel, PRODUCT_FAMILIES, type ProductFamily } from '@marketplace/core';
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

/** One family's list: saved items in order, edited here (add, remove, move) and saved as a whole. */
function FamilyList({ family }: { family: ProductFamily }) {
  const toasts = useToasts();
  const searchId = useId();
  const [saved, reload] = useLoad(
    async (signal) => ({ family, items: await api.featuredItems.list(family, { signal }) }),
    [family],
  );
  const [draft, setDraft] = useState<Entry[] | undefined>(undefined);
  const [text, setText] = useState('');
  const [saving, setSaving] = useState(false);
  const suggestions = useItemSuggestions(text, family);

  // The list of another family (kept by useLoad while the next loads) is not this one's.
  const current = saved.status === 'resolved' && saved.data.family === family ? saved.data.items : undefined;
  const savedEntries: Entry[] | undefined = current?.map(({ id, name, link }) => ({ id, name, link }));
  const entries = draft ?? savedEntries;
  const changed =
    draft !== undefined &&
    JSON.stringify(draft.map((e) => e.id)) !== JSON.stringify(savedEntries?.map((e) => e.id));

  useEffect(() => {
    setDraft(undefined);
    setText('');
  }, [family]);

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
      await api.featuredItems.set(
        family,
        entries.map((entry) => entry.id),
      );
      toasts?.show({ kind: 'success', title: `Featured items of ${familyLabel(family)} saved` });
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
  const full = entries.length >= FEATURED_ITEMS_MAX;
  const offered = suggestions.filter((suggestion) => !entries.some((entry) => entry.id === suggestion.id));
  return (
    <section className="site-featured-admin" aria-label={`Featured items of ${familyLabel(family)}`}>
      {entries.length === 0 ? (
        <p className="site-muted">
          No featured items: the home page shows no Featured section for this family.
        </p>
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
                aria-label={`Move ${entry.name} up`}
                disabled={index === 0}
                onClick={() => edit(moved(entries, index, -1))}
              >
                ↑
              </button>
              <button
                type="button"
                className="site-button-secondary"
                aria-label={`Move ${entry.name} down`}
                disabled={index === entries.length - 1}
                onClick={() => edit(moved(entries, index, 1))}
              >
                ↓
              </button>
              <button
                type="button"
                className="site-button-danger"
                aria-label={`Remove ${entry.name}`}
                onClick={() => edit(entries.filter((other) => other.id !== entry.id))}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
      )}
      <div className="site-featured-admin__add">
        <label htmlFor={searchId}>Add an item</label>
        <input
          id={searchId}
          type="search"
          value={text}
          disabled={full}
          autoComplete="off"
          placeholder={full ? `At most ${FEATURED_ITEMS_MAX} items` : 'Type two letters or more of its name'}
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
          {saving ? 'Saving…' : 'Save'}
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

function Featured() {
  const [family, setFamily] = useState<ProductFamily>('intellij');
  const familyId = useId();
  return (
    <div className="site-page site-admin">
      <h1>Featured items</h1>
      <AdminNav />
      <p className="site-muted">The items of each product family the home page shows first, in this order.</p>
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
      <FamilyList family={family} />
    </div>
  );
}

export default function FeaturedPage() {
  usePageTitle('Featured items');
  return <RequireSignIn>{() => <Featured />}</RequireSignIn>;
}
