import { PAYMENT_FILTERS, PRICING_MODELS, PRODUCT_FAMILIES, SORT_ORDERS } from '@marketplace/core';
import { Type, type Static } from 'typebox';

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const FamilySchema = Type.Enum([...PRODUCT_FAMILIES], { description: 'Product family' });
export const PricingModelSchema = Type.Enum([...PRICING_MODELS]);
export const SortOrderSchema = Type.Enum([...SORT_ORDERS]);
export const PaymentFilterSchema = Type.Enum([...PAYMENT_FILTERS], { default: 'all' });

/** A numeric id in a path, e.g. /api/plugins/{id}. */
export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
export type IdParams = Static<typeof IdParams>;

/** page/size pagination (1-based pages); each route sets its default size (spec §9). */
export function pageQuery(defaultSize: number) {
  return {
    page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
    size: Type.Integer({ minimum: 1, maximum: 100, default: defaultSize }),
  };
}

/** Days as the statistics use them (spec §9: yyyy-MM-dd). */
export const DateText = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'yyyy-MM-dd' });

/** Milliseconds since 1970 (UTC), the way the spec's `cdate` is given. */
export const Timestamp = Type.Number({ description: 'milliseconds since 1970-01-01T00:00:00Z' });
