/**
 * The shapes of the API, each taken from @marketplace/api-contract (never written out here): answers as the
 * schemas' static types, inputs as the query schemas with their server-side defaults made optional.
 */
import type {
  AdminNoteBody,
  ApiTokenSummaryBody,
  ApprovalQueueBody,
  ApprovalQueueQuery,
  AuthUserBody,
  BuildBoundChangeBody,
  BuildBoundQuery,
  CategoryRatings,
  ChannelsSchema,
  CommentBody,
  CreateApiTokenBody,
  CreatedApiTokenBody,
  CreateReviewBody,
  CompatibleProductsSchema,
  CompatibleUpdatesBody,
  CompatibleUpdatesResult,
  DeveloperBody,
  DownloadsPerDayQuery,
  DownloadsPerDayResult,
  FamilyParams,
  FeaturedQuery,
  GranularRatingBody,
  ModerationPageQuery,
  NearestUpdatesQuery,
  NewAdminNoteBody,
  NewPluginReportBody,
  NearestUpdatesResult,
  PluginBody,
  PluginLifecycleBody,
  PluginCommentsQuery,
  PluginQuery,
  PluginReportBody,
  PluginStateBody,
  PluginSummaryBody,
  PluginVersionBody,
  PluginVersionsQuery,
  ProductAggregationQuery,
  ProductAggregationResult,
  RatingBody,
  ReplyTextBody,
  ReviewBody,
  ReviewReplyBody,
  SearchPluginsQuery,
  SearchPluginsResult,
  SearchSuggestQuery,
  SearchSuggestResult,
  SetCompatibleProductsBody,
  SetPluginDevelopersBody,
  SetPluginTagsBody,
  SetRatingBody,
  TagBody,
  TagListQuery,
  UpdatePluginFieldsBody,
  UpdatePluginUrlsBody,
  UpdateReviewBody,
  UploadedPluginBody,
  UploadedVersionBody,
  UserBody,
  UserCommentsQuery,
  UserPluginsQuery,
  UserPluginSummaryBody,
} from '@marketplace/api-contract';
import type { Static } from 'typebox';

/** Inputs: what the server fills in by default may be left out. */
type Input<T> = Partial<T>;

export type Plugin = PluginBody;
export type PluginOptions = Input<Static<typeof PluginQuery>>;
export type Rating = RatingBody;
export type GranularRating = GranularRatingBody;
export type PluginSummary = PluginSummaryBody;
/** Where an item is in its lifecycle, in the answers of its developers and administrators only. */
export type PluginLifecycle = PluginLifecycleBody;
/** A summary in a user's list of items, with the lifecycle of those the viewer develops or administers. */
export type UserPluginSummary = UserPluginSummaryBody;
export type Tag = TagBody;
export type TagListInput = TagListQuery;
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

/** Stars (1-5) per rating category of spec §3 (core's RATING_CATEGORIES); the server refuses other keys. */
export type CategoryStars = CategoryRatings;
/** A review as the review routes answer it: the contract's comment with its stars per category. */
export type Review = ReviewBody;
export type Reply = ReviewReplyBody;
export type NewReview = CreateReviewBody;
export type ReviewChanges = UpdateReviewBody;
export type RatingInput = SetRatingBody;
export type ReplyInput = ReplyTextBody;

/** Administrators' queue of plugins waiting for approval, oldest waiting first. */
export type ApprovalQueueInput = Input<ApprovalQueueQuery>;
export type ApprovalQueue = ApprovalQueueBody;
export type ApprovalQueueEntry = ApprovalQueue[number];

/** Moderation: a lifecycle action's answer, admin notes and visitors' reports. */
export type PluginState = PluginStateBody;
export type ModerationPageInput = Input<ModerationPageQuery>;
export type AdminNote = AdminNoteBody;
export type NewAdminNote = NewAdminNoteBody;
export type PluginReport = PluginReportBody;
export type NewPluginReport = NewPluginReportBody;

/** The signed-in user (GET /api/users/me): a guest has every field null or false. */
export type AuthUser = AuthUserBody;
/** The signed-in user's permanent API tokens; the token itself is shown only when it is created. */
export type ApiTokenSummary = ApiTokenSummaryBody;
export type CreatedApiToken = CreatedApiTokenBody;
export type NewApiToken = CreateApiTokenBody;

/** Management: what developers send to change their plugins. */
export type PluginFieldsChanges = UpdatePluginFieldsBody;
export type PluginUrlsChanges = UpdatePluginUrlsBody;
export type PluginTagsInput = SetPluginTagsBody;
export type PluginDevelopersInput = SetPluginDevelopersBody;
export type CompatibleProductsInput = SetCompatibleProductsBody;
export type BuildBoundInput = BuildBoundQuery;
export type BuildBoundChange = BuildBoundChangeBody;

/** What a successful upload of a version answers (UploadOutcome's data). */
export type UploadedVersion = UploadedVersionBody;
/** What a successful upload of a new plugin answers: the plugin, with its first version as `update`. */
export type UploadedPlugin = UploadedPluginBody;
