/**
 * The enumerations of spec §3, each with its type and a guard that accepts `unknown` (values arrive from
 * URLs, JSON and postMessage). Display labels are here where the spec gives them.
 */

/** A guard that accepts `unknown` and keeps exactly the listed values. */
export function guardFor<T extends string>(values: readonly T[]): (value: unknown) => value is T {
  return (value: unknown): value is T =>
    typeof value === 'string' && (values as readonly string[]).includes(value);
}

export const PRICING_MODELS = ['PAID', 'FREEMIUM', 'FREE'] as const;
export type PricingModel = (typeof PRICING_MODELS)[number];
export const isPricingModel = guardFor(PRICING_MODELS);

const PRICING_MODEL_LABELS: Readonly<Record<PricingModel, string>> = {
  PAID: 'Free trial',
  FREEMIUM: 'Freemium',
  FREE: 'Free',
};

/** The pricing model of an item as the server sent it; anything unknown or missing is free (spec §3). */
export function toPricingModel(value: unknown): PricingModel {
  return isPricingModel(value) ? value : 'FREE';
}

/** 'Free trial' for paid items (they can be tried before buying), 'Freemium', or 'Free'. */
export function pricingModelLabel(value: string | null | undefined): string {
  return PRICING_MODEL_LABELS[toPricingModel(value)];
}

/** Course languages, spelled exactly as the server spells them (the mixed case is the spec's). */
export const PROGRAMMING_LANGUAGES = [
  'Python',
  'Rust',
  'go',
  'ObjectiveC',
  'JavaScript',
  'kotlin',
  'Scala',
  'JAVA',
  'PHP',
] as const;
export type ProgrammingLanguage = (typeof PROGRAMMING_LANGUAGES)[number];
export const isProgrammingLanguage = guardFor(PROGRAMMING_LANGUAGES);

/** Why a developer or administrator changed an update's since/until build bounds. */
export const CHANGE_REASONS = ['INCORRECT_BUILD_NUMBER', 'COMPATIBILITY_ERRORS', 'OTHER'] as const;
export type ChangeReason = (typeof CHANGE_REASONS)[number];
export const isChangeReason = guardFor(CHANGE_REASONS);

/** The categories of a granular rating. */
export const RATING_CATEGORIES = [
  'INTEGRATION',
  'PERFORMANCE',
  'AVAILABLE_FEATURES',
  'USER_INTERFACE',
  'DOCUMENTATION_QUALITY',
  'PRICING_POLICY',
] as const;
export type RatingCategory = (typeof RATING_CATEGORIES)[number];
export const isRatingCategory = guardFor(RATING_CATEGORIES);

export const CUSTOM_PAGE_STATUSES = ['DRAFT', 'PUBLISH', 'WEBHELP'] as const;
export type CustomPageStatus = (typeof CUSTOM_PAGE_STATUSES)[number];
export const isCustomPageStatus = guardFor(CUSTOM_PAGE_STATUSES);

export const CUSTOM_PAGE_TYPES = ['custom-page', 'webhelp'] as const;
export type CustomPageType = (typeof CUSTOM_PAGE_TYPES)[number];
export const isCustomPageType = guardFor(CUSTOM_PAGE_TYPES);

/** A theme is dark or light. */
export const COLOR_SCHEMES = ['dark', 'light'] as const;
export type ColorScheme = (typeof COLOR_SCHEMES)[number];
export const isColorScheme = guardFor(COLOR_SCHEMES);

/** An asynchronous load goes idle -> pending -> resolved or rejected. */
export const ASYNC_STATUSES = ['idle', 'pending', 'resolved', 'rejected'] as const;
export type AsyncStatus = (typeof ASYNC_STATUSES)[number];
export const isAsyncStatus = guardFor(ASYNC_STATUSES);

export const SORT_ORDERS = [
  'relevance',
  'downloads',
  'update date',
  'publish date',
  'name',
  'rating',
  'downloads_asc',
  'rating_asc',
] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
export const isSortOrder = guardFor(SORT_ORDERS);

export const PAYMENT_FILTERS = ['all', 'paid', 'free'] as const;
export type PaymentFilter = (typeof PAYMENT_FILTERS)[number];
export const isPaymentFilter = guardFor(PAYMENT_FILTERS);
