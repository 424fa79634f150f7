import { describe, expect, it } from 'vitest';
import {
  ASYNC_STATUSES,
  CHANGE_REASONS,
  COLOR_SCHEMES,
  CUSTOM_PAGE_STATUSES,
  CUSTOM_PAGE_TYPES,
  PAYMENT_FILTERS,
  PRICING_MODELS,
  PROGRAMMING_LANGUAGES,
  RATING_CATEGORIES,
  SORT_ORDERS,
  isAsyncStatus,
  isChangeReason,
  isColorScheme,
  isCustomPageStatus,
  isCustomPageType,
  isPaymentFilter,
  isPricingModel,
  isProgrammingLanguage,
  isRatingCategory,
  isSortOrder,
  pricingModelLabel,
  toPricingModel,
} from './enums';

describe('pricing model', () => {
  it("shows PAID as 'Free trial', FREEMIUM as 'Freemium' and FREE as 'Free'", () => {
    expect(pricingModelLabel('PAID')).toBe('Free trial');
    expect(pricingModelLabel('FREEMIUM')).toBe('Freemium');
    expect(pricingModelLabel('FREE')).toBe('Free');
  });

  it('shows unknown, missing or differently cased values as free', () => {
    expect(pricingModelLabel('SUBSCRIPTION')).toBe('Free');
    expect(pricingModelLabel('paid')).toBe('Free');
    expect(pricingModelLabel('')).toBe('Free');
    expect(pricingModelLabel(null)).toBe('Free');
    expect(pricingModelLabel(undefined)).toBe('Free');
  });

  it('reads the three models and turns anything else into FREE', () => {
    expect(PRICING_MODELS).toEqual(['PAID', 'FREEMIUM', 'FREE']);
    expect(toPricingModel('FREEMIUM')).toBe('FREEMIUM');
    expect(toPricingModel('TRIAL')).toBe('FREE');
    expect(toPricingModel(42)).toBe('FREE');
    expect(isPricingModel('PAID')).toBe(true);
    expect(isPricingModel('Free trial')).toBe(false);
  });
});

describe('enumerations of the spec', () => {
  const cases = [
    {
      name: 'programming languages',
      values: PROGRAMMING_LANGUAGES,
      guard: isProgrammingLanguage,
      expected: ['Python', 'Rust', 'go', 'ObjectiveC', 'JavaScript', 'kotlin', 'Scala', 'JAVA', 'PHP'],
      wrongCase: 'Go',
    },
    {
      name: 'change reasons',
      values: CHANGE_REASONS,
      guard: isChangeReason,
      expected: ['INCORRECT_BUILD_NUMBER', 'COMPATIBILITY_ERRORS', 'OTHER'],
      wrongCase: 'other',
    },
    {
      name: 'rating categories',
      values: RATING_CATEGORIES,
      guard: isRatingCategory,
      expected: [
        'INTEGRATION',
        'PERFORMANCE',
        'AVAILABLE_FEATURES',
        'USER_INTERFACE',
        'DOCUMENTATION_QUALITY',
        'PRICING_POLICY',
      ],
      wrongCase: 'performance',
    },
    {
      name: 'custom page statuses',
      values: CUSTOM_PAGE_STATUSES,
      guard: isCustomPageStatus,
      expected: ['DRAFT', 'PUBLISH', 'WEBHELP'],
      wrongCase: 'draft',
    },
    {
      name: 'custom page types',
      values: CUSTOM_PAGE_TYPES,
      guard: isCustomPageType,
      expected: ['custom-page', 'webhelp'],
      wrongCase: 'WEBHELP',
    },
    {
      name: 'theme colour schemes',
      values: COLOR_SCHEMES,
      guard: isColorScheme,
      expected: ['dark', 'light'],
      wrongCase: 'Dark',
    },
    {
      name: 'async statuses',
      values: ASYNC_STATUSES,
      guard: isAsyncStatus,
      expected: ['idle', 'pending', 'resolved', 'rejected'],
      wrongCase: 'Pending',
    },
    {
      name: 'sort orders',
      values: SORT_ORDERS,
      guard: isSortOrder,
      expected: [
        'relevance',
        'downloads',
        'update date',
        'publish date',
        'name',
        'rating',
        'downloads_asc',
        'rating_asc',
      ],
      wrongCase: 'update_date',
    },
    {
      name: 'payment filters',
      values: PAYMENT_FILTERS,
      guard: isPaymentFilter,
      expected: ['all', 'paid', 'free'],
      wrongCase: 'Paid',
    },
  ] as const;

  for (const { name, values, guard, expected, wrongCase } of cases) {
    it(`lists the ${name} exactly as the spec spells them`, () => {
      expect(values).toEqual(expected);
    });

    it(`accepts every one of the ${name} and rejects other spellings and non-strings`, () => {
      for (const value of values) expect(guard(value)).toBe(true);
      expect(guard(wrongCase)).toBe(false);
      expect(guard('')).toBe(false);
      expect(guard(null)).toBe(false);
      expect(guard({ toString: () => values[0] })).toBe(false);
    });
  }
});
