import {
  BILLING_PERIODS,
  COMMUNITY_PROGRAMS,
  LICENSE_KINDS,
  MAX_COUPONS_PER_REQUEST,
  MAX_ORDER_QUANTITY,
  MAX_TRIAL_DAYS,
  MAX_UNIT_PRICE_MINOR,
  MONETIZATION_STEPS,
  OFFER_DISCOUNT_KINDS,
  ORDER_STATUSES,
  PROGRAM_APPLICATION_STATUSES,
  QUOTE_LINE_KINDS,
  SELLER_STATUSES,
} from '@marketplace/core';
import { Type, type Static } from 'typebox';
import { DateText, Nullable, Timestamp } from './common';

/*
 * Selling (the commerce domain): /api/marketplace/..., a plugin's subscriptions, selling-details and
 * monetization. Money is whole minor units of the marketplace's one currency (`currency` says which);
 * percentages are whole percents; days are yyyy-MM-dd (UTC); instants are milliseconds since 1970.
 */

const DatabaseId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
export const LicenseKindSchema = Type.Enum([...LICENSE_KINDS]);
export const BillingPeriodSchema = Type.Enum([...BILLING_PERIODS]);
export const CommunityProgramSchema = Type.Enum([...COMMUNITY_PROGRAMS]);
export const MinorAmount = Type.Integer({
  minimum: 0,
  maximum: MAX_UNIT_PRICE_MINOR,
  description: 'whole minor units of the currency (cents for USD)',
});
const LargeMinorAmount = Type.Integer({ minimum: 0, description: 'whole minor units of the currency' });
const SignedMinorAmount = Type.Integer({ description: 'whole minor units; discounts are negative' });
const Percent = Type.Integer({ minimum: 0, maximum: 100, description: 'a whole percent' });
const CurrencyCode = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code' });
const CountryCode = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 code' });

/** /api/marketplace/plugin/{id}/offers/{offerId} and the like. */
export const OfferParams = Type.Object({ id: DatabaseId, offerId: DatabaseId });
export type OfferParams = Static<typeof OfferParams>;
export const CouponParams = Type.Object({ id: DatabaseId, couponId: DatabaseId });
export type CouponParams = Static<typeof CouponParams>;
export const ProgramApplicationParams = Type.Object({ id: DatabaseId, applicationId: DatabaseId });
export type ProgramApplicationParams = Static<typeof ProgramApplicationParams>;

// ---- Sellers -------------------------------------------------------------------------------------------

export const PayoutMethodSchema = Type.Enum(['BANK_TRANSFER', 'PAYPAL']);

/** POST /api/marketplace/submit: a vendor applies to sell (again, after a rejection or to change details). */
export const SellerApplicationBody = Type.Object({
  vendorId: DatabaseId,
  legalName: Type.String({ minLength: 2, maxLength: 200 }),
  countryCode: CountryCode,
  address: Type.String({ minLength: 5, maxLength: 500 }),
  taxId: Type.Optional(Type.String({ maxLength: 50 })),
  billingEmail: Type.String({ format: 'email', maxLength: 200 }),
  payoutMethod: PayoutMethodSchema,
  payoutDetails: Type.String({
    minLength: 4,
    maxLength: 500,
    description: 'IBAN and bank, or PayPal address',
  }),
});
export type SellerApplicationBody = Static<typeof SellerApplicationBody>;

/** /api/marketplace/vendor/{id}: the vendor's selling status; details only for its people and administrators. */
export const SellerSchema = Type.Object({
  vendorId: DatabaseId,
  vendorName: Type.String(),
  status: Nullable(Type.Enum([...SELLER_STATUSES])),
  canSell: Type.Boolean(),
  details: Nullable(
    Type.Object({
      legalName: Type.String(),
      countryCode: Type.String(),
      address: Type.String(),
      taxId: Nullable(Type.String()),
      billingEmail: Type.String(),
      payoutMethod: PayoutMethodSchema,
      payoutDetails: Type.String(),
      submittedAt: Timestamp,
      decidedAt: Nullable(Timestamp),
      decisionNote: Nullable(Type.String()),
    }),
  ),
});
export type SellerBody = Static<typeof SellerSchema>;

/** POST /api/marketplace/vendor/{id}/approve and /reject (administrators). */
export const SellerDecisionBody = Type.Object({ note: Type.Optional(Type.String({ maxLength: 1000 })) });
export type SellerDecisionBody = Static<typeof SellerDecisionBody>;

export const SellerListSchema = Type.Array(SellerSchema);

// ---- Prices --------------------------------------------------------------------------------------------

export const PriceSchema = Type.Object({
  licenseKind: LicenseKindSchema,
  billingPeriod: BillingPeriodSchema,
  amountMinor: MinorAmount,
});
export type PriceBody = Static<typeof PriceSchema>;

/** PUT prices: the whole list, effective now. */
export const PriceListBody = Type.Object({ prices: Type.Array(PriceSchema, { minItems: 1, maxItems: 4 }) });
export type PriceListBody = Static<typeof PriceListBody>;

/** POST schedule-price-change: a whole list that takes effect at the start of a future day (UTC). */
export const ScheduledPriceChangeBody = Type.Object({
  effectiveDate: DateText,
  prices: Type.Array(PriceSchema, { minItems: 1, maxItems: 4 }),
});
export type ScheduledPriceChangeBody = Static<typeof ScheduledPriceChangeBody>;

export const ScheduledPriceChangeSchema = Type.Object({
  id: DatabaseId,
  effectiveDate: DateText,
  prices: Type.Array(PriceSchema),
});
export type ScheduledPriceChangeBodyAnswer = Static<typeof ScheduledPriceChangeSchema>;

export const VolumeTierSchema = Type.Object({
  minQuantity: Type.Integer({ minimum: 2, maximum: MAX_ORDER_QUANTITY }),
  percent: Type.Integer({ minimum: 1, maximum: 100 }),
});
export const VolumeDiscountsBody = Type.Object({ tiers: Type.Array(VolumeTierSchema, { maxItems: 10 }) });
export type VolumeDiscountsBody = Static<typeof VolumeDiscountsBody>;

export const ContinuityStepSchema = Type.Object({
  year: Type.Integer({ minimum: 2, maximum: 10 }),
  percent: Percent,
});
export const ContinuityDiscountBody = Type.Object({
  steps: Type.Array(ContinuityStepSchema, { maxItems: 9 }),
});
export type ContinuityDiscountBody = Static<typeof ContinuityDiscountBody>;

export const ProgramOfferSchema = Type.Object({
  program: CommunityProgramSchema,
  percent: Type.Integer({ minimum: 1, maximum: 100, description: '100: a free licence' }),
});
export const ProgramsBody = Type.Object({ programs: Type.Array(ProgramOfferSchema, { maxItems: 4 }) });
export type ProgramsBody = Static<typeof ProgramsBody>;

/** GET /api/marketplace/plugin/{id}/prices: everything the pricing tab shows. */
export const PricingSchema = Type.Object({
  pluginId: DatabaseId,
  pricingModel: Type.String(),
  currency: CurrencyCode,
  /** Whether the item can be bought now: paid or freemium, its vendor approved to sell, prices set. */
  forSale: Type.Boolean(),
  prices: Type.Array(PriceSchema),
  scheduledChanges: Type.Array(ScheduledPriceChangeSchema),
  trialDays: Type.Integer({ minimum: 0, maximum: MAX_TRIAL_DAYS }),
  volumeDiscounts: Type.Array(VolumeTierSchema),
  continuityDiscounts: Type.Array(ContinuityStepSchema),
  programs: Type.Array(ProgramOfferSchema),
  licenseKinds: Type.Array(LicenseKindSchema),
  billingPeriods: Type.Array(BillingPeriodSchema),
});
export type PricingBody = Static<typeof PricingSchema>;

// ---- Subscriptions and selling details (form bodies) --------------------------------------------------

/** GET/PUT /api/plugins/{id}/subscriptions: what is sold, and the trial. */
export const SubscriptionsSchema = Type.Object({
  trialDays: Type.Integer({ minimum: 0, maximum: MAX_TRIAL_DAYS, description: '0: no trial; else 7 to 90' }),
  monthly: Type.Boolean(),
  yearly: Type.Boolean(),
  personal: Type.Boolean(),
  organization: Type.Boolean(),
});
export type SubscriptionsBody = Static<typeof SubscriptionsSchema>;

/** GET/PUT /api/plugins/{id}/selling-details. */
export const SellingDetailsSchema = Type.Object({
  eulaUrl: Nullable(Type.String({ maxLength: 500 })),
  supportEmail: Nullable(Type.String({ maxLength: 200 })),
  licenseCheckDocumented: Type.Boolean({ description: 'the plugin checks its licence as the docs show' }),
});
export type SellingDetailsBody = Static<typeof SellingDetailsSchema>;

// ---- Monetization --------------------------------------------------------------------------------------

export const MonetizationStepSchema = Type.Object({
  step: Type.Enum([...MONETIZATION_STEPS]),
  title: Type.String(),
  done: Type.Boolean(),
  /** What to do next, for a step not done yet. */
  hint: Nullable(Type.String()),
});
export const MonetizationStepsSchema = Type.Array(MonetizationStepSchema);
export type MonetizationStepBody = Static<typeof MonetizationStepSchema>;

/** GET /api/plugins/{id}/monetization: where selling stands for the item. */
export const MonetizationSchema = Type.Object({
  pluginId: DatabaseId,
  pricingModel: Type.String(),
  vendorId: Nullable(DatabaseId),
  sellerStatus: Nullable(Type.Enum([...SELLER_STATUSES])),
  productCode: Nullable(Type.String()),
  forSale: Type.Boolean(),
  steps: MonetizationStepsSchema,
});
export type MonetizationBody = Static<typeof MonetizationSchema>;

/** GET release-infos: the product releases, from the versions' product descriptors. */
export const ReleaseInfoSchema = Type.Object({
  productCode: Type.String(),
  releaseVersion: Type.Integer(),
  releaseDate: DateText,
  /** The first version that declared the release. */
  version: Type.String(),
  optional: Type.Boolean(),
});
export const ReleaseInfosSchema = Type.Array(ReleaseInfoSchema);
export type ReleaseInfoBody = Static<typeof ReleaseInfoSchema>;

// ---- Programs ------------------------------------------------------------------------------------------

/** POST user/programs: a buyer applies to an item's program with evidence (a school, a repository...). */
export const ProgramApplicationBody = Type.Object({
  program: CommunityProgramSchema,
  evidence: Type.String({ minLength: 10, maxLength: 2000 }),
});
export type ProgramApplicationBody = Static<typeof ProgramApplicationBody>;

export const ProgramApplicationSchema = Type.Object({
  id: DatabaseId,
  pluginId: DatabaseId,
  program: CommunityProgramSchema,
  evidence: Type.String(),
  status: Type.Enum([...PROGRAM_APPLICATION_STATUSES]),
  applicant: Type.Object({ id: DatabaseId, name: Type.String() }),
  createdAt: Timestamp,
  decidedAt: Nullable(Timestamp),
});
export const ProgramApplicationsSchema = Type.Array(ProgramApplicationSchema);
export type ProgramApplicationAnswer = Static<typeof ProgramApplicationSchema>;

export const ProgramDecisionBody = Type.Object({ approve: Type.Boolean() });
export type ProgramDecisionBody = Static<typeof ProgramDecisionBody>;

// ---- Offers and coupons --------------------------------------------------------------------------------

export const OfferBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  discountKind: Type.Enum([...OFFER_DISCOUNT_KINDS]),
  /** A whole percent (1-100) for PERCENT; minor units off the order for AMOUNT. */
  discountValue: Type.Integer({ minimum: 1, maximum: 10_000_000_000 }),
  /** First and last day the offer's coupons work (UTC days, inclusive). */
  validFrom: DateText,
  validUntil: DateText,
  licenseKinds: Type.Array(LicenseKindSchema, { maxItems: 2, description: 'empty: every kind' }),
  maxUsesPerCoupon: Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
});
export type OfferBody = Static<typeof OfferBody>;

export const OfferSchema = Type.Object({
  id: DatabaseId,
  pluginId: DatabaseId,
  ...OfferBody.properties,
  couponCount: Type.Integer({ minimum: 0 }),
  usedCount: Type.Integer({ minimum: 0 }),
  createdAt: Timestamp,
});
export const OffersSchema = Type.Array(OfferSchema);
export type OfferAnswer = Static<typeof OfferSchema>;

export const CouponSchema = Type.Object({
  id: DatabaseId,
  offerId: DatabaseId,
  code: Type.String(),
  uses: Type.Integer({ minimum: 0 }),
  sentAt: Nullable(Timestamp),
  sentTo: Nullable(Type.String()),
  createdAt: Timestamp,
});
export const CouponsSchema = Type.Array(CouponSchema);
export type CouponAnswer = Static<typeof CouponSchema>;

export const CouponCountQuery = Type.Object({
  numberOfCoupons: Type.Integer({ minimum: 1, maximum: MAX_COUPONS_PER_REQUEST, default: 1 }),
});
export type CouponCountQuery = Static<typeof CouponCountQuery>;

/** POST coupons/{couponId}/sent: to whom the vendor gave the coupon (optional, for their records). */
export const CouponSentBody = Type.Object({ sentTo: Type.Optional(Type.String({ maxLength: 200 })) });
export type CouponSentBody = Static<typeof CouponSentBody>;

// ---- Quotes, trials, orders, invoices, licences --------------------------------------------------------

export const QuoteQuery = Type.Object({
  quantity: Type.Integer({ minimum: 1, maximum: MAX_ORDER_QUANTITY, default: 1 }),
  licenseKind: Type.Optional(LicenseKindSchema),
  billingPeriod: Type.Optional(BillingPeriodSchema),
});
export type QuoteQuery = Static<typeof QuoteQuery>;

export const ApplyParams = Type.Object({
  id: DatabaseId,
  code: Type.String({ minLength: 1, maxLength: 64 }),
});
export type ApplyParams = Static<typeof ApplyParams>;

export const QuoteLineSchema = Type.Object({
  kind: Type.Enum([...QUOTE_LINE_KINDS]),
  amountMinor: SignedMinorAmount,
  percent: Type.Optional(Percent),
  detail: Type.String(),
});

/** GET apply/{code}?quantity= (and quote?quantity= without a coupon). */
export const QuoteSchema = Type.Object({
  pluginId: DatabaseId,
  currency: CurrencyCode,
  licenseKind: LicenseKindSchema,
  billingPeriod: BillingPeriodSchema,
  quantity: Type.Integer({ minimum: 1 }),
  unitPriceMinor: LargeMinorAmount,
  subtotalMinor: LargeMinorAmount,
  lines: Type.Array(QuoteLineSchema),
  discountMinor: LargeMinorAmount,
  totalMinor: LargeMinorAmount,
  /** The coupon asked about, and why it does not apply (its line is then absent). */
  coupon: Nullable(
    Type.Object({ code: Type.String(), applied: Type.Boolean(), reason: Nullable(Type.String()) }),
  ),
});
export type QuoteBody = Static<typeof QuoteSchema>;

export const TrialSettingsSchema = Type.Object({
  trialDays: Type.Integer({ minimum: 0, maximum: MAX_TRIAL_DAYS }),
  /** The signed-in visitor's trial of this item, if they started one. */
  myTrial: Nullable(Type.Object({ startedAt: Timestamp, endsAt: Timestamp, licenseId: DatabaseId })),
});
export type TrialSettingsBody = Static<typeof TrialSettingsSchema>;

export const TrialDaysBody = Type.Object({
  trialDays: Type.Integer({ minimum: 0, maximum: MAX_TRIAL_DAYS, description: '0: no trial; else 7 to 90' }),
});
export type TrialDaysBody = Static<typeof TrialDaysBody>;

export const LicenseSchema = Type.Object({
  id: DatabaseId,
  pluginId: DatabaseId,
  pluginName: Type.String(),
  productCode: Nullable(Type.String()),
  licensee: Type.String(),
  licenseKind: LicenseKindSchema,
  seats: Type.Integer({ minimum: 1 }),
  trial: Type.Boolean(),
  startsAt: Timestamp,
  expiresAt: Timestamp,
  /** The signed licence (a compact JWS) the plugin checks offline with the marketplace's public key. */
  token: Type.String(),
});
export const LicensesSchema = Type.Array(LicenseSchema);
export type LicenseBody = Static<typeof LicenseSchema>;

export const OrderBody = Type.Object({
  pluginId: DatabaseId,
  licenseKind: LicenseKindSchema,
  billingPeriod: BillingPeriodSchema,
  quantity: Type.Integer({ minimum: 1, maximum: MAX_ORDER_QUANTITY }),
  couponCode: Type.Optional(Type.String({ maxLength: 64 })),
  /** Who the licence is for: a person's or an organisation's name. */
  licensee: Type.String({ minLength: 2, maxLength: 200 }),
  countryCode: CountryCode,
});
export type OrderBody = Static<typeof OrderBody>;

export const InvoiceSchema = Type.Object({
  id: DatabaseId,
  number: Type.String(),
  amountMinor: LargeMinorAmount,
  currency: CurrencyCode,
  status: Type.Enum(['OPEN', 'PAID', 'VOID']),
  issuedAt: Timestamp,
  dueAt: Timestamp,
  paidAt: Nullable(Timestamp),
});
export type InvoiceBody = Static<typeof InvoiceSchema>;

export const OrderSchema = Type.Object({
  id: DatabaseId,
  pluginId: DatabaseId,
  pluginName: Type.String(),
  buyer: Type.Object({ id: DatabaseId, name: Type.String() }),
  licenseKind: LicenseKindSchema,
  billingPeriod: BillingPeriodSchema,
  quantity: Type.Integer({ minimum: 1 }),
  licensee: Type.String(),
  countryCode: Type.String(),
  currency: CurrencyCode,
  lines: Type.Array(QuoteLineSchema),
  subtotalMinor: LargeMinorAmount,
  discountMinor: LargeMinorAmount,
  totalMinor: LargeMinorAmount,
  status: Type.Enum([...ORDER_STATUSES]),
  paymentProvider: Type.String(),
  createdAt: Timestamp,
  paidAt: Nullable(Timestamp),
  invoice: Nullable(InvoiceSchema),
  licenseId: Nullable(DatabaseId),
});
export const OrdersSchema = Type.Array(OrderSchema);
export type OrderAnswer = Static<typeof OrderSchema>;

export const InvoiceListQuery = Type.Object({
  status: Type.Optional(Type.Enum(['OPEN', 'PAID', 'VOID'])),
});

/** GET /api/marketplace/licenses/public-key: the keys licences are signed with, as a JWK set. */
export const LicenseKeySetSchema = Type.Object({
  keys: Type.Array(Type.Object({}, { additionalProperties: true })),
});

export const LicenseVerifyBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 10_000 }) });
export type LicenseVerifyBody = Static<typeof LicenseVerifyBody>;

export const LicenseVerificationSchema = Type.Object({
  valid: Type.Boolean(),
  /** Why not, for people: expired, not signed by this marketplace, malformed. */
  reason: Nullable(Type.String()),
  claims: Nullable(
    Type.Object({
      licenseId: Type.String(),
      pluginId: Type.Integer(),
      productCode: Nullable(Type.String()),
      licensee: Type.String(),
      licenseKind: Type.String(),
      seats: Type.Integer(),
      trial: Type.Boolean(),
      expiresAt: Timestamp,
    }),
  ),
});
export type LicenseVerificationBody = Static<typeof LicenseVerificationSchema>;

// ---- Sales ---------------------------------------------------------------------------------------------

export const SalesQuery = Type.Object({
  startDate: Type.Optional(DateText),
  endDate: Type.Optional(DateText),
  licenseKind: Type.Optional(LicenseKindSchema),
  billingPeriod: Type.Optional(BillingPeriodSchema),
  countryCode: Type.Optional(CountryCode),
  page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
  size: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});
export type SalesQuery = Static<typeof SalesQuery>;

export const SaleSchema = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  soldAt: Timestamp,
  licenseKind: LicenseKindSchema,
  billingPeriod: BillingPeriodSchema,
  quantity: Type.Integer({ minimum: 1 }),
  countryCode: Type.String(),
  grossMinor: LargeMinorAmount,
  discountMinor: LargeMinorAmount,
  commissionMinor: LargeMinorAmount,
  netMinor: LargeMinorAmount,
});

const SalesTotalsSchema = Type.Object({
  sales: Type.Integer({ minimum: 0 }),
  licenses: Type.Integer({ minimum: 0 }),
  grossMinor: LargeMinorAmount,
  discountMinor: LargeMinorAmount,
  commissionMinor: LargeMinorAmount,
  netMinor: LargeMinorAmount,
});

/** GET sales-info: the sales matching the filters, a page of them, and their totals. */
export const SalesInfoSchema = Type.Object({
  currency: CurrencyCode,
  commissionPercent: Percent,
  total: Type.Integer({ minimum: 0 }),
  totals: SalesTotalsSchema,
  sales: Type.Array(SaleSchema),
});
export type SalesInfoBody = Static<typeof SalesInfoSchema>;

export const SalesAnalyticsQuery = Type.Object({
  startDate: Type.Optional(DateText),
  endDate: Type.Optional(DateText),
  licenseKind: Type.Optional(LicenseKindSchema),
  billingPeriod: Type.Optional(BillingPeriodSchema),
  countryCode: Type.Optional(CountryCode),
});
export type SalesAnalyticsQuery = Static<typeof SalesAnalyticsQuery>;

/** GET analytics: revenue and trial-to-paid conversion per month, and the top countries. */
export const SalesAnalyticsSchema = Type.Object({
  currency: CurrencyCode,
  months: Type.Array(
    Type.Object({
      month: Type.String({ pattern: '^\\d{4}-\\d{2}$' }),
      sales: Type.Integer({ minimum: 0 }),
      grossMinor: LargeMinorAmount,
      netMinor: LargeMinorAmount,
      trials: Type.Integer({ minimum: 0 }),
      /** Sales that followed a trial of the same buyer. */
      salesAfterTrial: Type.Integer({ minimum: 0 }),
    }),
  ),
  countries: Type.Array(
    Type.Object({
      countryCode: Type.String(),
      sales: Type.Integer({ minimum: 0 }),
      netMinor: LargeMinorAmount,
    }),
  ),
  /** Of the trials started in the range, the share (0-100, whole percent) that became a sale. */
  trialConversionPercent: Nullable(Percent),
});
export type SalesAnalyticsBody = Static<typeof SalesAnalyticsSchema>;
