/**
 * Compile-time proof that the answers described here are the entities of @marketplace/core: if a schema
 * drifts from the type the site holds, type-checking this file fails.
 */
import type {
  AuthUser,
  DownloadStatisticPoint,
  GranularRating,
  Plugin,
  PluginCard,
  PluginDeveloper,
  RatingCategory,
  Tag,
  UpdateInfo,
} from '@marketplace/core';
import type { Static } from 'typebox';
import type { AuthUserBody } from './auth';
import type { NearestUpdateSchema } from './ide';
import type { DeveloperBody, GranularRatingBody, PluginBody, PluginSummaryBody, TagBody } from './plugins';
import type { DownloadsPerDayResult } from './statistics';

type Assert<Condition extends true> = Condition;
type Extends<Actual, Expected> = [Actual] extends [Expected] ? true : false;

export type ContractMatchesCore = [
  Assert<Extends<PluginBody, Plugin>>,
  Assert<Extends<PluginSummaryBody, PluginCard>>,
  Assert<Extends<TagBody, Tag>>,
  Assert<Extends<DeveloperBody, PluginDeveloper>>,
  Assert<Extends<GranularRatingBody, GranularRating>>,
  Assert<Extends<keyof GranularRatingBody, RatingCategory>>,
  Assert<Extends<RatingCategory, keyof GranularRatingBody>>,
  Assert<Extends<Static<typeof NearestUpdateSchema>, UpdateInfo>>,
  Assert<Extends<DownloadsPerDayResult['data'][number], DownloadStatisticPoint>>,
  Assert<Extends<AuthUserBody, AuthUser>>,
  Assert<Extends<AuthUser, AuthUserBody>>,
];
