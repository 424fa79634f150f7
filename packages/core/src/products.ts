/**
 * The IDE product catalogue (spec §3, "IDE product entries"). The spec is the source of truth for the keys,
 * the codes it names and the unpaid list; the remaining codes are the ones the IDEs themselves put before
 * the dash of their build numbers, and `id` is the product's name in search filters (`products=idea_ce`).
 */
import type { ProductFamily } from './families';
import { familyLabel } from './families';
import type { ProgrammingLanguage } from './enums';
import { PROGRAMMING_LANGUAGES } from './enums';

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

type Entry = Omit<IdeProduct, 'key' | 'paid' | 'beta'> & { paid?: boolean; beta?: boolean };

/** Written once here, completed below: paid unless said otherwise, not in preview unless said otherwise. */
const CATALOGUE: Readonly<Record<IdeProductKey, Entry>> = {
  IDEA: { id: 'idea', code: 'IU', title: 'IntelliJ IDEA', edition: 'Ultimate', family: 'intellij' },
  IDEA_COMMUNITY: {
    id: 'idea_ce',
    code: 'IC',
    title: 'IntelliJ IDEA',
    edition: 'Community',
    paid: false,
    family: 'intellij',
  },
  IDEA_EDUCATIONAL: {
    id: 'idea_edu',
    code: 'IE',
    title: 'IntelliJ IDEA',
    edition: 'Educational',
    paid: false,
    family: 'intellij',
  },
  PHPSTORM: { id: 'phpstorm', code: 'PS', title: 'PhpStorm', family: 'intellij' },
  WEBSTORM: { id: 'webstorm', code: 'WS', title: 'WebStorm', family: 'intellij' },
  // Since 2025.1 PyCharm is one product (code PY) whose Pro features come with a subscription; PYCHARM_PRO
  // names the same IDE when the Professional edition must be told apart, so both carry PY.
  PYCHARM: { id: 'pycharm', code: 'PY', title: 'PyCharm', family: 'intellij' },
  PYCHARM_PRO: {
    id: 'pycharm_pro',
    code: 'PY',
    title: 'PyCharm',
    edition: 'Professional',
    family: 'intellij',
  },
  PYCHARM_COMMUNITY: {
    id: 'pycharm_ce',
    code: 'PC',
    title: 'PyCharm',
    edition: 'Community',
    paid: false,
    family: 'intellij',
  },
  PYCHARM_EDUCATIONAL: {
    id: 'pycharm_edu',
    code: 'PE',
    title: 'PyCharm',
    edition: 'Educational',
    paid: false,
    family: 'intellij',
  },
  DATASPELL: { id: 'dataspell', code: 'DS', title: 'DataSpell', family: 'intellij' },
  RUBYMINE: { id: 'ruby', code: 'RM', title: 'RubyMine', family: 'intellij' },
  APPCODE: { id: 'objc', code: 'OC', title: 'AppCode', family: 'intellij' },
  CLION: { id: 'clion', code: 'CL', title: 'CLion', family: 'intellij' },
  GOLAND: { id: 'go', code: 'GO', title: 'GoLand', family: 'intellij' },
  DBE: { id: 'dbe', code: 'DB', title: 'DataGrip', family: 'intellij' },
  RIDER: { id: 'rider', code: 'RD', title: 'Rider', family: 'intellij' },
  JBCLIENT: { id: 'jbclient', code: 'JBC', title: 'JetBrains Client', family: 'intellij' },
  CWMGUEST: { id: 'cwmguest', code: 'CWMG', title: 'Code With Me Guest', family: 'intellij' },
  GATEWAY: { id: 'gateway', code: 'GW', title: 'Gateway', family: 'intellij' },
  ANDROID_STUDIO: {
    id: 'androidstudio',
    code: 'AI',
    title: 'Android Studio',
    paid: false,
    family: 'intellij',
  },
  MPS: { id: 'mps', code: 'MPS', title: 'MPS', paid: false, family: 'intellij' },
  AQUA: { id: 'aqua', code: 'QA', title: 'Aqua', family: 'intellij' },
  RUST: { id: 'rust', code: 'RR', title: 'RustRover', family: 'intellij' },
  WRITERSIDE: {
    id: 'writerside',
    code: 'WRS',
    title: 'Writerside',
    family: 'intellij',
    beta: true,
    betaTooltip: previewTooltip('Writerside'),
  },
  FLEET: {
    id: 'fleet',
    code: 'FL',
    title: 'Fleet',
    family: 'fleet',
    beta: true,
    betaTooltip: previewTooltip('Fleet'),
  },
  AIR: {
    id: 'air',
    code: 'AIR',
    title: 'Air',
    family: 'intellij',
    beta: true,
    betaTooltip: previewTooltip('Air'),
  },
  AIR_NEXT: {
    id: 'air_next',
    code: 'AIRN',
    title: 'Air',
    edition: 'Next',
    family: 'intellij',
    beta: true,
    betaTooltip: previewTooltip('Air Next'),
  },
  TEAMCITY: { id: 'teamcity', code: 'TC', title: 'TeamCity', family: 'teamcity' },
  TEAMCITY_RECIPE: {
    id: 'teamcity_recipes',
    code: 'TCR',
    title: 'TeamCity recipes',
    family: 'teamcity_recipes',
  },
  HUB_WIDGET: { id: 'hub', code: 'HUB', title: 'Hub', edition: 'widget', family: 'hub' },
  SPACE: { id: 'space', code: 'SPACE', title: 'Space', family: 'space' },
  // YouTrack and Upsource dashboard widgets run on Hub's dashboard, so they belong to the hub family.
  YOUTRACK_WIDGET: {
    id: 'youtrack_widget',
    code: 'YTW',
    title: 'YouTrack',
    edition: 'widget',
    family: 'hub',
  },
  YOUTRACK_APP: { id: 'youtrack', code: 'YT', title: 'YouTrack', family: 'youtrack' },
  UPSOURCE_WIDGET: { id: 'upsource', code: 'UPS', title: 'Upsource', edition: 'widget', family: 'hub' },
  RESHARPER: { id: 'resharper', code: 'RS', title: 'ReSharper', family: 'dotnet' },
  EDUCATIONAL: { id: 'edu', code: 'EDU', title: familyLabel('edu'), family: 'edu' },
};

function complete(key: IdeProductKey): IdeProduct {
  const { paid = true, beta = false, ...entry } = CATALOGUE[key];
  return Object.freeze({ key, ...entry, paid, beta });
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
  const wanted = code.trim().toUpperCase();
  if (wanted === '') return undefined;
  const key = IDE_PRODUCT_KEYS.find((candidate) => IDE_PRODUCTS[candidate].code === wanted);
  return key === undefined ? undefined : IDE_PRODUCTS[key];
}

/**
 * The IDE a build number comes from: the code before the first dash ('IU-241.14494' -> IntelliJ IDEA
 * Ultimate). A build number without a code ('241.14494', as `/api/about` sends it) names no product.
 */
export function productFromBuildNumber(buildNumber: string): IdeProduct | undefined {
  const dash = buildNumber.indexOf('-');
  if (dash <= 0) return undefined;
  return productByCode(buildNumber.slice(0, dash));
}

/** The IDEs that open a course in each language (spec §9), in the spec's order. */
export const COURSE_LANGUAGE_PRODUCTS: Readonly<Record<ProgrammingLanguage, readonly IdeProductKey[]>> = {
  Python: ['PYCHARM_COMMUNITY', 'PYCHARM', 'IDEA', 'IDEA_COMMUNITY'],
  Rust: ['RUST', 'CLION', 'IDEA'],
  go: ['GOLAND'],
  ObjectiveC: ['CLION'],
  JavaScript: ['WEBSTORM', 'IDEA', 'PHPSTORM'],
  kotlin: ['IDEA_COMMUNITY', 'IDEA', 'ANDROID_STUDIO'],
  Scala: ['IDEA_COMMUNITY', 'IDEA'],
  JAVA: ['IDEA_COMMUNITY', 'IDEA', 'ANDROID_STUDIO'],
  PHP: ['IDEA', 'PHPSTORM', 'WEBSTORM'],
};

/** The course languages each educational IDE supports (spec §9). */
export const EDUCATIONAL_IDE_LANGUAGES: Readonly<
  Record<'IDEA_EDUCATIONAL' | 'PYCHARM_EDUCATIONAL', readonly ProgrammingLanguage[]>
> = {
  IDEA_EDUCATIONAL: ['JAVA', 'kotlin', 'Scala', 'Rust', 'PHP'],
  PYCHARM_EDUCATIONAL: ['Python', 'Rust'],
};

/** The spec's spelling of a course language, matched without regard to case ('java' -> 'JAVA'). */
export function toProgrammingLanguage(language: string): ProgrammingLanguage | undefined {
  const wanted = language.trim().toLowerCase();
  return PROGRAMMING_LANGUAGES.find((known) => known.toLowerCase() === wanted);
}

/**
 * The IDEs that can open a course in this language: those of spec §9 in its order, then the educational
 * IDEs that support the language. An unknown language has none.
 */
export function productsForCourseLanguage(language: string): IdeProduct[] {
  const known = toProgrammingLanguage(language);
  if (known === undefined) return [];
  const educational = (
    Object.keys(EDUCATIONAL_IDE_LANGUAGES) as (keyof typeof EDUCATIONAL_IDE_LANGUAGES)[]
  ).filter((key) => EDUCATIONAL_IDE_LANGUAGES[key].includes(known));
  return [...COURSE_LANGUAGE_PRODUCTS[known], ...educational].map((key) => IDE_PRODUCTS[key]);
}
