/**
 * The IDE product catalogue (spec §3, "IDE product entries"). The spec is the source of truth for the keys,
 * the codes it names and the unpaid list; the remaining codes are the ones the IDEs themselves put before
 * the dash of their build numbers, and `id` is the product's name in search filters (`products=idea_ce`).
 */
import type { ProductFamily } from './families';
import { familyLabel } from './families';
import {
  PRODUCT_CODES,
  productKeyByCode,
  productKeyFromBuildNumber,
  productKeysForCourseLanguage,
} from './product-codes';

export const IDE_PRODUCT_KEYS = [
  'IDEA',
  'IDEA_COMMUNITY',
  'IDEA_EDUCATIONAL',
  'PHPSTORM',
  'WEBSTORM',
  'PYCHARM',
  'PYCHARM_PRO',
  'PYCHARM_COMMUNITY',
  'PYCHARM_EDUCATIONAL',
  'DATASPELL',
  'RUBYMINE',
  'APPCODE',
  'CLION',
  'GOLAND',
  'DBE',
  'RIDER',
  'JBCLIENT',
  'CWMGUEST',
  'GATEWAY',
  'ANDROID_STUDIO',
  'MPS',
  'AQUA',
  'RUST',
  'WRITERSIDE',
  'FLEET',
  'AIR',
  'AIR_NEXT',
  'TEAMCITY',
  'TEAMCITY_RECIPE',
  'HUB_WIDGET',
  'SPACE',
  'YOUTRACK_WIDGET',
  'YOUTRACK_APP',
  'UPSOURCE_WIDGET',
  'RESHARPER',
  'EDUCATIONAL',
] as const;

export type IdeProductKey = (typeof IDE_PRODUCT_KEYS)[number];

export function isIdeProductKey(value: unknown): value is IdeProductKey {
  return typeof value === 'string' && (IDE_PRODUCT_KEYS as readonly string[]).includes(value);
}

export interface IdeProduct {
  key: IdeProductKey;
  /** The product's name in search filters and URLs. */
  id: string;
  /** The product code that starts the product's build numbers (`IU` in `IU-241.14494.240`). */
  code: string;
  title: string;
  edition?: string;
  /** Whether using the product needs a paid licence (spec: all but the six free ones). */
  paid: boolean;
  family: ProductFamily;
  /** The product is in preview; {@link IdeProduct.betaTooltip} says what that means to the visitor. */
  beta: boolean;
  betaTooltip?: string;
}

function previewTooltip(title: string): string {
  return `${title} is in preview: plugins for it may change or stop working between its releases.`;
}

type Entry = Omit<IdeProduct, 'key' | 'code' | 'paid' | 'beta'> & { paid?: boolean; beta?: boolean };

/** Written once here, completed below: paid unless said otherwise, not in preview unless said otherwise. */
const CATALOGUE: Readonly<Record<IdeProductKey, Entry>> = {
  IDEA: { id: 'idea', title: 'IntelliJ IDEA', edition: 'Ultimate', family: 'intellij' },
  IDEA_COMMUNITY: {
    id: 'idea_ce',
    title: 'IntelliJ IDEA',
    edition: 'Community',
    paid: false,
    family: 'intellij',
  },
  IDEA_EDUCATIONAL: {
    id: 'idea_edu',
    title: 'IntelliJ IDEA',
    edition: 'Educational',
    paid: false,
    family: 'intellij',
  },
  PHPSTORM: { id: 'phpstorm', title: 'PhpStorm', family: 'intellij' },
  WEBSTORM: { id: 'webstorm', title: 'WebStorm', family: 'intellij' },
  // Since 2025.1 PyCharm is one product (code PY) whose Pro features come with a subscription; PYCHARM_PRO
  // names the same IDE when the Professional edition must be told apart, so both carry PY.
  PYCHARM: { id: 'pycharm', title: 'PyCharm', family: 'intellij' },
  PYCHARM_PRO: {
    id: 'pycharm_pro',
    title: 'PyCharm',
    edition: 'Professional',
    family: 'intellij',
  },
  PYCHARM_COMMUNITY: {
    id: 'pycharm_ce',
    title: 'PyCharm',
    edition: 'Community',
    paid: false,
    family: 'intellij',
  },
  PYCHARM_EDUCATIONAL: {
    id: 'pycharm_edu',
    title: 'PyCharm',
    edition: 'Educational',
    paid: false,
    family: 'intellij',
  },
  DATASPELL: { id: 'dataspell', title: 'DataSpell', family: 'intellij' },
  RUBYMINE: { id: 'ruby', title: 'RubyMine', family: 'intellij' },
  APPCODE: { id: 'objc', title: 'AppCode', family: 'intellij' },
  CLION: { id: 'clion', title: 'CLion', family: 'intellij' },
  GOLAND: { id: 'go', title: 'GoLand', family: 'intellij' },
  DBE: { id: 'dbe', title: 'DataGrip', family: 'intellij' },
  RIDER: { id: 'rider', title: 'Rider', family: 'intellij' },
  JBCLIENT: { id: 'jbclient', title: 'JetBrains Client', family: 'intellij' },
  CWMGUEST: { id: 'cwmguest', title: 'Code With Me Guest', family: 'intellij' },
  GATEWAY: { id: 'gateway', title: 'Gateway', family: 'intellij' },
  ANDROID_STUDIO: {
    id: 'androidstudio',
    title: 'Android Studio',
    paid: false,
    family: 'intellij',
  },
  MPS: { id: 'mps', title: 'MPS', paid: false, family: 'intellij' },
  AQUA: { id: 'aqua', title: 'Aqua', family: 'intellij' },
  RUST: { id: 'rust', title: 'RustRover', family: 'intellij' },
  WRITERSIDE: {
    id: 'writerside',
    title: 'Writerside',
    family: 'intellij',
    beta: true,
    betaTooltip: previewTooltip('Writerside'),
  },
  FLEET: {
    id: 'fleet',
    title: 'Fleet',
    family: 'fleet',
    beta: true,
    betaTooltip: previewTooltip('Fleet'),
  },
  AIR: {
    id: 'air',
    title: 'Air',
    family: 'intellij',
    beta: true,
    betaTooltip: previewTooltip('Air'),
  },
  AIR_NEXT: {
    id: 'air_next',
    title: 'Air',
    edition: 'Next',
    family: 'intellij',
    beta: true,
    betaTooltip: previewTooltip('Air Next'),
  },
  TEAMCITY: { id: 'teamcity', title: 'TeamCity', family: 'teamcity' },
  TEAMCITY_RECIPE: {
    id: 'teamcity_recipes',
    title: 'TeamCity recipes',
    family: 'teamcity_recipes',
  },
  HUB_WIDGET: { id: 'hub', title: 'Hub', edition: 'widget', family: 'hub' },
  SPACE: { id: 'space', title: 'Space', family: 'space' },
  // YouTrack and Upsource dashboard widgets run on Hub's dashboard, so they belong to the hub family.
  YOUTRACK_WIDGET: {
    id: 'youtrack_widget',
    title: 'YouTrack',
    edition: 'widget',
    family: 'hub',
  },
  YOUTRACK_APP: { id: 'youtrack', title: 'YouTrack', family: 'youtrack' },
  UPSOURCE_WIDGET: { id: 'upsource', title: 'Upsource', edition: 'widget', family: 'hub' },
  RESHARPER: { id: 'resharper', title: 'ReSharper', family: 'dotnet' },
  EDUCATIONAL: { id: 'edu', title: familyLabel('edu'), family: 'edu' },
};

function complete(key: IdeProductKey): IdeProduct {
  const { paid = true, beta = false, ...entry } = CATALOGUE[key];
  return Object.freeze({ key, ...entry, code: PRODUCT_CODES[key], paid, beta });
}

export const IDE_PRODUCTS: Readonly<Record<IdeProductKey, IdeProduct>> = Object.freeze(
  Object.fromEntries(IDE_PRODUCT_KEYS.map((key) => [key, complete(key)])) as Record<
    IdeProductKey,
    IdeProduct
  >,
);

/** 'IntelliJ IDEA Ultimate', 'PyCharm Community', 'GoLand': the title with its edition, if any. */
export function productFullName(product: IdeProduct): string {
  return product.edition === undefined ? product.title : `${product.title} ${product.edition}`;
}

/**
 * The product with this build-number code, ignoring case ('iu' finds IntelliJ IDEA Ultimate). Where two
 * entries share a code (PY), the one listed first in the spec wins.
 */
export function productByCode(code: string): IdeProduct | undefined {
  const key = productKeyByCode(code);
  return key === undefined ? undefined : IDE_PRODUCTS[key];
}

/**
 * The IDE a build number comes from: the code before the first dash ('IU-241.14494' -> IntelliJ IDEA
 * Ultimate). A build number without a code ('241.14494', as `/api/about` sends it) names no product.
 */
export function productFromBuildNumber(buildNumber: string): IdeProduct | undefined {
  const key = productKeyFromBuildNumber(buildNumber);
  return key === undefined ? undefined : IDE_PRODUCTS[key];
}

/**
 * The IDEs that can open a course in this language: those of spec §9 in its order, then the educational
 * IDEs that support the language. An unknown language has none.
 */
export function productsForCourseLanguage(language: string): IdeProduct[] {
  return productKeysForCourseLanguage(language).map((key) => IDE_PRODUCTS[key]);
}
