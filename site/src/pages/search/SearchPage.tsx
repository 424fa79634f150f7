import {
  COMMUNITY_PROGRAM_LABELS,
  COMMUNITY_PROGRAMS,
  familyLabel,
  formatNumber,
  IDE_PRODUCTS,
  itemNoun,
  PAYMENT_FILTERS,
  PRODUCT_FAMILIES,
  SORT_ORDERS,
  isProductFamily,
  isPaymentFilter,
  isSortOrder,
  type IdeProductKey,
  type ProductFamily,
} from '@marketplace/core';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ItemGrid } from '../../components/ItemGrid';
import { Pagination } from '../../components/Pagination';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import {
  activeFilterCount,
  hasFilters,
  readBrowseState,
  searchQueryOf,
  SEARCH_PAGE_SIZE,
  SORT_ORDER_LABELS,
  THEMES_PAGE_SIZE,
  writeBrowseState,
  type BrowseKind,
  type BrowseState,
} from '../../lib/search-state';
import { useLoad } from '../../lib/use-load';
import './search-results.css';

function productName(key: IdeProductKey): string {
  const product = IDE_PRODUCTS[key];
  return product.edition ? `${product.title} ${product.edition}` : product.title;
}

const PAYMENT_LABELS = { all: 'All', paid: 'Paid', free: 'Free' } as const;

/** The most themes the API gives in one answer: "Show more" stops there and "See all" takes over. */
const THEMES_SHOWN_MAX = 96;

/** 'Plugins', 'Courses'... for the family searched (the API searches IntelliJ items when none is chosen). */
function itemsNoun(family: ProductFamily | undefined): string {
  return itemNoun(family ?? 'intellij', { plural: true, capitalised: true });
}

/** How many themes are shown beside the plugins: THEMES_PAGE_SIZE more at each "Show more", per search. */
function useThemesShown(key: string): [number, () => void] {
  const [shown, setShown] = useState({ key, count: THEMES_PAGE_SIZE });
  const count = shown.key === key ? shown.count : THEMES_PAGE_SIZE;
  return [count, () => setShown({ key, count: Math.min(THEMES_SHOWN_MAX, count + THEMES_PAGE_SIZE) })];
}

export default function SearchPage() {
  const [params, setParams] = useSearchParams();
  const state = readBrowseState(params);
  const queryKey = writeBrowseState(state).toString();
  const nounPlural = itemsNoun(state.family);
  usePageTitle(state.search ? `Search: ${state.search}` : `Browse ${nounPlural.toLowerCase()}`);
  // No type chosen: plugins and themes are two result sets (spec §3), each with its own total and pages.
  const split = state.kind === undefined;

  const [result] = useLoad(
    (signal) => api.searchPlugins(searchQueryOf(state, split ? { kind: 'plugins' } : undefined), { signal }),
    [queryKey],
  );
  const themesKey = writeBrowseState({ ...state, page: 1 }).toString();
  const [themesShown, showMoreThemes] = useThemesShown(themesKey);
  const [themes] = useLoad(
    (signal) =>
      split
        ? api.searchPlugins(searchQueryOf(state, { kind: 'themes', max: themesShown, offset: 0 }), { signal })
        : Promise.resolve(undefined),
    [themesKey, themesShown, split],
  );
  const filtersKey = writeBrowseState({ ...state, products: [], page: 1, orderBy: undefined }).toString();
  const [products] = useLoad(
    (signal) => {
      const {
        max: _max,
        offset: _offset,
        orderBy: _orderBy,
        products: _products,
        ...filters
      } = searchQueryOf(state);
      return api.aggregateProducts(filters, { signal });
    },
    [filtersKey],
  );
  const [tagText, setTagText] = useState('');
  // On a narrow screen the filters wait behind a button, so the results come first.
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filterCount = activeFilterCount(state);

  /** Changes the state in the address bar: a new entry, so Back returns to the previous results. */
  function update(change: Partial<BrowseState>) {
    setParams(writeBrowseState({ ...state, page: 1, ...change }));
  }

  function addTag(event: FormEvent) {
    event.preventDefault();
    const tag = tagText.trim();
    if (tag && !state.tags.includes(tag)) update({ tags: [...state.tags, tag] });
    setTagText('');
  }

  const data = result.status === 'resolved' ? result.data.data : undefined;
  const total = data?.total ?? 0;
  const themesData = split && themes.status === 'resolved' ? themes.data?.data : undefined;
  const themesTotal = themesData?.total ?? 0;
  const themesKnown = !split || themes.status !== 'pending';
  const pageHref = (page: number) => `/search?${writeBrowseState({ ...state, page }).toString()}`;
  /** The same words and order, without any filter. */
  const clearedHref = `/search?${writeBrowseState({
    ...readBrowseState(new URLSearchParams()),
    search: state.search,
    orderBy: state.orderBy,
  }).toString()}`;
  // Only themes match: the empty plugin set gives way to them.
  const pluginsShown = !(data && total === 0 && themesTotal > 0);
  const pageCount = Math.max(1, Math.ceil(total / SEARCH_PAGE_SIZE));
  const productCounts = products.status === 'resolved' ? products.data.aggregations : {};
  const productKeys = (Object.keys(IDE_PRODUCTS) as IdeProductKey[]).filter(
    (key) => (productCounts[key] ?? 0) > 0 || state.products.includes(key),
  );

  return (
    <div className="site-page site-browse">
      <button
        type="button"
        className="site-button-secondary site-filters-toggle"
        aria-expanded={filtersOpen}
        aria-controls="search-filters"
        aria-label={filterCount > 0 ? `Filters, ${filterCount} active` : undefined}
        onClick={() => setFiltersOpen((open) => !open)}
      >
        Filters
        {filterCount > 0 ? <span className="site-filters-toggle__count">{filterCount}</span> : null}
      </button>
      <aside
        id="search-filters"
        className={`site-filters${filtersOpen ? ' is-open' : ''}`}
        aria-label="Filters"
      >
        {filterCount > 0 ? (
          <p className="site-filters__clear">
            <Link to={clearedHref}>Clear filters</Link>
          </p>
        ) : null}
        <div className="site-filter">
          <label htmlFor="filter-family">Family</label>
          <select
            id="filter-family"
            value={state.family ?? ''}
            onChange={(event) =>
              update({ family: isProductFamily(event.target.value) ? event.target.value : undefined })
            }
          >
            <option value="">All families</option>
            {PRODUCT_FAMILIES.map((family) => (
              <option key={family} value={family}>
                {familyLabel(family)}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="site-filter">
          <legend>Type</legend>
          {(
            [
              [undefined, 'All types'],
              ['plugins', nounPlural],
              ['themes', 'Themes'],
            ] as const satisfies readonly (readonly [BrowseKind | undefined, string])[]
          ).map(([kind, label]) => (
            <label key={kind ?? 'all'} className="site-check">
              <input
                type="radio"
                name="kind"
                value={kind ?? ''}
                checked={state.kind === kind}
                onChange={() => update({ kind })}
              />
              {label}
            </label>
          ))}
        </fieldset>
        <fieldset className="site-filter">
          <legend>Show only</legend>
          <label className="site-check">
            <input
              type="checkbox"
              name="isFeaturedSearch"
              checked={state.isFeaturedSearch}
              onChange={(event) => update({ isFeaturedSearch: event.target.checked })}
            />
            Staff picks
          </label>
          <label className="site-check">
            <input
              type="checkbox"
              name="shouldHaveSource"
              checked={state.shouldHaveSource}
              onChange={(event) => update({ shouldHaveSource: event.target.checked })}
            />
            With source code
          </label>
          {state.isFeaturedSearch ? (
            <p className="site-muted site-filter__hint">
              {state.products.length
                ? `Featured in the chosen IDEs' marketplace window.`
                : `Featured in any IDE's marketplace window; choose IDEs below for theirs.`}
            </p>
          ) : null}
        </fieldset>
        <fieldset className="site-filter">
          <legend>Pricing</legend>
          {PAYMENT_FILTERS.map((payment) => (
            <label key={payment} className="site-check">
              <input
                type="radio"
                name="payment"
                value={payment}
                checked={state.payment === payment}
                onChange={(event) =>
                  isPaymentFilter(event.target.value) && update({ payment: event.target.value })
                }
              />
              {PAYMENT_LABELS[payment]}
            </label>
          ))}
        </fieldset>
        <fieldset className="site-filter">
          <legend>Community programs</legend>
          {COMMUNITY_PROGRAMS.map((program) => (
            <label key={program} className="site-check">
              <input
                type="checkbox"
                name="communityPrograms"
                value={program}
                checked={state.communityPrograms.includes(program)}
                onChange={(event) =>
                  update({
                    communityPrograms: event.target.checked
                      ? COMMUNITY_PROGRAMS.filter(
                          (candidate) => candidate === program || state.communityPrograms.includes(candidate),
                        )
                      : state.communityPrograms.filter((other) => other !== program),
                  })
                }
              />
              {COMMUNITY_PROGRAM_LABELS[program]}
            </label>
          ))}
        </fieldset>
        <fieldset className="site-filter">
          <legend>Tags</legend>
          {state.tags.length ? (
            <ul className="site-chips">
              {state.tags.map((tag) => (
                <li key={tag}>
                  <button
                    type="button"
                    className="site-chip"
                    aria-label={`Remove tag ${tag}`}
                    onClick={() => update({ tags: state.tags.filter((other) => other !== tag) })}
                  >
                    {tag} ×
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          <form onSubmit={addTag} className="site-inline-form">
            <label htmlFor="filter-tag" className="mp-visually-hidden">
              Add a tag
            </label>
            <input
              id="filter-tag"
              value={tagText}
              maxLength={100}
              placeholder="Add a tag"
              onChange={(event) => setTagText(event.target.value)}
            />
            <button type="submit" className="site-button-secondary">
              Add
            </button>
          </form>
        </fieldset>
        <fieldset className="site-filter">
          <legend>Works with</legend>
          {productKeys.length === 0 ? <p className="site-muted">No IDE data for these filters.</p> : null}
          {productKeys.map((key) => (
            <label key={key} className="site-check">
              <input
                type="checkbox"
                checked={state.products.includes(key)}
                onChange={(event) =>
                  update({
                    products: event.target.checked
                      ? [...state.products, key]
                      : state.products.filter((other) => other !== key),
                  })
                }
              />
              {productName(key)}
              <span className="site-muted">{formatNumber(productCounts[key] ?? 0)}</span>
            </label>
          ))}
        </fieldset>
      </aside>
      <section className="site-results" aria-labelledby="results-heading">
        <div className="site-results__head">
          <h1 id="results-heading">
            {state.search ? `Results for “${state.search}”` : 'All items'}
            {data && themesKnown ? (
              <span className="site-muted"> {formatNumber(total + themesTotal)} found</span>
            ) : null}
          </h1>
          <label className="site-sort">
            Sort by{' '}
            <select
              value={state.orderBy ?? ''}
              onChange={(event) =>
                update({ orderBy: isSortOrder(event.target.value) ? event.target.value : undefined })
              }
            >
              <option value="">Default</option>
              {SORT_ORDERS.map((order) => (
                <option key={order} value={order}>
                  {SORT_ORDER_LABELS[order]}
                </option>
              ))}
            </select>
          </label>
        </div>
        {data?.correctedQuery ? (
          <p className="site-muted">
            Showing results for <strong>{data.correctedQuery}</strong>.
          </p>
        ) : null}
        {result.status === 'rejected' ? (
          <p className="site-error" role="alert">
            {errorText(result.error)}
          </p>
        ) : data && data.plugins.length === 0 && total === 0 && themesTotal === 0 ? (
          themesKnown ? (
            <div className="site-empty">
              {hasFilters(state) ? (
                <>
                  <p>Nothing matches these filters.</p>
                  <Link to={clearedHref}>Clear filters</Link>
                </>
              ) : state.search ? (
                <>
                  <p>Nothing matches “{state.search}”.</p>
                  <p className="site-muted">Check the spelling, or try fewer or other words.</p>
                </>
              ) : (
                <p>Nothing is listed here yet.</p>
              )}
            </div>
          ) : null
        ) : split ? (
          <>
            {pluginsShown ? (
              <section className="site-result-set" aria-labelledby="plugin-results-heading">
                <h2 id="plugin-results-heading" className="site-result-set__head">
                  {nounPlural}
                  {data ? <span className="site-muted"> {formatNumber(total)}</span> : null}
                </h2>
                {data && data.plugins.length === 0 ? (
                  <p className="site-muted">No {nounPlural.toLowerCase()} on this page.</p>
                ) : (
                  <ItemGrid label={nounPlural} items={data?.plugins} skeletons={SEARCH_PAGE_SIZE} />
                )}
                <Pagination page={state.page} pageCount={pageCount} hrefFor={pageHref} />
              </section>
            ) : null}
            {themes.status === 'rejected' ? (
              <p className="site-error" role="alert">
                {errorText(themes.error)}
              </p>
            ) : themesData && themesTotal > 0 ? (
              <section className="site-result-set" aria-labelledby="theme-results-heading">
                <h2 id="theme-results-heading" className="site-result-set__head">
                  Themes<span className="site-muted"> {formatNumber(themesTotal)}</span>
                </h2>
                <ItemGrid
                  label="Themes"
                  items={themesData.plugins}
                  loading={
                    themes.status === 'resolved' &&
                    themesData.plugins.length < Math.min(themesShown, themesTotal)
                  }
                  className="site-grid--six"
                />
                <p className="site-result-set__more">
                  {themesData.plugins.length < themesTotal && themesShown < THEMES_SHOWN_MAX ? (
                    <button type="button" className="site-button-secondary" onClick={showMoreThemes}>
                      Show more themes
                    </button>
                  ) : null}
                  {themesTotal > themesData.plugins.length ? (
                    <Link
                      to={`/search?${writeBrowseState({ ...state, kind: 'themes', page: 1 }).toString()}`}
                    >
                      See all {formatNumber(themesTotal)} themes
                    </Link>
                  ) : null}
                </p>
              </section>
            ) : null}
          </>
        ) : (
          <>
            <ItemGrid
              label={state.kind === 'themes' ? 'Themes' : nounPlural}
              items={data?.plugins}
              skeletons={SEARCH_PAGE_SIZE}
            />
            <Pagination page={state.page} pageCount={pageCount} hrefFor={pageHref} />
          </>
        )}
      </section>
    </div>
  );
}
