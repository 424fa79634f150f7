import {
  IDE_PRODUCTS,
  type IdeProductKey,
  type PaymentFilter,
  type PricingModel,
  type ProductFamily,
  type SearchResultKind,
  type SortOrder,
} from '@marketplace/core';
import type { StoredPluginSummary } from './plugin-summary';
import { SlotSet } from './slot-set';
import {
  FIELD_WEIGHTS,
  NAME_FIELD,
  normalizeSearchText,
  parseSearchVector,
  prefixRange,
  searchWords,
  TypoDictionary,
} from './search-text';
import type { Viewer } from './sql';

/** One plugin as the index holds it: what an answer shows, what filters and orders read, its text. */
export interface IndexedPlugin {
  id: number;
  /** What an answer shows, but the chart's downloads (they depend on the day; the route attaches them). */
  summary: StoredPluginSummary;
  /** The name in lower case, for the name order. */
  nameKey: string;
  /** How many words the name has (a search that matches all of them finds the name itself). */
  nameWordCount: number;
  family: ProductFamily;
  pricingModel: PricingModel;
  listed: boolean;
  deleted: boolean;
  ownerId: number | null;
  developerIds: readonly number[];
  /** IDE product keys it names; none means every product of its family. */
  products: readonly string[];
  /** The community programs it offers licences in (commerce). */
  programs: readonly string[];
  /** It gives a source code URL (the `shouldHaveSource` filter); absent: it does not. */
  hasSource?: boolean;
  /**
   * IDE products that list it among their staff picks (`featured_plugins`, the `isFeaturedSearch` filter);
   * absent: none.
   */
  featuredFor?: readonly string[];
  downloads: number;
  ratingMean: number;
  ratingCount: number;
  updateDate: number;
  /** Milliseconds since 1970, or null before the first publication. */
  publishedAt: number | null;
  /** The weighted search document (a tsvector's text form). */
  searchVector: string;
}

export interface SearchFilters {
  search?: string | undefined;
  payment?: PaymentFilter | undefined;
  /** Tag names; an item must carry every one of them. */
  tags?: readonly string[] | undefined;
  /** IDE product keys; an item must be compatible with at least one. */
  products?: readonly IdeProductKey[] | undefined;
  /** Community programs; an item must offer at least one. */
  communityPrograms?: readonly string[] | undefined;
  /**
   * Only staff picks (`featured_plugins`): of one of the chosen products when `products` is given, else of any
   * product (what the IDE's `is_featured_search` asks for its own product).
   */
  isFeaturedSearch?: boolean | undefined;
  /** Only items that give a source code URL. */
  shouldHaveSource?: boolean | undefined;
  /** The result set of spec §3: 'plugins' leaves themes out, 'themes' keeps only them, 'any' (default) both. */
  kind?: SearchResultKind | undefined;
  family?: ProductFamily | undefined;
}

export interface SearchRequest extends SearchFilters {
  orderBy?: SortOrder | undefined;
  max: number;
  offset: number;
}

export interface SearchResult {
  plugins: StoredPluginSummary[];
  total: number;
}

/** English stems of typed words ('' for a word English leaves out, such as "the"), from the database. */
export type StemsOf = (word: string) => string;

/** The orders kept as sorted lists; the _asc orders walk them backwards and relevance without text is downloads. */
type StoredOrder = 'downloads' | 'update date' | 'publish date' | 'name' | 'rating';

const COMPARATORS: Record<StoredOrder, (a: IndexedPlugin, b: IndexedPlugin) => number> = {
  downloads: (a, b) => b.downloads - a.downloads || b.id - a.id,
  'update date': (a, b) => b.updateDate - a.updateDate || b.id - a.id,
  // An unpublished item (only administrators see them) sorts first, as PostgreSQL puts NULL first in DESC.
  'publish date': (a, b) => (b.publishedAt ?? Infinity) - (a.publishedAt ?? Infinity) || b.id - a.id || 0,
  name: (a, b) => compareText(a.nameKey, b.nameKey) || a.id - b.id,
  rating: (a, b) => b.ratingMean - a.ratingMean || b.ratingCount - a.ratingCount || b.id - a.id,
};

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function storedOrder(order: SortOrder): { list: StoredOrder; backwards: boolean } {
  switch (order) {
    case 'relevance':
    case 'downloads':
      return { list: 'downloads', backwards: false };
    case 'downloads_asc':
      return { list: 'downloads', backwards: true };
    case 'rating_asc':
      return { list: 'rating', backwards: true };
    case 'update date':
    case 'publish date':
    case 'name':
    case 'rating':
      return { list: order, backwards: false };
  }
}

/** A match's worth for one typed word: the exact word (or its stem) counts fully, a prefix less, a typo least. */
const EXACT = 1;
const PREFIX_BASE = 0.5;
const TYPO = 0.45;

/**
 * The searchable catalogue of one process, in memory: every plugin row (visible to someone) with the
 * lexemes of its search document, bitmaps for each filter value and the catalogue sorted by each order. A
 * search reads no database; the index follows the database through {@link CatalogueSearch}.
 */
export class CatalogueIndex {
  private readonly plugins: (IndexedPlugin | undefined)[] = [];
  private readonly slotById = new Map<number, number>();
  private readonly alive = new SlotSet();
  private readonly listed = new SlotSet();
  private readonly notDeleted = new SlotSet();
  private readonly withoutProducts = new SlotSet();
  private readonly withSource = new SlotSet();
  private readonly themes = new SlotSet();
  /** Staff picks of any product, and of each product. */
  private readonly featured = new SlotSet();
  private readonly byFeaturedProduct = new Map<string, SlotSet>();
  private readonly byFamily = new Map<string, SlotSet>();
  private readonly byPricing = new Map<string, SlotSet>();
  private readonly byTag = new Map<string, SlotSet>();
  private readonly byProgram = new Map<string, SlotSet>();
  private readonly byProduct = new Map<string, SlotSet>();
  private readonly byMember = new Map<number, SlotSet>();
  /** Lexeme -> postings, each `slot * 4 + field`; postings of replaced slots stay until the next rebuild. */
  private readonly postings = new Map<string, number[]>();
  private sortedLexemes: string[] = [];
  private lexemesChanged = false;
  /** Words of names -> slots, for typing mistakes. */
  private readonly nameWords = new Map<string, number[]>();
  private readonly typos = new TypoDictionary();
  private readonly byXmlId = new Map<string, number[]>();
  /** Each stored order: the slots in order, and each slot's place in it. */
  private readonly orders = new Map<StoredOrder, { sorted: Int32Array; place: Int32Array }>();
  private deadSlots = 0;

  // Scratch space of one search (searches run one at a time, synchronously).
  private wordScore = new Float64Array(0);
  private wordInName = new Uint8Array(0);
  private wordStamp = new Uint32Array(0);
  private queryScore = new Float64Array(0);
  private queryStamp = new Uint32Array(0);
  private queryHits = new Uint8Array(0);
  private queryNameHits = new Uint8Array(0);
  private stamp = 0;

  get size(): number {
    return this.slotById.size;
  }

  /** Slots left behind by replaced and removed plugins (their postings stay until a rebuild). */
  get replacedSlots(): number {
    return this.deadSlots;
  }

  /** Adds the plugin or replaces what the index held for it. */
  upsert(plugin: IndexedPlugin): void {
    const slot = this.slotById.get(plugin.id);
    const previous = slot === undefined ? undefined : this.plugins[slot];
    if (slot !== undefined && previous && previous.searchVector === plugin.searchVector) {
      // Same text (a download, a rating, a state change): the slot and its postings stay.
      this.unfile(slot, previous);
      this.plugins[slot] = plugin;
      this.file(slot, plugin);
      this.invalidateOrders(previous, plugin);
      return;
    }
    if (slot !== undefined) this.remove(plugin.id);
    const fresh = this.plugins.length;
    this.plugins.push(plugin);
    this.slotById.set(plugin.id, fresh);
    this.alive.add(fresh);
    this.file(fresh, plugin);
    this.indexText(fresh, plugin);
    this.orders.clear();
  }

  remove(id: number): void {
    const slot = this.slotById.get(id);
    if (slot === undefined) return;
    const plugin = this.plugins[slot]!;
    this.unfile(slot, plugin);
    this.alive.delete(slot);
    this.plugins[slot] = undefined;
    this.slotById.delete(id);
    this.deadSlots++;
    this.orders.clear();
  }

  /** The filing of a slot in every filter bitmap (its text is filed once, by {@link indexText}). */
  private file(slot: number, plugin: IndexedPlugin): void {
    this.listed.set(slot, plugin.listed);
    this.notDeleted.set(slot, !plugin.deleted);
    this.withoutProducts.set(slot, plugin.products.length === 0);
    this.withSource.set(slot, plugin.hasSource === true);
    this.themes.set(slot, plugin.summary.isTheme);
    this.featured.set(slot, (plugin.featuredFor?.length ?? 0) > 0);
    for (const product of plugin.featuredFor ?? []) setFor(this.byFeaturedProduct, product).add(slot);
    setFor(this.byFamily, plugin.family).add(slot);
    setFor(this.byPricing, plugin.pricingModel).add(slot);
    for (const tag of plugin.summary.tags) setFor(this.byTag, tag.toLowerCase()).add(slot);
    for (const product of plugin.products) setFor(this.byProduct, product).add(slot);
    for (const program of plugin.programs) setFor(this.byProgram, program).add(slot);
    if (plugin.ownerId !== null) setFor(this.byMember, plugin.ownerId).add(slot);
    for (const developer of plugin.developerIds) setFor(this.byMember, developer).add(slot);
  }

  private unfile(slot: number, plugin: IndexedPlugin): void {
    this.listed.delete(slot);
    this.notDeleted.delete(slot);
    this.withoutProducts.delete(slot);
    this.withSource.delete(slot);
    this.themes.delete(slot);
    this.featured.delete(slot);
    for (const product of plugin.featuredFor ?? []) this.byFeaturedProduct.get(product)?.delete(slot);
    this.byFamily.get(plugin.family)?.delete(slot);
    this.byPricing.get(plugin.pricingModel)?.delete(slot);
    for (const tag of plugin.summary.tags) this.byTag.get(tag.toLowerCase())?.delete(slot);
    for (const product of plugin.products) this.byProduct.get(product)?.delete(slot);
    for (const program of plugin.programs) this.byProgram.get(program)?.delete(slot);
    if (plugin.ownerId !== null) this.byMember.get(plugin.ownerId)?.delete(slot);
    for (const developer of plugin.developerIds) this.byMember.get(developer)?.delete(slot);
  }

  private indexText(slot: number, plugin: IndexedPlugin): void {
    for (const [lexeme, field] of parseSearchVector(plugin.searchVector)) {
      const list = this.postings.get(lexeme);
      if (list) list.push(slot * 4 + field);
      else {
        this.postings.set(lexeme, [slot * 4 + field]);
        this.lexemesChanged = true;
      }
    }
    for (const word of new Set(searchWords(plugin.summary.name))) {
      const list = this.nameWords.get(word);
      if (list) list.push(slot);
      else this.nameWords.set(word, [slot]);
      this.typos.add(word);
    }
    const xmlId = plugin.summary.xmlId.toLowerCase();
    const list = this.byXmlId.get(xmlId);
    if (list) list.push(slot);
    else this.byXmlId.set(xmlId, [slot]);
  }

  /** Drops the sorted lists a change can move. */
  private invalidateOrders(before: IndexedPlugin, after: IndexedPlugin): void {
    for (const order of this.orders.keys()) {
      if (COMPARATORS[order](before, after) !== 0) this.orders.delete(order);
    }
  }

  private sortedBy(order: StoredOrder): { sorted: Int32Array; place: Int32Array } {
    let list = this.orders.get(order);
    if (!list) {
      const slots = [...this.alive];
      const compare = COMPARATORS[order];
      const plugins = this.plugins;
      slots.sort((a, b) => compare(plugins[a]!, plugins[b]!));
      const sorted = Int32Array.from(slots);
      const place = new Int32Array(plugins.length);
      for (let position = 0; position < sorted.length; position++) place[sorted[position]!] = position;
      list = { sorted, place };
      this.orders.set(order, list);
    }
    return list;
  }

  /** The slots a viewer may see and that pass every filter but the text. */
  private filtered(filters: SearchFilters, viewer: Viewer | undefined, withProducts: boolean): SlotSet {
    const visible = this.visibleTo(viewer);
    if (filters.family) visible.intersect(this.byFamily.get(filters.family) ?? new SlotSet());
    if (filters.payment === 'free') visible.intersect(this.byPricing.get('FREE') ?? new SlotSet());
    if (filters.payment === 'paid') {
      const paid = (this.byPricing.get('PAID') ?? new SlotSet()).clone();
      paid.unite(this.byPricing.get('FREEMIUM') ?? new SlotSet());
      visible.intersect(paid);
    }
    for (const tag of new Set((filters.tags ?? []).map((name) => name.toLowerCase()))) {
      visible.intersect(this.byTag.get(tag) ?? new SlotSet());
    }
    if (filters.communityPrograms?.length) {
      const offering = new SlotSet();
      for (const program of new Set(filters.communityPrograms)) {
        offering.unite(this.byProgram.get(program) ?? new SlotSet());
      }
      visible.intersect(offering);
    }
    if (filters.shouldHaveSource) visible.intersect(this.withSource);
    if (filters.kind === 'themes') visible.intersect(this.themes);
    if (filters.kind === 'plugins') visible.subtract(this.themes);
    const products = withProducts && filters.products?.length ? [...new Set(filters.products)] : [];
    if (filters.isFeaturedSearch) {
      if (products.length === 0) visible.intersect(this.featured);
      else {
        const picked = new SlotSet();
        for (const product of products) picked.unite(this.byFeaturedProduct.get(product) ?? new SlotSet());
        visible.intersect(picked);
      }
    }
    if (products.length) {
      const compatible = new SlotSet();
      for (const product of products) compatible.unite(this.runningOn(product));
      visible.intersect(compatible);
    }
    return visible;
  }

  private visibleTo(viewer: Viewer | undefined): SlotSet {
    if (!viewer) return this.listed.clone();
    // Administrators see every state, deleted included: they are the ones who may restore it.
    if (viewer.isAdmin) return this.alive.clone();
    const own = this.byMember.get(viewer.userId);
    const visible = this.listed.clone();
    if (own) visible.unite(own.clone().intersect(this.notDeleted));
    return visible;
  }

  /** Items that run on a product: they name it, or name none and are of its family. */
  private runningOn(product: string): SlotSet {
    const running = (this.byProduct.get(product) ?? new SlotSet()).clone();
    const family = IDE_PRODUCTS[product as IdeProductKey]?.family;
    const familySet = family ? this.byFamily.get(family) : undefined;
    if (familySet) running.unite(this.withoutProducts.clone().intersect(familySet));
    return running;
  }

  search(request: SearchRequest, viewer: Viewer | undefined, stemsOf: StemsOf): SearchResult {
    const allowed = this.filtered(request, viewer, true);
    const text = normalizeSearchText(request.search);
    const orderBy = request.orderBy ?? 'relevance';
    const wanted = request.offset + request.max;
    let page: number[];
    let total: number;
    if (!text) {
      total = allowed.size;
      page = this.walk(orderBy, allowed, wanted, total);
    } else {
      const scored = this.matchText(text, allowed, stemsOf);
      total = scored.length;
      if (orderBy === 'relevance') {
        const score = this.queryScore;
        const plugins = this.plugins;
        page = firstOf(scored, wanted, (a, b) => {
          return score[b]! - score[a]! || COMPARATORS.downloads(plugins[a]!, plugins[b]!);
        });
      } else {
        const { list, backwards } = storedOrder(orderBy);
        const { place } = this.sortedBy(list);
        page = firstOf(scored, wanted, (a, b) => (backwards ? place[b]! - place[a]! : place[a]! - place[b]!));
      }
    }
    return {
      plugins: page.slice(request.offset).map((slot) => this.plugins[slot]!.summary),
      total,
    };
  }

  /** The first `wanted` allowed slots in a stored order. */
  private walk(orderBy: SortOrder, allowed: SlotSet, wanted: number, total: number): number[] {
    const { list, backwards } = storedOrder(orderBy);
    const { sorted } = this.sortedBy(list);
    const found: number[] = [];
    const limit = Math.min(wanted, total);
    for (let step = 0; step < sorted.length && found.length < limit; step++) {
      const slot = sorted[backwards ? sorted.length - 1 - step : step]!;
      if (allowed.has(slot)) found.push(slot);
    }
    return found;
  }

  /** Per IDE product, how many items match the filters (products aside) and run on it; and their total. */
  countByProduct(
    filters: SearchFilters,
    viewer: Viewer | undefined,
    stemsOf: StemsOf,
  ): { aggregations: Record<string, number>; total: number } {
    let matched = this.filtered(filters, viewer, false);
    const text = normalizeSearchText(filters.search);
    if (text) {
      const scored = this.matchText(text, matched, stemsOf);
      matched = new SlotSet(this.plugins.length);
      for (const slot of scored) matched.add(slot);
    }
    const aggregations: Record<string, number> = {};
    const products = new Set<string>([...Object.keys(IDE_PRODUCTS), ...this.byProduct.keys()]);
    for (const product of products) {
      const running = this.runningOn(product);
      // Staff picks are per product: ticking a product then keeps its own picks, which is what is counted.
      if (filters.isFeaturedSearch) running.intersect(this.byFeaturedProduct.get(product) ?? new SlotSet());
      const count = matched.countShared(running);
      if (count > 0) aggregations[product] = count;
    }
    return { aggregations, total: matched.size };
  }

  private prepareScratch(): void {
    const capacity = this.plugins.length;
    if (this.queryScore.length < capacity) {
      const room = Math.max(capacity, this.queryScore.length * 2, 1024);
      this.wordScore = new Float64Array(room);
      this.wordInName = new Uint8Array(room);
      this.wordStamp = new Uint32Array(room);
      this.queryScore = new Float64Array(room);
      this.queryStamp = new Uint32Array(room);
      this.queryHits = new Uint8Array(room);
      this.queryNameHits = new Uint8Array(room);
      this.stamp = 0;
    }
    if (this.stamp > 0xfffffff0 - 20) {
      this.wordStamp.fill(0);
      this.queryStamp.fill(0);
      this.stamp = 0;
    }
  }

  private lexemesStartingWith(prefix: string): string[] {
    if (this.lexemesChanged) {
      this.sortedLexemes = [...this.postings.keys()].sort(compareText);
      this.lexemesChanged = false;
    }
    const [start, end] = prefixRange(this.sortedLexemes, prefix);
    return this.sortedLexemes.slice(start, end);
  }

  /**
   * The allowed slots matching the text, scores left in `queryScore`. Every word must match (a word English
   * leaves out, such as "for", only adds to the score), through a lexeme that is the word or its stem, a
   * lexeme it begins (from two letters on), or a word of the name one or two typing mistakes away when no
   * name has a word beginning so. The exact xmlId always matches.
   */
  private matchText(text: string, allowed: SlotSet, stemsOf: StemsOf): number[] {
    this.prepareScratch();
    const words = searchWords(text);
    const stems = words.map((word) => stemsOf(word));
    const required = words.filter((_, index) => stems[index] !== '');
    const requiredCount = required.length > 0 ? required.length : words.length;
    const queryStamp = ++this.stamp;
    const candidates: number[] = [];
    let requiredSeen = 0;
    const ordered = words
      .map((word, index) => ({
        word,
        stem: stems[index]!,
        required: stems[index] !== '' || required.length === 0,
      }))
      .sort((a, b) => Number(b.required) - Number(a.required));
    for (const { word, stem, required: isRequired } of ordered) {
      const touched = this.matchWord(word, stem, allowed);
      const first = isRequired && requiredSeen === 0;
      for (const slot of touched) {
        const score = this.wordScore[slot]!;
        if (first) {
          this.queryStamp[slot] = queryStamp;
          this.queryScore[slot] = score;
          this.queryHits[slot] = 1;
          this.queryNameHits[slot] = this.wordInName[slot]!;
          candidates.push(slot);
        } else if (this.queryStamp[slot] === queryStamp) {
          this.queryScore[slot]! += score;
          if (isRequired) this.queryHits[slot]!++;
          this.queryNameHits[slot]! += this.wordInName[slot]!;
        }
      }
      if (isRequired) requiredSeen++;
    }
    const matched = candidates.filter((slot) => this.queryHits[slot] === requiredCount);
    const lowered = text.toLowerCase();
    for (const slot of this.byXmlId.get(lowered) ?? []) {
      if (!allowed.has(slot) || !this.alive.has(slot)) continue;
      if (this.queryStamp[slot] !== queryStamp || this.queryHits[slot] !== requiredCount) {
        this.queryStamp[slot] = queryStamp;
        this.queryHits[slot] = requiredCount;
        this.queryScore[slot] = 0;
        this.queryNameHits[slot] = 0;
        matched.push(slot);
      }
    }
    for (const slot of matched) {
      const plugin = this.plugins[slot]!;
      // Names made mostly of the typed words first ("Git" before "Git Branch Tools" for "git").
      let bonus = Math.min(1, this.queryNameHits[slot]! / Math.max(1, plugin.nameWordCount));
      if (plugin.nameKey === lowered || plugin.summary.xmlId.toLowerCase() === lowered) bonus += 2;
      this.queryScore[slot]! += bonus + Math.log1p(plugin.downloads) / 40;
    }
    return matched;
  }

  /**
   * Slots (allowed) that one typed word matches, each with its best worth in `wordScore`. Typing mistakes
   * are looked for only when the word found no name among the allowed items: "gti" finds Git, "git" does not
   * also find Gif.
   */
  private matchWord(word: string, stem: string, allowed: SlotSet): number[] {
    const stamp = ++this.stamp;
    const touched: number[] = [];
    let foundInName = false;
    const offer = (slot: number, worth: number, inName: boolean) => {
      if (this.wordStamp[slot] !== stamp) {
        if (!allowed.has(slot)) return;
        this.wordStamp[slot] = stamp;
        this.wordScore[slot] = worth;
        this.wordInName[slot] = inName ? 1 : 0;
        touched.push(slot);
      } else {
        if (this.wordScore[slot]! < worth) this.wordScore[slot] = worth;
        if (inName) this.wordInName[slot] = 1;
      }
      if (inName) foundInName = true;
    };
    const fromLexeme = (lexeme: string, worth: number) => {
      for (const posting of this.postings.get(lexeme) ?? []) {
        const field = posting & 3;
        offer(posting >>> 2, FIELD_WEIGHTS[field]! * worth, field === NAME_FIELD);
      }
    };
    const nameWeight = FIELD_WEIGHTS[NAME_FIELD];
    const lexemes = word.length >= 2 ? this.lexemesStartingWith(word) : [word];
    for (const lexeme of lexemes) {
      fromLexeme(
        lexeme,
        lexeme === word ? EXACT : PREFIX_BASE + (1 - PREFIX_BASE) * (word.length / lexeme.length) * 0.9,
      );
    }
    if (stem && stem !== word) fromLexeme(stem, EXACT);
    // A whole word of a name, as typed ("tools" where the name's lexeme is the stem "tool").
    for (const slot of this.nameWords.get(word) ?? []) {
      if (this.alive.has(slot)) offer(slot, nameWeight * EXACT, true);
    }
    if (!foundInName) {
      for (const [nameWord, distance] of this.typos.near(word)) {
        if (distance === 0) continue;
        for (const slot of this.nameWords.get(nameWord) ?? []) {
          if (this.alive.has(slot)) offer(slot, (nameWeight * TYPO) / distance, true);
        }
      }
    }
    return touched;
  }
}

function setFor<Key>(map: Map<Key, SlotSet>, key: Key): SlotSet {
  let set = map.get(key);
  if (!set) {
    set = new SlotSet();
    map.set(key, set);
  }
  return set;
}

/** The first `count` items in an order, without sorting all of a long list. */
export function firstOf(items: number[], count: number, compare: (a: number, b: number) => number): number[] {
  if (count <= 0) return [];
  if (items.length <= count * 4 + 32) return [...items].sort(compare).slice(0, count);
  // A bounded max-heap of the best `count` seen so far: its root is the worst of them.
  const heap: number[] = [];
  const worse = (a: number, b: number) => compare(a, b) > 0;
  for (const item of items) {
    if (heap.length < count) {
      heap.push(item);
      let child = heap.length - 1;
      while (child > 0) {
        const parent = (child - 1) >> 1;
        if (!worse(heap[child]!, heap[parent]!)) break;
        [heap[child], heap[parent]] = [heap[parent]!, heap[child]!];
        child = parent;
      }
    } else if (worse(heap[0]!, item)) {
      heap[0] = item;
      let parent = 0;
      for (;;) {
        const left = parent * 2 + 1;
        const right = left + 1;
        let largest = parent;
        if (left < heap.length && worse(heap[left]!, heap[largest]!)) largest = left;
        if (right < heap.length && worse(heap[right]!, heap[largest]!)) largest = right;
        if (largest === parent) break;
        [heap[largest], heap[parent]] = [heap[parent]!, heap[largest]!];
        parent = largest;
      }
    }
  }
  return heap.sort(compare);
}
