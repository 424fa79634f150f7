/**
 * The entities of spec §3 as types. They describe data as the site holds it; the HTTP shapes and their
 * validation live in api-contract and are checked against these.
 */
import type {
  AsyncStatus,
  ChangeReason,
  CustomPageStatus,
  CustomPageType,
  PaymentFilter,
  PricingModel,
  RatingCategory,
  SortOrder,
} from './enums';
import type { ProductFamily } from './families';
import type { IdeProductKey } from './products';

/** A list that is loaded on its own, after the plugin. */
export interface AsyncList<Item> {
  status: AsyncStatus;
  data: Item[];
}

export interface PluginInfo {
  id: number;
  name: string;
  family: ProductFamily;
  /** The item page path, e.g. '/plugin/123-my-plugin'. */
  link: string;
  approve: boolean;
  hasUnapprovedUpdate: boolean;
  isHidden: boolean;
  /** HTML. */
  description: string;
  /** The short plain text shown on cards. */
  preview: string;
  docText: string;
  email: string;
  downloads: number;
  xmlId: string;
  copyright: string;
  removalRequested: boolean;
  icon: string;
  /** When the item was created, ms since the epoch. */
  cdate: number;
  pricingModel: PricingModel;
  isMonetizationAvailable: boolean;
  isBlocked: boolean;
  isModificationAllowed: boolean;
  /**
   * When the item was last updated (its newest published version), ms since the epoch; what the card's
   * update date shows. Absent from answers of marketplaces that do not send it.
   */
  updateDate?: number;
}

export interface Screenshot {
  url: string;
}

/** A screenshot while a developer edits the list: new ones carry a file, removed ones are marked. */
export interface EditableScreenshot<UploadFile = unknown> extends Screenshot {
  file?: UploadFile;
  uploaded?: boolean;
  deleted?: boolean;
}

export interface Tag {
  id: number;
  name: string;
  link: string;
  privileged: boolean;
  searchable: boolean;
  families: ProductFamily[];
}

export interface PluginRating {
  status: AsyncStatus;
  /** 0-5; absent until loaded or when nobody rated yet. */
  meanRating?: number;
  /** Votes per star count ('1'..'5'). */
  votes?: Readonly<Record<string, number>>;
}

/** Granular rating: a mean per category. */
export type GranularRating = Partial<Readonly<Record<RatingCategory, number>>>;

export interface Vendor {
  name: string;
  url: string;
}

export interface DonationLink {
  name: string;
  url: string;
}

export interface CustomContact {
  title: string;
  link: string;
}

export interface PluginUrls {
  donationLinks: DonationLink[];
  bugtrackerUrl: string;
  forumUrl: string;
  licenseUrl: string;
  sourceCodeUrl: string;
  docUrl: string;
  url: string;
  customContacts: CustomContact[];
  privacyPolicyUrl: string;
}

export interface PluginDeveloper {
  id: string;
  name: string;
  login?: string;
}

export interface PluginBundle {
  id: number;
  name: string;
  link: string;
}

/** A documentation tab on the item page. */
export interface DocumentationTab {
  tabName: string;
  /** The tab's path segment (its slug). */
  path: string;
  urlSuffix: string;
  contentUrl: string;
  generateToc: boolean;
}

export interface PluginTheme {
  name: string;
  dark: boolean;
}

/** A plugin as the site holds it (the spec's default shape). */
export interface Plugin {
  id: number;
  removed: boolean;
  info: PluginInfo;
  screenshots: Screenshot[];
  tags: Tag[];
  rating: PluginRating;
  vendor: Vendor;
  urls: PluginUrls;
  language: string | null;
  /** One of PROGRAMMING_LANGUAGES for courses, spelled as the server spells it. */
  programmingLanguage: string | null;
  developers: AsyncList<PluginDeveloper>;
  bundles: AsyncList<PluginBundle>;
  customTabs: DocumentationTab[];
  themes: PluginTheme[];
  status: AsyncStatus;
  /** The last 30 days of downloads, oldest first (the card's chart); absent when not sent. */
  downloadStatistics?: DownloadStatistics;
}

/** How a plugin is addressed: by number, by plugin.xml id, within its family. */
export interface PluginIdentity {
  pluginId: number;
  pluginXmlId: string;
  productFamily: ProductFamily;
}

/** The build range an update installs into, and why it was last changed. */
export interface BuildBounds {
  since: string | null;
  until: string | null;
}

export interface BuildBoundsChange {
  value: string;
  reason: ChangeReason;
  comment?: string;
}

export interface AdminNote {
  id: number;
  text: string;
  author?: string;
  /** ms since the epoch. */
  cdate: number;
  resolved: boolean;
}

export interface CompatibleProduct {
  key: IdeProductKey;
}

/** An IDE found on the visitor's machine. */
export interface RunningIde {
  name: string;
  /** With the product code, e.g. 'IU-252.23892.409'. */
  buildNumber: string;
  port: number;
}

/** The newest update of a plugin for an IDE build, keyed by plugin.xml id in answers. */
export interface UpdateInfo {
  xmlId: string;
  id?: number;
  version?: string;
}

/** What the IDE needs to open a course, plain or launched from an LMS. */
export interface Course {
  course_id: number;
  marketplace_course_id: number;
}

export interface CustomPage {
  id: number;
  url: string;
  name: string;
  pluginId: number;
  originalContent: string;
  content: string;
  type: CustomPageType;
  status?: CustomPageStatus;
  generateToc: boolean;
  images: string[];
  parentId: number | null;
}

/** One day of the download chart: `name` is the day (yyyy-MM-dd), `value` the downloads. */
export interface DownloadStatisticPoint {
  name: string;
  value: number;
}

export type DownloadStatistics = DownloadStatisticPoint[];

/** The answer to an upload: failure when errors is not empty; warnings are reported but allowed. */
export interface UploadResult {
  errors: string[];
  warnings: string[];
  isErrorUnknown: boolean;
}

/**
 * Who is signed in (spec §3 auth user), as GET /api/users/me answers it: the user's number, or a guest, whose
 * id, name, login and e-mail are null. A signed-in user without an e-mail address has `email: null` too.
 */
export interface AuthUser {
  guest: boolean;
  id: number | null;
  name: string | null;
  login: string | null;
  email: string | null;
  emailVerified: boolean;
  banned: boolean;
  /** An administrator (the site shows them the admin area); false for a guest. */
  isAdmin: boolean;
}

/** What an item card shows (spec §2). */
export interface PluginCard {
  id: number;
  xmlId: string;
  name: string;
  link: string;
  family: ProductFamily;
  icon: string;
  preview: string;
  vendor: Vendor;
  rating: number;
  downloads: number;
  pricingModel: PricingModel;
  /** ms since the epoch. */
  updateDate: number | null;
  isTheme: boolean;
  /** A theme's card image (spec §2: 382x213), its first screenshot; absent when it has none. */
  image?: string;
  /** The last 30 days of downloads, oldest first. */
  downloadStatistics?: DownloadStatistics;
}

export interface SearchParams {
  search: string;
  payment: PaymentFilter;
  orderBy: SortOrder;
}

export interface FilterParams {
  tags: string[];
  products: string[];
  communityPrograms: string[];
  isFeaturedSearch: boolean;
  shouldHaveSource: boolean;
}

export interface Pagination {
  max: number;
  offset: number;
}

export interface SearchResults {
  pluginIds: number[];
  total: number;
  pagination: Pagination;
  isFetching: boolean;
  entities: Readonly<Record<number, PluginCard>>;
}

export const SEARCH_RESULT_KINDS = ['plugins', 'themes', 'any'] as const;
export type SearchResultKind = (typeof SEARCH_RESULT_KINDS)[number];

export interface SearchState {
  searchParams: SearchParams;
  filterParams: FilterParams;
  results: Readonly<Record<SearchResultKind, SearchResults>>;
}
