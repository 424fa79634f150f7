/**
 * Product families (spec §1): which tool an item is for, how it is called, and the words its pages use.
 */

/** Every product family, in the spec's order. */
export const PRODUCT_FAMILIES = [
  'intellij',
  'teamcity',
  'hub',
  'fleet',
  'dotnet',
  'edu',
  'space',
  'toolbox',
  'youtrack',
  'teamcity_recipes',
] as const;

export type ProductFamily = (typeof PRODUCT_FAMILIES)[number];

export function isProductFamily(value: unknown): value is ProductFamily {
  return typeof value === 'string' && (PRODUCT_FAMILIES as readonly string[]).includes(value);
}

/** The families a user's plugin list asks for (`/api/users/{id}/plugins?family=...`): all but edu. */
export const USER_PLUGIN_FAMILIES: readonly ProductFamily[] = PRODUCT_FAMILIES.filter(
  (family) => family !== 'edu',
);

/** The marketplace's own name: it ends every page title and names the education family. */
export const MARKETPLACE_NAME = 'Marketplace';

export interface FamilyLabelOptions {
  /**
   * The long form where a family has one: dotnet is '.NET' in short (menus, filters) and
   * 'ReSharper (.NET)' in long (headings, where the host product must be named).
   */
  long?: boolean;
  /** The product whose academy the edu family is ('{product} Academy'); defaults to {@link MARKETPLACE_NAME}. */
  productName?: string;
}

const FAMILY_LABELS: Readonly<Record<Exclude<ProductFamily, 'edu'>, string>> = {
  intellij: 'IntelliJ-based IDEs',
  teamcity: 'TeamCity',
  hub: 'Hub',
  fleet: 'Fleet',
  dotnet: '.NET',
  space: 'Space',
  toolbox: 'Toolbox',
  youtrack: 'YouTrack',
  teamcity_recipes: 'TeamCity recipes',
};

const DOTNET_LONG_LABEL = 'ReSharper (.NET)';

/** The name people read for a family. */
export function familyLabel(family: ProductFamily, options: FamilyLabelOptions = {}): string {
  if (family === 'edu') {
    const productName = options.productName?.trim() || MARKETPLACE_NAME;
    return `${productName} Academy`;
  }
  if (family === 'dotnet' && options.long === true) return DOTNET_LONG_LABEL;
  return FAMILY_LABELS[family];
}

/** What one item of a family is called. */
export type ItemNoun = 'plugin' | 'application' | 'dashboard widget' | 'course' | 'app' | 'recipe';

const ITEM_NOUNS: Readonly<Record<ProductFamily, ItemNoun>> = {
  intellij: 'plugin',
  teamcity: 'plugin',
  hub: 'dashboard widget',
  fleet: 'plugin',
  dotnet: 'plugin',
  edu: 'course',
  space: 'application',
  toolbox: 'plugin',
  youtrack: 'app',
  teamcity_recipes: 'recipe',
};

/**
 * The word for an item where no one family applies (a list of mixed families, an item still loading): the
 * site's lists of everything say 'items', never 'plugins'.
 */
export const NEUTRAL_ITEM_NOUN = 'item';

export interface NounOptions {
  /** 'plugins', 'applications', 'dashboard widgets'... */
  plural?: boolean;
  /** First letter upper-cased, for headings, buttons and the start of a sentence ('Dashboard widget'). */
  capitalised?: boolean;
}

function shaped(noun: string, { plural = false, capitalised = false }: NounOptions): string {
  const number = plural ? `${noun}s` : noun;
  return capitalised ? number.charAt(0).toUpperCase() + number.slice(1) : number;
}

/**
 * What one item of a family is called (spec §1); `undefined` (no one family: a mixed list) gives
 * {@link NEUTRAL_ITEM_NOUN}. Every noun of the spec takes its plural with an 's'.
 */
export function itemNoun(family: ProductFamily): ItemNoun;
export function itemNoun(family: ProductFamily | undefined, options?: NounOptions): string;
export function itemNoun(family: ProductFamily | undefined, options: NounOptions = {}): string {
  return shaped(family === undefined ? NEUTRAL_ITEM_NOUN : ITEM_NOUNS[family], options);
}

/**
 * The one family every item of a list belongs to, or `undefined` when they are of several families or the list
 * is empty: a list is named by its family's plural ('Courses') only when it holds no other family.
 */
export function sharedFamily(items: Iterable<{ family: ProductFamily }>): ProductFamily | undefined {
  let shared: ProductFamily | undefined;
  for (const { family } of items) {
    if (shared === undefined) shared = family;
    else if (shared !== family) return undefined;
  }
  return shared;
}

/** The noun with its indefinite article: 'a plugin', 'an application', 'an app', 'an item'. */
export function itemNounWithArticle(family: ProductFamily | undefined): string {
  const noun = itemNoun(family, {});
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** Space applications are installed into a Space organisation, not downloaded: their counters say so. */
export function downloadWording(family: ProductFamily): 'installation' | 'download';
export function downloadWording(family: ProductFamily | undefined, options?: NounOptions): string;
export function downloadWording(family: ProductFamily | undefined, options: NounOptions = {}): string {
  return shaped(family === 'space' ? 'installation' : 'download', options);
}

/** The page title template of the spec; `%s` is the page's own title. */
export const PAGE_TITLE_TEMPLATE = `%s | ${MARKETPLACE_NAME}`;

/** '<title> | Marketplace'; a page without a title of its own is just 'Marketplace'. */
export function pageTitle(title: string): string {
  const ownTitle = title.trim();
  return ownTitle === '' ? MARKETPLACE_NAME : PAGE_TITLE_TEMPLATE.replace('%s', () => ownTitle);
}
