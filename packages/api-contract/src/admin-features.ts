/**
 * Feature flags (spec §7 `/api/features`): named flags with a type and a value of that type (see core's
 * features: boolean, percentage, users, vendors). Administrators list, search, group, create, change and
 * delete them and read their usage; anyone reads the flags as they apply to themselves (`mine`).
 *
 * Routes:
 * - `GET /api/features` (`?type=`), `POST /api/features`: list, create (administrators).
 * - `GET|PUT|DELETE /api/features/{name}` (DELETE `?reason=`): one flag (administrators).
 * - `GET /api/features/search?query=&type=`: by name or description (administrators).
 * - `GET /api/features/group-by-types`: every flag under its type (administrators).
 * - `GET /api/features/statistic`: evaluations and how many came out on, per flag, since its last change.
 * - `GET /api/features/mine?browser=`: every flag, on or off, for the asking user (else the browser id).
 * Values: a boolean flag's is true or false, a percentage's a whole number 0..100, a users flag's a list of
 * logins, a vendors flag's a list of vendor names. A value of the wrong type, a percentage outside 0..100, an
 * unknown login or vendor, or a name already taken answers 400 and changes nothing.
 */
import { FEATURE_TYPES } from '@marketplace/core';
import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from './common';

export const FeatureTypeSchema = Type.Enum([...FEATURE_TYPES], {
  description: 'boolean (on or off), percentage (sticky share of visitors), users or vendors (listed ones)',
});

/** Checked against the flag's type by the server (core's checkFeatureValue), not by the schema. */
export const FeatureValueSchema = Type.Unknown({
  description:
    'boolean: true or false; percentage: a whole number 0..100; users: logins; vendors: vendor names',
});

export const FeatureFlagSchema = Type.Object({
  name: Type.String(),
  type: FeatureTypeSchema,
  description: Type.String(),
  value: FeatureValueSchema,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  /** The login of the administrator who changed it last (null once that account is gone). */
  updatedBy: Nullable(Type.String()),
});
export type FeatureFlag = Static<typeof FeatureFlagSchema> & {
  value: boolean | number | string[];
};

export const FeatureFlagListSchema = Type.Array(FeatureFlagSchema);

export const FeatureNameParams = Type.Object({ name: Type.String({ maxLength: 200 }) });
export type FeatureNameParams = Static<typeof FeatureNameParams>;

export const NewFeatureFlagSchema = Type.Object({
  name: Type.String({ maxLength: 200, description: 'home-new-items: lower-case words, dashes or dots' }),
  type: Type.String({ maxLength: 40, description: 'boolean, percentage, users or vendors' }),
  description: Type.Optional(Type.String({ maxLength: 500 })),
  value: FeatureValueSchema,
  /** Why, for the audit log. */
  reason: Type.Optional(Type.String({ maxLength: 1000 })),
});
export type NewFeatureFlag = Static<typeof NewFeatureFlagSchema> & {
  value: boolean | number | string[];
};

/** A change: anything left out stays; a new type needs a value of that type. */
export const FeatureFlagChangeSchema = Type.Object({
  type: Type.Optional(Type.String({ maxLength: 40 })),
  description: Type.Optional(Type.String({ maxLength: 500 })),
  value: Type.Optional(FeatureValueSchema),
  reason: Type.Optional(Type.String({ maxLength: 1000 })),
});
export type FeatureFlagChange = Omit<Static<typeof FeatureFlagChangeSchema>, 'value'> & {
  value?: boolean | number | string[];
};

export const FeatureListQuery = Type.Object({ type: Type.Optional(FeatureTypeSchema) });
export type FeatureListQuery = Static<typeof FeatureListQuery>;

export const FeatureSearchQuery = Type.Object({
  query: Type.String({ maxLength: 200, default: '' }),
  type: Type.Optional(FeatureTypeSchema),
});
export type FeatureSearchQuery = Static<typeof FeatureSearchQuery>;

export const FeatureDeleteQuery = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 1000 })) });

export const FeatureGroupsSchema = Type.Object({
  boolean: FeatureFlagListSchema,
  percentage: FeatureFlagListSchema,
  users: FeatureFlagListSchema,
  vendors: FeatureFlagListSchema,
});
export type FeatureGroups = Record<(typeof FEATURE_TYPES)[number], FeatureFlag[]>;

export const FeatureUsageSchema = Type.Object({
  name: Type.String(),
  type: FeatureTypeSchema,
  evaluations: Type.Integer({ minimum: 0 }),
  on: Type.Integer({ minimum: 0 }),
  off: Type.Integer({ minimum: 0 }),
  /** Share of evaluations that came out on, 0..100 with one decimal; null before the first. */
  onPercent: Nullable(Type.Number()),
  /** Counting starts when the flag is created and again when its type or value changes. */
  countedSince: Timestamp,
  lastEvaluatedAt: Nullable(Timestamp),
});
export type FeatureUsage = Static<typeof FeatureUsageSchema>;

export const FeatureStatisticSchema = Type.Object({
  /** When this answer was counted up to: counters of every process that flushed before it. */
  at: Timestamp,
  flags: Type.Array(FeatureUsageSchema),
});
export type FeatureStatistic = Static<typeof FeatureStatisticSchema>;

export const MyFeaturesQuery = Type.Object({
  browser: Type.Optional(
    Type.String({ maxLength: 64, description: 'A random id the browser keeps, for sticky percentages' }),
  ),
});
export type MyFeaturesQuery = Static<typeof MyFeaturesQuery>;

export const MyFeaturesSchema = Type.Object({
  flags: Type.Record(Type.String(), Type.Boolean(), { description: 'Every flag: on or off for the asker' }),
});
export type MyFeatures = Static<typeof MyFeaturesSchema>;
