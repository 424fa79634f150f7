import {
  formatStatisticsDate,
  screenshotsToUpload,
  tagsForUpdate,
  type EditableScreenshot,
  type ProductFamily,
} from '@marketplace/core';
import { CommerceClient } from './commerce';
import { ExceptionsClient } from './exceptions';
import { PagesClient } from './pages';
import { InsightClient } from './insight';
import { VerificationClient } from './verification';
import { PerformanceClient } from './admin-performance';
import { FeaturesClient } from './admin-features';
import { ConsentClient } from './consent';
import type { PageRelation } from './link-header';
import { apiPaths } from './paths';
import { buildQuery, type QueryParameters } from './query';
import {
  ApiTransport,
  type ApiAnswer,
  type ApiClientOptions,
  type ApiRequest,
  type CallOptions,
  type Paged,
} from './transport';
import type {
  ApprovalQueue,
  ApprovalQueueInput,
  Channels,
  Comment,
  CompatibleProducts,
  CompatibleProductsInput,
  CompatibleUpdates,
  CompatibleUpdatesInput,
  Developer,
  DownloadsPerDay,
  DownloadsPerDayInput,
  FeaturedInput,
  GranularRating,
  NearestUpdates,
  NearestUpdatesInput,
  Plugin,
  PluginCommentsInput,
  PluginOptions,
  PluginSummary,
  PluginVersion,
  PluginVersionsInput,
  NewReview,
  PluginTagsInput,
  PluginUrlsChanges,
  RatingInput,
  Reply,
  ReplyInput,
  Review,
  ReviewChanges,
  ProductAggregation,
  ProductAggregationInput,
  Rating,
  SearchPlugins,
  SearchPluginsInput,
  SearchSuggestInput,
  SearchSuggestions,
  StatisticsDay,
  Tag,
  TagListInput,
  UploadedPlugin,
  UploadedVersion,
  User,
  UserCommentsInput,
  UserPluginsInput,
  UserPluginSummary,
} from './types';
import type { UploadOptions, UploadOutcome, UploadProgress } from './upload';
import { AdminUsersClient } from './admin-users';
import { FeaturedItemsClient } from './admin-featured';
import { ModerationClient } from './moderation';
import { SignaturesClient } from './signatures';
import { ScanningClient } from './scanning';
import { NamespacesClient } from './namespaces';
import { MirrorsClient } from './mirrors';

function statisticsDay(name: string, day: StatisticsDay): string {
  if (typeof day === 'string') return day;
  const text = formatStatisticsDate(day);
  if (text === '') throw new RangeError(`${name} is not a valid date.`);
  return text;
}

/**
 * The typed client of the marketplace API. Every method takes CallOptions last (abort signal, omitting
 * credentials), resolves with the contract's answer type, and rejects with ApiError for an HTTP error status,
 * NetworkError when no readable answer came, or the signal's reason when aborted.
 */
export class ApiClient {
  private readonly transport: ApiTransport;
  /** Selling: prices, quotes, trials, orders, licences; offers and sales; sellers and invoices. */
  readonly commerce: CommerceClient;
  /** Statistics by measure and dimension (the item's people and administrators). */
  readonly insight: InsightClient;
  /** The exception analyzer: a plugin's error reports grouped by defect (the item's people and administrators). */
  readonly exceptions: ExceptionsClient;
  /** Verification of versions against the IDE builds they claim (the item's people and administrators). */
  readonly verification: VerificationClient;
  /** Administrators: performance figures and the caches of the server (flush, reload). */
  readonly performance: PerformanceClient;
  /** Feature flags: administrators manage them; anyone reads those that apply to them (`mine`). */
  readonly features: FeaturesClient;
  /** The visitor's choice about optional cookies and analytics (these calls send the origin's cookies). */
  readonly consent: ConsentClient;
  /** Custom pages and webhelp (the item's people write them; anyone reads the published ones). `pages` is pagination. */
  readonly customPages: PagesClient;
  /** Users of the admin area (list, ban, roles) and the developers type-ahead. */
  readonly users: AdminUsersClient;
  /** Moderation: an item's admin view and actions, reports, the audit log, upload details. */
  readonly moderation: ModerationClient;
  /** The featured items per product family: administrators pick them, the home page shows them. */
  readonly featuredItems: FeaturedItemsClient;
  /** Archive signatures: the marketplace's countersigning certificate; the vendors that must sign (administrators). */
  readonly signatures: SignaturesClient;
  /** Scanning of uploaded versions: the quarantine queue and decisions (administrators), the versions' scans. */
  readonly scanning: ScanningClient;
  /** Id prefixes: vendors claim them (proved by DNS); administrators grant, approve, refuse and revoke them. */
  readonly namespaces: NamespacesClient;
  /** Other marketplaces mirrored here: administrators add, pause, sync and remove them. */
  readonly mirrors: MirrorsClient;

  constructor(options: ApiClientOptions) {
    this.transport = new ApiTransport(options);
    this.commerce = new CommerceClient(this.transport);
    this.insight = new InsightClient(this.transport);
    this.exceptions = new ExceptionsClient(this.transport);
    this.verification = new VerificationClient(this.transport);
    this.performance = new PerformanceClient(this.transport);
    this.features = new FeaturesClient(this.transport);
    this.consent = new ConsentClient(this.transport);
    this.customPages = new PagesClient(this.transport);
    this.users = new AdminUsersClient(this.transport);
    this.moderation = new ModerationClient(this.transport);
    this.featuredItems = new FeaturedItemsClient(this.transport);
    this.signatures = new SignaturesClient(this.transport);
    this.scanning = new ScanningClient(this.transport);
    this.namespaces = new NamespacesClient(this.transport);
    this.mirrors = new MirrorsClient(this.transport);
  }

  /** The base URL every path is appended to, without a trailing slash. */
  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** The absolute address of an API path (for links, images and downloads). */
  url(path: string, query?: QueryParameters): string {
    return this.transport.url(path, query);
  }

  /** Any call, answered per spec §7 (nothing, parsed JSON, or a text message). */
  request<T = unknown>(request: ApiRequest): Promise<ApiAnswer<T>> {
    return this.transport.send<T>(request);
  }

  private get<T>(path: string, options: CallOptions = {}): Promise<T> {
    return this.transport.sendJson<T>({ ...options, method: 'GET', path });
  }

  private getPaged<T>(path: string, options: CallOptions = {}): Promise<Paged<T>> {
    return this.transport.sendPaged<T>({ ...options, method: 'GET', path });
  }

  // Moderation ----------------------------------------------------------------------------------------------

  /**
   * Administrators only: every published plugin not approved yet and every plugin with versions pending
   * approval, oldest waiting first; 20 a page unless `max` says otherwise, the total in `Paged.totalCount`.
   */
  getApprovalQueue(query: ApprovalQueueInput = {}, options?: CallOptions): Promise<Paged<ApprovalQueue>> {
    return this.getPaged(apiPaths.approvalQueue(query), options);
  }

  // Plugins -------------------------------------------------------------------------------------------------

  /** An item in the default shape; `fullInfo` includes developers and bundles. */
  getPlugin(pluginId: number, query: PluginOptions = {}, options?: CallOptions): Promise<Plugin> {
    const path = apiPaths.plugin(pluginId) + buildQuery({ fullInfo: query.fullInfo || undefined });
    return this.get<Plugin>(path, options);
  }

  getRating(pluginId: number, options?: CallOptions): Promise<Rating> {
    return this.get(apiPaths.plugin(pluginId, 'rating'), options);
  }

  getGranularRating(pluginId: number, options?: CallOptions): Promise<GranularRating> {
    return this.get(apiPaths.plugin(pluginId, 'rating-granular'), options);
  }

  getBundles(pluginId: number, options?: CallOptions): Promise<PluginSummary[]> {
    return this.get(apiPaths.plugin(pluginId, 'bundles'), options);
  }

  getDevelopers(pluginId: number, options?: CallOptions): Promise<Developer[]> {
    return this.get(apiPaths.plugin(pluginId, 'developers'), options);
  }

  /** IDE product keys the item runs on; empty means every product of its family. */
  getCompatibleProducts(pluginId: number, options?: CallOptions): Promise<CompatibleProducts> {
    return this.get(apiPaths.plugin(pluginId, 'compatible-products'), options);
  }

  /** Versions, newest first, 20 a page unless `size` says otherwise. */
  getVersions(
    pluginId: number,
    query: PluginVersionsInput = {},
    options?: CallOptions,
  ): Promise<Paged<PluginVersion[]>> {
    return this.getPaged(apiPaths.plugin(pluginId, 'updates') + buildQuery(query), options);
  }

  /** The channels that have versions ('' is stable). */
  getChannels(pluginId: number, options?: CallOptions): Promise<Channels> {
    return this.get(apiPaths.plugin(pluginId, 'channels'), options);
  }

  /** One version by its id (the updateId of download links). */
  getVersion(updateId: number, options?: CallOptions): Promise<PluginVersion> {
    return this.get(apiPaths.update(updateId), options);
  }

  // Search --------------------------------------------------------------------------------------------------

  /** Search with every filter and sort order of the contract; pages by max/offset with Link headers. */
  searchPlugins(query: SearchPluginsInput = {}, options?: CallOptions): Promise<Paged<SearchPlugins>> {
    return this.getPaged(apiPaths.searchPlugins(query), options);
  }

  searchSuggest(query: SearchSuggestInput, options?: CallOptions): Promise<SearchSuggestions> {
    return this.get(apiPaths.searchSuggest(query), options);
  }

  /** The catalogue's tags by name; `family` keeps those of one family (the forms pick tags from them). */
  getTags(query: TagListInput = {}, options?: CallOptions): Promise<Tag[]> {
    return this.get(apiPaths.tags({ family: query.family }), options);
  }

  /** How many items match the filters, per compatible IDE product. */
  aggregateProducts(query: ProductAggregationInput = {}, options?: CallOptions): Promise<ProductAggregation> {
    return this.get(apiPaths.productAggregation(query), options);
  }

  /** The newest version of each plugin compatible with an IDE build (what the IDE asks). */
  compatibleUpdates(body: CompatibleUpdatesInput, options?: CallOptions): Promise<CompatibleUpdates> {
    return this.transport.sendJson({
      ...options,
      method: 'POST',
      path: apiPaths.compatibleUpdates(),
      json: { channel: '', ...body },
    });
  }

  /** The same keyed by plugin.xml id (spec §7 updates/nearest). */
  nearestUpdates(query: NearestUpdatesInput, options?: CallOptions): Promise<NearestUpdates> {
    return this.get(apiPaths.nearestUpdates(query), options);
  }

  // Reviews, users, featured --------------------------------------------------------------------------------

  /** Reviews of a plugin, newest first, 20 a page. */
  getComments({ pluginId, ...page }: PluginCommentsInput, options?: CallOptions): Promise<Paged<Comment[]>> {
    return this.getPaged(apiPaths.comments(pluginId, page), options);
  }

  getUser(userId: number, options?: CallOptions): Promise<User> {
    return this.get(apiPaths.user(userId), options);
  }

  /** Items a user owns or develops, 12 a page, every family but edu unless `family` says otherwise. */
  getUserPlugins(
    userId: number,
    query: UserPluginsInput = {},
    options?: CallOptions,
  ): Promise<Paged<UserPluginSummary[]>> {
    return this.getPaged(apiPaths.userPlugins(userId, query), options);
  }

  /** Reviews a user wrote, newest first, 20 a page. */
  getUserComments(
    userId: number,
    query: UserCommentsInput = {},
    options?: CallOptions,
  ): Promise<Paged<Comment[]>> {
    return this.getPaged(apiPaths.userComments(userId, query), options);
  }

  /** Featured items for an IDE product, optionally of one family. */
  getFeatured({ product, family }: FeaturedInput, options?: CallOptions): Promise<PluginSummary[]> {
    return this.get(apiPaths.featured(product, family), options);
  }

  /**
   * Administrators: replaces an IDE product's staff picks (what the IDE's window shows as featured, and the
   * search's `isFeaturedSearch` keeps) with these items, in order; answers the new list.
   */
  setFeaturedPlugins(
    product: FeaturedInput['product'],
    pluginIds: readonly number[],
    options?: CallOptions,
  ): Promise<PluginSummary[]> {
    return this.transport.sendJson({
      ...options,
      method: 'PUT',
      path: `/api/admin/featured-plugins/${encodeURIComponent(product)}`,
      json: { pluginIds: [...pluginIds] },
    });
  }

  /** Writes the signed-in user's review of a plugin; a second one is refused (409) naming the first. */
  createReview(review: NewReview, options?: CallOptions): Promise<Review> {
    return this.transport.sendJson({ ...options, method: 'POST', path: '/api/comments', json: review });
  }

  updateReview(reviewId: number, changes: ReviewChanges, options?: CallOptions): Promise<Review> {
    return this.transport.sendJson({
      ...options,
      method: 'PUT',
      path: apiPaths.review(reviewId),
      json: changes,
    });
  }

  async deleteReview(reviewId: number, options?: CallOptions): Promise<void> {
    await this.transport.send({ ...options, method: 'DELETE', path: apiPaths.review(reviewId) });
  }

  /** Sets the signed-in user's stars for a plugin (creating the review when there is none). */
  setRating(pluginId: number, rating: RatingInput, options?: CallOptions): Promise<Rating> {
    return this.transport.sendJson({
      ...options,
      method: 'PUT',
      path: apiPaths.plugin(pluginId, 'rating'),
      json: rating,
    });
  }

  /** A developer's reply to a review of their plugin. */
  addReply(reviewId: number, comment: string, options?: CallOptions): Promise<Reply> {
    return this.transport.sendJson({
      ...options,
      method: 'POST',
      path: apiPaths.reviewReplies(reviewId),
      json: { comment } satisfies ReplyInput,
    });
  }

  updateReply(reviewId: number, replyId: number, comment: string, options?: CallOptions): Promise<Reply> {
    return this.transport.sendJson({
      ...options,
      method: 'PUT',
      path: apiPaths.reviewReply(reviewId, replyId),
      json: { comment } satisfies ReplyInput,
    });
  }

  async deleteReply(reviewId: number, replyId: number, options?: CallOptions): Promise<void> {
    await this.transport.send({
      ...options,
      method: 'DELETE',
      path: apiPaths.reviewReply(reviewId, replyId),
    });
  }

  // Statistics ----------------------------------------------------------------------------------------------

  /** Downloads per day between two days (inclusive); `fill: 'full'` lists days without downloads as 0. */
  getDownloadsPerDay(query: DownloadsPerDayInput, options?: CallOptions): Promise<DownloadsPerDay> {
    const path = apiPaths.downloadsPerDay({
      plugin: query.plugin,
      startDate: statisticsDay('startDate', query.startDate),
      endDate: statisticsDay('endDate', query.endDate),
      ...(query.fill ? { fill: query.fill } : {}),
    });
    return this.get(path, options);
  }

  // Uploads -------------------------------------------------------------------------------------------------

  /**
   * Sends a file (field `file`) and other fields as a multipart form, reporting progress when asked, and reads
   * the answer in the spec's upload shape (§5). The token always goes along (spec §6).
   */
  async upload<T = unknown>(path: string, options: UploadOptions): Promise<UploadOutcome<T>> {
    // Loaded when a file is sent: a page that only reads does not download the multipart and progress code.
    const { uploadForm } = await import('./upload');
    return uploadForm<T>(this.transport, path, options);
  }

  /**
   * Publishes a new plugin from its first archive (reference §3: POST /api/plugins/{family}/upload). Tags go as
   * strings (core's tagsForUpdate), comma-separated as the endpoint reads them.
   */
  uploadNewPlugin<T = UploadedPlugin>(
    family: ProductFamily,
    input: NewPluginUpload,
    options: UploadCallOptions = {},
  ): Promise<UploadOutcome<T>> {
    return this.upload<T>(`/api/plugins/${encodeURIComponent(family)}/upload`, {
      ...options,
      file: input.file,
      ...(input.fileName === undefined ? {} : { fileName: input.fileName }),
      fields: {
        licenseUrl: input.licenseUrl,
        tags: input.tags === undefined ? undefined : tagsForUpdate(input.tags).join(','),
        vendor: input.vendor,
        channel: input.channel,
        isHidden: input.isHidden,
      },
    });
  }

  /** Uploads a new version of a plugin, named by its id or its plugin.xml id (POST /api/updates/upload). */
  uploadVersion<T = UploadedVersion>(
    input: VersionUpload,
    options: UploadCallOptions = {},
  ): Promise<UploadOutcome<T>> {
    const target =
      'pluginId' in input
        ? { pluginId: input.pluginId }
        : { xmlId: input.xmlId, ...(input.family === undefined ? {} : { family: input.family }) };
    return this.upload<T>('/api/updates/upload', {
      ...options,
      file: input.file,
      ...(input.fileName === undefined ? {} : { fileName: input.fileName }),
      fields: { ...target, channel: input.channel, notes: input.notes, isHidden: input.isHidden },
    });
  }

  /**
   * Adds the screenshots that carry a new file (core's screenshotsToUpload: removed ones and ones already
   * uploaded are not sent). Resolves without a call when there is nothing to send.
   */
  async uploadScreenshots<T = unknown>(
    pluginId: number,
    screenshots: readonly EditableScreenshot<Blob>[],
    options: UploadCallOptions = {},
  ): Promise<UploadOutcome<T>> {
    const files = screenshotsToUpload(screenshots).map((screenshot) => screenshot.file);
    if (files.length === 0) {
      return { ok: true, data: undefined, result: { errors: [], warnings: [], isErrorUnknown: false } };
    }
    return this.upload<T>(`${apiPaths.plugin(pluginId)}/screenshots`, { ...options, file: files });
  }

  // Management ----------------------------------------------------------------------------------------------

  /** Sets a plugin's tags, every tag (name, id or tag) sent as a string (spec §5, core's tagsForUpdate). */
  updateTags(
    pluginId: number,
    tags: readonly (string | number | { id: number })[],
    options?: CallOptions,
  ): Promise<ApiAnswer> {
    return this.transport.send({
      ...options,
      method: 'POST',
      path: `${apiPaths.plugin(pluginId)}/tags`,
      json: tagsForUpdate(tags) satisfies PluginTagsInput,
    });
  }

  /**
   * Sets an item's links (PUT /api/plugins/{id}/urls): '' removes a link, an absent one is kept, and a list
   * given (donation links, custom contacts) replaces the item's list.
   */
  async setPluginUrls(pluginId: number, urls: PluginUrlsChanges, options?: CallOptions): Promise<void> {
    await this.transport.send({
      ...options,
      method: 'PUT',
      path: `${apiPaths.plugin(pluginId)}/urls`,
      json: urls,
    });
  }

  /** Sets the IDE products an item runs on (product keys such as IDEA; none: every product of its family). */
  async setCompatibleProducts(
    pluginId: number,
    products: CompatibleProductsInput,
    options?: CallOptions,
  ): Promise<void> {
    await this.transport.send({
      ...options,
      method: 'POST',
      path: `${apiPaths.plugin(pluginId)}/compatibility`,
      json: products,
    });
  }

  /**
   * Keeps an item's screenshots named by these urls, in this order, and deletes the others
   * (PUT /api/plugins/{id}/screenshots); resolves with the screenshots as they are now.
   */
  arrangeScreenshots(
    pluginId: number,
    urls: readonly string[],
    options?: CallOptions,
  ): Promise<{ id: number; url: string }[]> {
    return this.transport.sendJson({
      ...options,
      method: 'PUT',
      path: `${apiPaths.plugin(pluginId)}/screenshots`,
      json: urls,
    });
  }

  /** Deletes one of an item's documentation tabs, named by its URL suffix. */
  async deleteDocumentationTab(pluginId: number, urlSuffix: string, options?: CallOptions): Promise<void> {
    await this.transport.send({
      ...options,
      method: 'DELETE',
      path: `${apiPaths.plugin(pluginId)}/documentation/${encodeURIComponent(urlSuffix)}`,
    });
  }

  /** The order of the signed-in user's items on their pages: every id, first first (PUT /api/plugins/order). */
  async setPluginOrder(pluginIds: readonly number[], options?: CallOptions): Promise<void> {
    await this.transport.send({ ...options, method: 'PUT', path: '/api/plugins/order', json: pluginIds });
  }

  // Pages ---------------------------------------------------------------------------------------------------

  /**
   * Fetches the page a link of `page` points to (next by default), or resolves undefined when there is none.
   * The links come from the server, so the page has the same shape as the one given.
   */
  async followLink<T>(
    page: Paged<T>,
    relation: PageRelation = 'next',
    options?: CallOptions,
  ): Promise<Paged<T> | undefined> {
    const target = page.links[relation];
    if (target === undefined) return undefined;
    return this.getPaged<T>(target, options);
  }

  /** Yields `first` and every following page until the last one. */
  async *pages<T>(first: Paged<T>, options?: CallOptions): AsyncGenerator<Paged<T>, void, undefined> {
    const seen = new Set<string>([first.url]);
    let page: Paged<T> | undefined = first;
    while (page !== undefined) {
      yield page;
      const next: string | undefined = page.links.next;
      // A server that links a page to itself (or back) must not make this loop forever.
      if (next === undefined || seen.has(next)) return;
      seen.add(next);
      page = await this.followLink(page, 'next', options);
    }
  }
}

/** What the typed upload methods accept besides the form. */
export interface UploadCallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: UploadProgress) => void;
}

interface ArchiveUpload {
  /** The .zip or .jar the build produced. */
  file: Blob;
  fileName?: string;
  /** The release channel ('' or absent: stable). */
  channel?: string;
  isHidden?: boolean;
}

export interface NewPluginUpload extends ArchiveUpload {
  licenseUrl: string;
  /** Tag names or ids (sent as strings). */
  tags?: readonly (string | number | { id: number })[];
  /** The vendor to publish under, when not the one plugin.xml names. */
  vendor?: string;
}

export type VersionUpload = ArchiveUpload & { notes?: string } & (
    { pluginId: number } | { xmlId: string; family?: ProductFamily }
  );

export function createApiClient(options: ApiClientOptions): ApiClient {
  return new ApiClient(options);
}
