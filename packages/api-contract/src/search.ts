import {
  COMMUNITY_PROGRAMS,
  IDE_PRODUCT_KEYS,
  PRODUCT_FAMILIES,
  SEARCH_RESULT_KINDS,
} from '@marketplace/core';
import { Type, type Static } from 'typebox';
import { FamilySchema, PaymentFilterSchema, SortOrderSchema } from './common';
import { PluginSummarySchema } from './plugins';

const ProductKeySchema = Type.Enum([...IDE_PRODUCT_KEYS]);

/** The filters shared by the search and its product facet. */
const searchFilters = {
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Search text; typos are tolerated' })),
  payment: PaymentFilterSchema,
  tags: Type.Optional(
    Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20, description: 'Tag names' }),
  ),
  products: Type.Optional(
    Type.Array(ProductKeySchema, { maxItems: 40, description: 'Compatible with any of' }),
  ),
  communityPrograms: Type.Optional(
    Type.Array(Type.Enum([...COMMUNITY_PROGRAMS]), {
      maxItems: COMMUNITY_PROGRAMS.length,
      description: 'Items that offer any of these community programs (free or discounted licences)',
    }),
  ),
  isFeaturedSearch: Type.Optional(
    Type.Boolean({
      description:
        "Only the staff picks of the IDE products (featured_plugins, the IDE window's is_featured_search): " +
        'of the chosen products when products are given, of any product otherwise',
    }),
  ),
  shouldHaveSource: Type.Optional(Type.Boolean({ description: 'Only items that give a source code URL' })),
  kind: Type.Optional(
    Type.Enum([...SEARCH_RESULT_KINDS], {
      description:
        'Result set (spec §3): "plugins" leaves themes out, "themes" keeps only themes, "any" both',
    }),
  ),
  family: Type.Enum([...PRODUCT_FAMILIES], {
    default: 'intellij',
    description: 'Product family (each family is searched on its own, as its listing pages are)',
  }),
};

export const SearchPluginsQuery = Type.Object({
  ...searchFilters,
  orderBy: Type.Optional(SortOrderSchema),
  max: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  offset: Type.Integer({ minimum: 0, maximum: 10_000, default: 0 }),
});
export type SearchPluginsQuery = Static<typeof SearchPluginsQuery>;

export const SearchPluginsResult = Type.Object({
  plugins: Type.Array(PluginSummarySchema),
  total: Type.Integer(),
  correctedQuery: Type.Optional(
    Type.String({ description: 'The text searched for instead, when it differs' }),
  ),
});
export type SearchPluginsResult = Static<typeof SearchPluginsResult>;

export const ProductAggregationQuery = Type.Object(searchFilters);
export type ProductAggregationQuery = Static<typeof ProductAggregationQuery>;

export const ProductAggregationResult = Type.Object({
  aggregations: Type.Record(Type.String(), Type.Integer(), {
    description: 'Product key -> how many items match the other filters and are compatible with it',
  }),
  total: Type.Integer(),
});
export type ProductAggregationResult = Static<typeof ProductAggregationResult>;

export const SearchSuggestQuery = Type.Object({
  term: Type.String({ minLength: 1, maxLength: 100 }),
  family: Type.Optional(FamilySchema),
  max: Type.Integer({ minimum: 1, maximum: 20, default: 8 }),
});

export const SearchSuggestResult = Type.Object({
  plugins: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      xmlId: Type.String(),
      link: Type.String(),
      /** The item's family, so the search box can say what it is (plugin, course, app...). */
      family: FamilySchema,
      /** A theme (an IntelliJ plugin tagged Theme) is called a theme, not a plugin. */
      isTheme: Type.Boolean(),
    }),
  ),
  tags: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), link: Type.String() })),
});
export type SearchSuggestResult = Static<typeof SearchSuggestResult>;
