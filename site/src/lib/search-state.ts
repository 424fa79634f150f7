import {
  ANY_SEARCH_PAGE_SIZE,
  COMMUNITY_PROGRAMS,
  IDE_PRODUCT_KEYS,
  isCommunityProgram,
  isPaymentFilter,
  isProductFamily,
  isSortOrder,
  type CommunityProgram,
  type IdeProductKey,
  type PaymentFilter,
  type ProductFamily,
  type SearchResultKind,
  type SortOrder,
} from '@marketplace/core';
import type { SearchPluginsInput } from '@marketplace/api-client';

/** Items per search page. */
export const SEARCH_PAGE_SIZE = 20;
/** Themes shown at first (and added by each "Show more") beside the plugins when no type narrows the search. */
export const THEMES_PAGE_SIZE = ANY_SEARCH_PAGE_SIZE;

/** The type a search can be narrowed to; none shows plugins and themes as separate result sets (spec §3). */
export type BrowseKind = Exclude<SearchResultKind, 'any'>;

function isBrowseKind(value: string): value is BrowseKind {
  return value === 'plugins' || value === 'themes';
}

/** What the search page shows, read from and written to the address bar so links and Back keep it. */
export interface BrowseState {
  search: string;
  orderBy: SortOrder | undefined;
  payment: PaymentFilter;
  tags: string[];
  products: IdeProductKey[];
  /** Items offering free or discounted licences in any of these programs. */
  communityPrograms: CommunityProgram[];
  /** Only the IDE products' staff picks (of the chosen IDEs, when some are chosen). */
  isFeaturedSearch: boolean;
  /** Only items that give a source code URL. */
  shouldHaveSource: boolean;
  /** Only plugins or only themes; undefined: both, as two result sets. */
  kind: BrowseKind | undefined;
  family: ProductFamily | undefined;
  /** 1-based. */
  page: number;
}

const PRODUCT_KEYS: ReadonlySet<string> = new Set(IDE_PRODUCT_KEYS);

function isProductKey(value: string): value is IdeProductKey {
  return PRODUCT_KEYS.has(value);
}

/** Reads the state from a query string; anything unknown or malformed falls back to the default. */
export function readBrowseState(params: URLSearchParams): BrowseState {
  const orderBy = params.get('orderBy') ?? '';
  const payment = params.get('payment') ?? '';
  const family = params.get('family') ?? '';
  const kind = params.get('kind') ?? '';
  const page = Number(params.get('page') ?? '1');
  return {
    search: (params.get('search') ?? '').slice(0, 200),
    orderBy: isSortOrder(orderBy) ? orderBy : undefined,
    payment: isPaymentFilter(payment) ? payment : 'all',
    tags: [...new Set(params.getAll('tags').filter((tag) => tag.trim() !== ''))].slice(0, 20),
    products: [...new Set(params.getAll('products').filter(isProductKey))],
    communityPrograms: COMMUNITY_PROGRAMS.filter((program) =>
      params.getAll('communityPrograms').some((value) => isCommunityProgram(value) && value === program),
    ),
    isFeaturedSearch: params.get('isFeaturedSearch') === 'true',
    shouldHaveSource: params.get('shouldHaveSource') === 'true',
    kind: isBrowseKind(kind) ? kind : undefined,
    family: isProductFamily(family) ? family : undefined,
    page: Number.isInteger(page) && page >= 1 && page <= 500 ? page : 1,
  };
}

/** The query string of a state; defaults are left out so addresses stay short and shareable. */
export function writeBrowseState(state: BrowseState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.search.trim()) params.set('search', state.search.trim());
  if (state.orderBy) params.set('orderBy', state.orderBy);
  if (state.payment !== 'all') params.set('payment', state.payment);
  for (const tag of state.tags) params.append('tags', tag);
  for (const product of state.products) params.append('products', product);
  for (const program of state.communityPrograms) params.append('communityPrograms', program);
  if (state.isFeaturedSearch) params.set('isFeaturedSearch', 'true');
  if (state.shouldHaveSource) params.set('shouldHaveSource', 'true');
  if (state.kind) params.set('kind', state.kind);
  if (state.family) params.set('family', state.family);
  if (state.page > 1) params.set('page', String(state.page));
  return params;
}

/**
 * The API query of a state: by default its page of its own type (both types when none narrows it); `set` asks
 * for one result set instead (the themes shown beside the plugins, `max` of them from the first).
 */
export function searchQueryOf(
  state: BrowseState,
  set?: { kind: SearchResultKind; max?: number; offset?: number },
): SearchPluginsInput {
  return {
    ...(state.search.trim() ? { search: state.search.trim() } : {}),
    ...(state.orderBy ? { orderBy: state.orderBy } : {}),
    payment: state.payment,
    ...(state.tags.length ? { tags: state.tags } : {}),
    ...(state.products.length ? { products: state.products } : {}),
    ...(state.communityPrograms.length ? { communityPrograms: state.communityPrograms } : {}),
    ...(state.isFeaturedSearch ? { isFeaturedSearch: true } : {}),
    ...(state.shouldHaveSource ? { shouldHaveSource: true } : {}),
    ...(set ? { kind: set.kind } : state.kind ? { kind: state.kind } : {}),
    ...(state.family ? { family: state.family } : {}),
    max: set?.max ?? SEARCH_PAGE_SIZE,
    offset: set?.offset ?? (state.page - 1) * SEARCH_PAGE_SIZE,
  };
}

/** Labels of the eight sort orders (spec §3). */
export const SORT_ORDER_LABELS: Readonly<Record<SortOrder, string>> = {
  relevance: 'Relevance',
  downloads: 'Most downloads',
  'update date': 'Recently updated',
  'publish date': 'Newest',
  name: 'Name',
  rating: 'Best rated',
  downloads_asc: 'Fewest downloads',
  rating_asc: 'Lowest rated',
};

/**
 * How many filters narrow the list: the family, the type, the pricing, staff picks, source code, and each tag,
 * IDE and program chosen.
 */
export function activeFilterCount(state: BrowseState): number {
  return (
    (state.family === undefined ? 0 : 1) +
    (state.kind === undefined ? 0 : 1) +
    (state.isFeaturedSearch ? 1 : 0) +
    (state.shouldHaveSource ? 1 : 0) +
    (state.payment === 'all' ? 0 : 1) +
    state.tags.length +
    state.products.length +
    state.communityPrograms.length
  );
}

/** Whether anything narrows the list beyond the words searched for (what "Clear all filters" would undo). */
export function hasFilters(state: BrowseState): boolean {
  return activeFilterCount(state) > 0;
}
