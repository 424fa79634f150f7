/**
 * The shapes of the API, each taken from @marketplace/api-contract (never written out here): answers as the
 * schemas' static types, inputs as the query schemas with their server-side defaults made optional.
 */
import type {
  ApprovalQueueBody,
  ApprovalQueueQuery,
  ChannelsSchema,
  CommentBody,
  CompatibleProductsSchema,
  CompatibleUpdatesBody,
  CompatibleUpdatesResult,
  DeveloperBody,
  DownloadsPerDayQuery,
  DownloadsPerDayResult,
  FamilyParams,
  FeaturedQuery,
  GranularRatingBody,
  NearestUpdatesQuery,
  NearestUpdatesResult,
  PluginBody,
  PluginCommentsQuery,
  PluginQuery,
  PluginSummaryBody,
  PluginVersionBody,
  PluginVersionsQuery,
  ProductAggregationQuery,
  ProductAggregationResult,
  RatingBody,
  SearchPluginsQuery,
  SearchPluginsResult,
  SearchSuggestQuery,
  SearchSuggestResult,
  UserBody,
  UserCommentsQuery,
  UserPluginsQuery,
} from '@marketplace/api-contract';
import type { RatingCategory } from '@marketplace/core';
import type { Static } from 'typebox';

/** Inputs: what the server fills in by default may be left out. */
type Input<T> = Partial<T>;

export type Plugin = PluginBody;
export type PluginOptions = Input<Static<typeof PluginQuery>>;
export type Rating = RatingBody;
export type GranularRating = GranularRatingBody;
export type PluginSummary = PluginSummaryBody;
export type Developer = DeveloperBody;
export type CompatibleProducts = Static<typeof CompatibleProductsSchema>;
export type PluginVersion = PluginVersionBody;
export type PluginVersionsInput = Input<Static<typeof PluginVersionsQuery>>;
export type Channels = Static<typeof ChannelsSchema>;

export type SearchPluginsInput = Input<SearchPluginsQuery>;
export type SearchPlugins = SearchPluginsResult;
export type SearchSuggestInput = Pick<Static<typeof SearchSuggestQuery>, 'term'> &
  Input<Static<typeof SearchSuggestQuery>>;
export type SearchSuggestions = SearchSuggestResult;
export type ProductAggregationInput = Input<ProductAggregationQuery>;
export type ProductAggregation = ProductAggregationResult;

export type Comment = CommentBody;
export type PluginCommentsInput = Pick<Static<typeof PluginCommentsQuery>, 'pluginId'> &
  Input<Static<typeof PluginCommentsQuery>>;
export type User = UserBody;
export type UserPluginsInput = Input<Static<typeof UserPluginsQuery>>;
export type UserCommentsInput = Input<Static<typeof UserCommentsQuery>>;
export type FeaturedInput = Static<typeof FeaturedQuery> & Input<Static<typeof FamilyParams>>;

/** Days may be given as yyyy-MM-dd text, a Date or milliseconds (sent as UTC days, spec §9). */
export type StatisticsDay = string | Date | number;
export type DownloadsPerDayInput = Omit<DownloadsPerDayQuery, 'startDate' | 'endDate'> & {
  startDate: StatisticsDay;
  endDate: StatisticsDay;
};
export type DownloadsPerDay = DownloadsPerDayResult;

export type CompatibleUpdatesInput = Omit<CompatibleUpdatesBody, 'channel'> & Input<CompatibleUpdatesBody>;
export type CompatibleUpdates = CompatibleUpdatesResult;
export type NearestUpdatesInput = Omit<Static<typeof NearestUpdatesQuery>, 'channel'> &
  Input<Static<typeof NearestUpdatesQuery>>;
export type NearestUpdates = Static<typeof NearestUpdatesResult>;

/** Stars (1-5) per rating category of spec §3. */
export type CategoryStars = Partial<Record<RatingCategory, number>>;
/** A review as the review routes answer it: the contract's comment with its stars per category. */
export type Review = Comment & { categories: CategoryStars };
export type Reply = Comment['replies'][number];
export interface NewReview {
  pluginId: number;
  /** Stars, 1 to 5. */
  rating: number;
  /** Plain text; the server removes markup. */
  comment?: string;
  categories?: CategoryStars;
}
export type ReviewChanges = Partial<Omit<NewReview, 'pluginId'>>;
export type RatingInput = Pick<NewReview, 'rating' | 'categories'>;

/** Administrators' queue of plugins waiting for approval, oldest waiting first. */
export type ApprovalQueueInput = Input<ApprovalQueueQuery>;
export type ApprovalQueue = ApprovalQueueBody;
export type ApprovalQueueEntry = ApprovalQueue[number];
