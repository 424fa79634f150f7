/**
 * The path builders of spec §7 for the routes the server has: paths below the base URL, queries included.
 * `client.url(path)` makes them absolute (for links and `<img src>`).
 */
import {
  COMMENTS_PAGE_SIZE,
  USER_PLUGIN_FAMILIES,
  USER_PLUGINS_PAGE_SIZE,
  type ProductFamily,
} from '@marketplace/core';
import { buildQuery, type QueryParameters } from './query';

/** Sub-resources of /api/plugins/{id} that can be read. */
export type PluginSection =
  | 'rating'
  | 'rating-granular'
  | 'bundles'
  | 'developers'
  | 'compatible-products'
  | 'updates'
  | 'channels'
  | 'icon';

/** Ids in paths are database ids: whole numbers from 1 (what the server's IdParams accepts). */
export function pathId(what: string, id: number): string {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) {
    throw new RangeError(`${what} must be a whole number from 1, got ${String(id)}.`);
  }
  return String(id);
}

function withQuery(path: string, query: QueryParameters): string {
  return path + buildQuery(query);
}

export const apiPaths = {
  currentUser: () => '/api/users/me',
  currentUserTokens: () => '/api/users/me/tokens',
  currentUserToken: (tokenId: number) => `/api/users/me/tokens/${pathId('Token id', tokenId)}`,
  user: (userId: number) => `/api/users/${pathId('User id', userId)}`,
  /** Spec §7: page 1, 12 a page, every family but edu unless asked. */
  userPlugins: (
    userId: number,
    {
      page = 1,
      size = USER_PLUGINS_PAGE_SIZE,
      family = USER_PLUGIN_FAMILIES,
    }: { page?: number; size?: number; family?: readonly ProductFamily[] } = {},
  ) => withQuery(`/api/users/${pathId('User id', userId)}/plugins`, { page, size, family }),
  /** Spec §7: page 1, 20 a page. */
  userComments: (
    userId: number,
    { page = 1, size = COMMENTS_PAGE_SIZE }: { page?: number; size?: number } = {},
  ) => withQuery(`/api/users/${pathId('User id', userId)}/comments`, { page, size }),

  plugin: (pluginId: number, section?: PluginSection) =>
    `/api/plugins/${pathId('Plugin id', pluginId)}${section === undefined ? '' : `/${section}`}`,
  pluginScreenshot: (pluginId: number, screenshotId: number) =>
    `/api/plugins/${pathId('Plugin id', pluginId)}/screenshots/${pathId('Screenshot id', screenshotId)}`,
  /** One version ("update") by its id. */
  update: (updateId: number) => `/api/updates/${pathId('Update id', updateId)}`,

  /** Reviews of a plugin, newest first. */
  comments: (
    pluginId: number,
    { page = 1, size = COMMENTS_PAGE_SIZE }: { page?: number; size?: number } = {},
  ) => withQuery('/api/comments', { pluginId: pathId('Plugin id', pluginId), page, size }),

  /** One review, and its developers' replies. */
  review: (reviewId: number) => `/api/comments/${pathId('Review id', reviewId)}`,
  reviewReplies: (reviewId: number) => `/api/comments/${pathId('Review id', reviewId)}/replies`,
  reviewReply: (reviewId: number, replyId: number) =>
    `/api/comments/${pathId('Review id', reviewId)}/replies/${pathId('Reply id', replyId)}`,

  featured: (product: string, family?: ProductFamily) =>
    withQuery(
      family === undefined ? '/api/featured-plugins/product' : `/api/featured-plugins/${family}/product`,
      {
        product,
      },
    ),

  /** Administrators only: plugins waiting for approval, max/offset paging. */
  approvalQueue: (query: QueryParameters = {}) => withQuery('/api/admin/plugins/pending', query),
  searchPlugins: (query: QueryParameters = {}) => withQuery('/api/searchPlugins', query),
  searchSuggest: (query: QueryParameters) => withQuery('/api/searchSuggest', query),
  /** The catalogue's tags, of one family if asked. */
  tags: (query: QueryParameters = {}) => withQuery('/api/tags', query),
  productAggregation: (query: QueryParameters = {}) => withQuery('/api/search/aggregation/products', query),
  compatibleUpdates: () => '/api/search/updates/compatible',
  nearestUpdates: (query: QueryParameters) => withQuery('/api/search/updates/nearest', query),

  /** Downloads of a plugin per day, yyyy-MM-dd days (spec §7 statistics). */
  downloadsPerDay: (query: { plugin: number; startDate: string; endDate: string; fill?: 'full' }) =>
    withQuery('/statistic/downloads-count/day', { ...query, plugin: pathId('Plugin id', query.plugin) }),

  /** The download link of a version (spec §7: /plugin/download?rel=true&updateId=). */
  download: (updateId: number) =>
    withQuery('/plugin/download', { rel: true, updateId: pathId('Update id', updateId) }),
  /** A version by the plugin.xml id and version, as IDE tooling asks for it. */
  downloadVersion: (xmlId: string, version: string, channel?: string) =>
    withQuery('/plugin/download', { pluginId: xmlId, version, channel: channel || undefined }),
  /** The newest version compatible with an IDE build. */
  downloadCompatible: (xmlId: string, build: string, channel?: string) =>
    withQuery('/pluginManager', { action: 'download', id: xmlId, build, channel: channel || undefined }),
} as const;
