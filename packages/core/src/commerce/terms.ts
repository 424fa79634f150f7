import { guardFor } from '../enums';

/**
 * The words of selling: licence kinds, billing periods, community programs, seller and order states, and
 * the steps to start selling. Values are what the API sends; labels are what people read.
 */

/** Who a licence is for: one person, or an organisation that assigns seats to its people. */
export const LICENSE_KINDS = ['PERSONAL', 'ORGANIZATION'] as const;
export type LicenseKind = (typeof LICENSE_KINDS)[number];
export const isLicenseKind = guardFor(LICENSE_KINDS);
export const LICENSE_KIND_LABELS: Readonly<Record<LicenseKind, string>> = {
  PERSONAL: 'Personal',
  ORGANIZATION: 'Organization',
};

export const BILLING_PERIODS = ['MONTHLY', 'YEARLY'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];
export const isBillingPeriod = guardFor(BILLING_PERIODS);
export const BILLING_PERIOD_LABELS: Readonly<Record<BillingPeriod, string>> = {
  MONTHLY: 'Monthly',
  YEARLY: 'Yearly',
};
/** Months one payment of a period buys. */
export const BILLING_PERIOD_MONTHS: Readonly<Record<BillingPeriod, number>> = { MONTHLY: 1, YEARLY: 12 };

/**
 * Community programs: free or discounted licences for people who qualify (the search filter
 * `communityPrograms` of spec §3 finds items that offer one).
 */
export const COMMUNITY_PROGRAMS = ['STUDENTS', 'OPEN_SOURCE', 'EDUCATION', 'STARTUPS'] as const;
export type CommunityProgram = (typeof COMMUNITY_PROGRAMS)[number];
export const isCommunityProgram = guardFor(COMMUNITY_PROGRAMS);
export const COMMUNITY_PROGRAM_LABELS: Readonly<Record<CommunityProgram, string>> = {
  STUDENTS: 'Students',
  OPEN_SOURCE: 'Open-source projects',
  EDUCATION: 'Classroom and education',
  STARTUPS: 'Start-ups',
};

/** A vendor's application to sell, as an administrator decides it. */
export const SELLER_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type SellerStatus = (typeof SELLER_STATUSES)[number];
export const isSellerStatus = guardFor(SELLER_STATUSES);

/** A buyer's application to a program of an item, as the item's vendor decides it. */
export const PROGRAM_APPLICATION_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type ProgramApplicationStatus = (typeof PROGRAM_APPLICATION_STATUSES)[number];

/** An order waits for its invoice to be paid, then becomes a licence; an unpaid one can be cancelled. */
export const ORDER_STATUSES = ['AWAITING_PAYMENT', 'PAID', 'CANCELLED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const ORDER_STATUS_LABELS: Readonly<Record<OrderStatus, string>> = {
  AWAITING_PAYMENT: 'Awaiting payment',
  PAID: 'Paid',
  CANCELLED: 'Cancelled',
};

export const OFFER_DISCOUNT_KINDS = ['PERCENT', 'AMOUNT'] as const;
export type OfferDiscountKind = (typeof OFFER_DISCOUNT_KINDS)[number];
export const isOfferDiscountKind = guardFor(OFFER_DISCOUNT_KINDS);

/** Trials last at least a week and at most three months; 0 days means the item offers none. */
export const MIN_TRIAL_DAYS = 7;
export const MAX_TRIAL_DAYS = 90;
export const DEFAULT_TRIAL_DAYS = 30;

/** The vendor's marketplace defaults: 20% off the second year of a subscription, 40% from the third. */
export const DEFAULT_CONTINUITY_DISCOUNTS: readonly { year: number; percent: number }[] = [
  { year: 2, percent: 20 },
  { year: 3, percent: 40 },
];

/** The steps of `/api/plugins/{id}/monetization/steps`, in the order a vendor takes them. */
export const MONETIZATION_STEPS = [
  'SELLER_APPROVED',
  'PRICES_SET',
  'PRODUCT_DESCRIPTOR',
  'LICENSE_CHECK',
  'ITEM_APPROVED',
] as const;
export type MonetizationStep = (typeof MONETIZATION_STEPS)[number];
export const MONETIZATION_STEP_LABELS: Readonly<Record<MonetizationStep, string>> = {
  SELLER_APPROVED: 'Become an approved seller',
  PRICES_SET: 'Set prices',
  PRODUCT_DESCRIPTOR: 'Declare the product descriptor in plugin.xml',
  LICENSE_CHECK: 'Check the licence in the item',
  ITEM_APPROVED: 'Have the item approved',
};

/**
 * A product code as the vendor's marketplace allows it in `<product-descriptor code="...">`: 4 to 15
 * capital letters and digits, starting with a letter (codes starting with P are plugin codes there).
 */
export function isProductCode(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Z][A-Z0-9]{3,14}$/.test(value);
}
