import {
  COUPON_ALPHABET,
  COUPON_CODE_LENGTH,
  CURRENCIES,
  DEFAULT_CONTINUITY_DISCOUNTS,
  formatMoney,
  offersConflict,
  percentOf,
  priceQuote,
  type BillingPeriod,
  type CommunityProgram,
  type ContinuityStep,
  type Currency,
  type LicenseKind,
  type OfferDiscountKind,
  type PricingModel,
  type Quote,
  type VolumeTier,
} from '@marketplace/core';
import { DemoRandom } from './random';

/*
 * The demo's selling: approved sellers, price lists (with a past rise and a scheduled change for some items),
 * selling terms, volume and continuity discounts, programs, offers with coupons, trials (some converted into
 * paid orders with invoices) and two years of sales with a seasonal shape. Everything is computed from a few
 * facts of an item (id, name, vendor, age, downloads), so the demo loader and the commerce benchmark, which
 * reads those facts back from an existing catalogue, make the same data. Every amount goes through core's
 * priceQuote and percentOf, as a real order does.
 */

/** The commission the demo's sales were recorded with: the marketplace's default (COMMISSION_PERCENT). */
export const DEMO_COMMISSION_PERCENT = 15;
export const DEMO_CURRENCY_CODE = 'USD';
/** Days of sales history: two years, ending the day before the seed date. */
export const SALES_HISTORY_DAYS = 730;
/** The demo administrator decides sellers and marks invoices paid. */
const ADMIN_ID = 1;
/** The demo developer's vendor: it has not applied to sell (its items are free; applying is theirs to try). */
const DEVELOPER_VENDOR_ID = 1;
const INVOICE_DUE_DAYS = 14;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** DemoRandom purposes (the catalogue uses 1 to 3). */
const SETUP = 40;
const SALES = 41;
const SELLER = 42;
const VISITOR = 43;

// ---- Inputs ------------------------------------------------------------------------------------------------

/** What commerce is made from: facts the catalogue generator decided, and that its rows keep. */
export interface DemoCommerceInput {
  id: number;
  pricingModel: PricingModel;
  vendorId: number;
  /** The vendor's domain (`northwind.example`), for the EULA and support addresses. */
  vendorDomain: string;
  createdAt: Date;
  /** All-time downloads: how popular the item is, hence how much it sells. */
  downloads: number;
  /** Approved and not a draft: only such items have sold. */
  selling: boolean;
  /** Shown in the catalogue (published, approved, neither hidden nor blocked). */
  listed: boolean;
}

export interface DemoBuyer {
  id: number;
  name: string;
  email: string;
}

export interface DemoCommerceContext {
  seed: number;
  /** The start of the seed date (UTC): sales end the day before, scheduled things come after. */
  today: Date;
  /** Who tries and buys items: the generated users (not the demo accounts). */
  buyers: readonly DemoBuyer[];
  /**
   * How many items the catalogue has: buyers spread over more items in a larger marketplace, so an item of
   * a catalogue beyond 1,000 items sells less (a 50,000-item catalogue's items about a seventh).
   */
  catalogueSize: number;
}

// ---- Outputs -----------------------------------------------------------------------------------------------

export interface DemoPrice {
  licenseKind: LicenseKind;
  billingPeriod: BillingPeriod;
  amountMinor: number;
}

export interface DemoPriceList {
  effectiveAt: Date;
  createdAt: Date;
  prices: DemoPrice[];
}

export interface DemoSellingTerms {
  trialDays: number;
  monthlyEnabled: boolean;
  yearlyEnabled: boolean;
  personalEnabled: boolean;
  organizationEnabled: boolean;
  eulaUrl: string;
  supportEmail: string;
  licenseCheckDocumented: boolean;
  continuityCustomized: boolean;
  updatedAt: Date;
}

export interface DemoCoupon {
  code: string;
  uses: number;
  sentAt: Date | null;
  sentTo: string | null;
  createdAt: Date;
}

export interface DemoOffer {
  name: string;
  discountKind: OfferDiscountKind;
  discountValue: number;
  /** The start of the first day. */
  validFrom: Date;
  /** The start of the day after the last day (exclusive), as offers.ts stores it. */
  validUntil: Date;
  /** Empty: every kind. */
  licenseKinds: LicenseKind[];
  maxUsesPerCoupon: number | null;
  createdAt: Date;
  coupons: DemoCoupon[];
}

export interface DemoSale {
  soldAt: Date;
  licenseKind: LicenseKind;
  billingPeriod: BillingPeriod;
  quantity: number;
  countryCode: string;
  grossMinor: number;
  discountMinor: number;
  commissionMinor: number;
  netMinor: number;
  afterTrial: boolean;
}

export interface DemoOrder {
  pluginId: number;
  buyerId: number;
  licensee: string;
  licenseKind: LicenseKind;
  billingPeriod: BillingPeriod;
  quantity: number;
  countryCode: string;
  quote: Quote;
  status: 'AWAITING_PAYMENT' | 'PAID' | 'CANCELLED';
  createdAt: Date;
  paidAt: Date | null;
  invoice: {
    issuedAt: Date;
    dueAt: Date;
    status: 'OPEN' | 'PAID' | 'VOID';
    paidAt: Date | null;
    markedPaidBy: number | null;
  };
  /** The sale a paid order recorded. */
  sale: DemoSale | null;
}

export interface DemoTrial {
  userId: number;
  startedAt: Date;
  endsAt: Date;
  /** The order the trial turned into, if it did. */
  order: DemoOrder | null;
}

export interface DemoItemCommerce {
  pluginId: number;
  vendorId: number;
  listed: boolean;
  terms: DemoSellingTerms;
  /** Oldest first; lists after the seed date are scheduled changes. */
  priceLists: DemoPriceList[];
  volumeTiers: VolumeTier[];
  /** The rows of a customised continuity discount (empty when customised to none); unused when default. */
  continuitySteps: ContinuityStep[];
  programs: Array<{ program: CommunityProgram; percent: number }>;
  offers: DemoOffer[];
  trials: DemoTrial[];
  /** When the item started selling (its first price list), or null when it never sold. */
  salesFrom: Date | null;
  salesUntil: Date;
  /** How much more the item sells at the end of the history than at its start (0.2: 20% more). */
  growth: number;
  /** Sales without an order (the bulk of the history) the demo records: see {@link generateItemSales}. */
  expectedSales: number;
}

export interface DemoSeller {
  vendorId: number;
  status: 'PENDING' | 'APPROVED' | 'REJECTED';
  legalName: string;
  countryCode: string;
  address: string;
  taxId: string | null;
  billingEmail: string;
  payoutMethod: 'BANK_TRANSFER' | 'PAYPAL';
  payoutDetails: string;
  submittedAt: Date;
  decidedBy: number | null;
  decidedAt: Date | null;
  decisionNote: string | null;
}

export interface DemoProductDescriptor {
  code: string;
  /** yyyy-MM-dd. */
  releaseDate: string;
  releaseVersion: number;
  optional: boolean;
}

// ---- Small helpers -------------------------------------------------------------------------------------------

function startOfUtcDay(time: number): Date {
  return new Date(Math.floor(time / DAY_MS) * DAY_MS);
}

const COUNTRIES: ReadonlyArray<readonly [string, number]> = [
  ['US', 300],
  ['DE', 110],
  ['GB', 70],
  ['FR', 50],
  ['CN', 55],
  ['IN', 50],
  ['JP', 45],
  ['CZ', 22],
  ['NL', 30],
  ['CA', 38],
  ['PL', 22],
  ['ES', 20],
  ['IT', 20],
  ['SE', 16],
  ['CH', 16],
  ['BR', 18],
  ['AU', 18],
  ['KR', 16],
  ['AT', 10],
  ['BE', 9],
  ['DK', 8],
  ['FI', 8],
  ['NO', 7],
  ['IL', 8],
  ['SG', 7],
  ['UA', 9],
  ['TR', 6],
  ['MX', 6],
  ['PT', 6],
  ['IE', 5],
];

/** Personal yearly prices vendors choose, cheap ones more often. */
const PERSONAL_YEARLY: ReadonlyArray<readonly [number, number]> = [
  [2900, 10],
  [3900, 12],
  [4900, 16],
  [5900, 10],
  [6900, 9],
  [7900, 8],
  [8900, 5],
  [9900, 9],
  [11900, 5],
  [12900, 4],
  [14900, 4],
  [16900, 2],
  [17900, 2],
  [19900, 4],
];
const PRICE_STEPS = PERSONAL_YEARLY.map(([price]) => price);

/** A monthly price: a tenth of the yearly one, ending in .90 or .00. */
function monthlyOf(yearlyMinor: number): number {
  const tenth = Math.round(yearlyMinor / 10);
  return tenth % 100 === 0 || tenth % 100 === 90 ? tenth : Math.round(tenth / 100) * 100 - 10;
}

/** An organization price: about twice the personal one, ending in 9.00. */
function organizationOf(personalMinor: number): number {
  return Math.round((2 * personalMinor) / 1000) * 1000 - 100;
}

function priceListOf(personalYearly: number, monthly: boolean): DemoPrice[] {
  const organizationYearly = organizationOf(personalYearly);
  const prices: DemoPrice[] = [
    { licenseKind: 'PERSONAL', billingPeriod: 'YEARLY', amountMinor: personalYearly },
    { licenseKind: 'ORGANIZATION', billingPeriod: 'YEARLY', amountMinor: organizationYearly },
  ];
  if (monthly) {
    prices.push(
      { licenseKind: 'PERSONAL', billingPeriod: 'MONTHLY', amountMinor: monthlyOf(personalYearly) },
      { licenseKind: 'ORGANIZATION', billingPeriod: 'MONTHLY', amountMinor: monthlyOf(organizationYearly) },
    );
  }
  return prices;
}

function nextPriceStep(price: number, steps: number): number {
  const index = PRICE_STEPS.indexOf(price);
  return PRICE_STEPS[Math.min(PRICE_STEPS.length - 1, index + steps)] as number;
}

function couponCode(random: DemoRandom): string {
  let code = '';
  for (let index = 0; index < COUPON_CODE_LENGTH; index++) {
    code += COUPON_ALPHABET[random.int(0, COUPON_ALPHABET.length - 1)];
  }
  return code;
}

/**
 * The product code an item declares: 'P', the first word of its name and the initials of the others (digits
 * kept), 4 to 15 capitals and digits as core's isProductCode wants: "Thread Dump Analyzer 2" is PTHREADDA2.
 */
export function demoProductCode(name: string): string {
  const words = name
    .toUpperCase()
    .replaceAll('#', 'SHARP')
    .replaceAll('+', 'P')
    .split(/[^A-Z0-9]+/)
    .filter((word) => word !== '');
  let code = 'P';
  words.forEach((word, index) => {
    code += /^\d+$/.test(word) ? word : index === 0 ? word.slice(0, 8) : word[0];
  });
  return code.slice(0, 15).padEnd(4, 'X');
}

/**
 * The `<product-descriptor>` of each version of a paid or freemium item: releases by third of a year (20241,
 * 20242, 20243), each dated by the first version released in it; freemium items' descriptors are optional.
 */
export function demoProductDescriptors(
  name: string,
  pricingModel: PricingModel,
  versions: ReadonlyArray<{ id: number; createdAt: Date }>,
): Map<number, DemoProductDescriptor> {
  const descriptors = new Map<number, DemoProductDescriptor>();
  if (pricingModel === 'FREE') return descriptors;
  const code = demoProductCode(name);
  const releaseOf = (moment: Date) =>
    moment.getUTCFullYear() * 10 + Math.min(3, Math.floor(moment.getUTCMonth() / 4) + 1);
  const firstOfRelease = new Map<number, Date>();
  for (const version of versions) {
    const release = releaseOf(version.createdAt);
    const first = firstOfRelease.get(release);
    if (!first || version.createdAt < first) firstOfRelease.set(release, version.createdAt);
  }
  for (const version of versions) {
    const release = releaseOf(version.createdAt);
    descriptors.set(version.id, {
      code,
      releaseDate: (firstOfRelease.get(release) as Date).toISOString().slice(0, 10),
      releaseVersion: release,
      optional: pricingModel === 'FREEMIUM',
    });
  }
  return descriptors;
}

// ---- Seasons -------------------------------------------------------------------------------------------------

/** Sales by month: busy in January, March and November, a summer dip, a quiet December. */
const MONTH_FACTORS = [1.3, 1.0, 1.25, 1.0, 0.95, 0.85, 0.7, 0.65, 1.0, 1.05, 1.35, 0.8];
/** Sunday to Saturday. */
const WEEKDAY_FACTORS = [0.5, 1.1, 1.15, 1.15, 1.1, 0.95, 0.55];

/** How much an item sells on a day, relative to its average: season, week, holidays and growth. */
function dayWeight(dayNumber: number, progress: number, growth: number): number {
  const day = new Date(dayNumber * DAY_MS);
  const month = day.getUTCMonth();
  const date = day.getUTCDate();
  const holidays = (month === 11 && date >= 22) || (month === 0 && date <= 2) ? 0.45 : 1;
  return (
    (MONTH_FACTORS[month] as number) *
    (WEEKDAY_FACTORS[day.getUTCDay()] as number) *
    holidays *
    (1 + growth * (progress - 1))
  );
}

/** Picks days of [firstDay, firstDay + weights.length) in proportion to their weights. */
class DaySampler {
  private readonly cumulative: Float64Array;
  constructor(
    readonly firstDay: number,
    days: number,
    growth: number,
  ) {
    this.cumulative = new Float64Array(Math.max(1, days));
    let total = 0;
    for (let index = 0; index < this.cumulative.length; index++) {
      total += dayWeight(firstDay + index, (index + 1) / this.cumulative.length, growth);
      this.cumulative[index] = total;
    }
  }

  /** The start of a sampled day, in epoch milliseconds. */
  sample(random: DemoRandom): number {
    const total = this.cumulative[this.cumulative.length - 1] as number;
    const point = random.next() * total;
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.cumulative[middle] as number) > point) high = middle;
      else low = middle + 1;
    }
    return (this.firstDay + low) * DAY_MS;
  }
}

/** A moment of a day: mostly office hours of Europe and the Americas (UTC), some at any hour. */
function timeOfDay(random: DemoRandom): number {
  const seconds = random.chance(0.7)
    ? Math.round(random.normal(14 * 3600, 3.5 * 3600))
    : random.int(0, 86_399);
  return Math.min(86_399, Math.max(0, seconds)) * 1000;
}

// ---- Quotes --------------------------------------------------------------------------------------------------

function priceListAt(lists: readonly DemoPriceList[], at: Date): DemoPriceList | undefined {
  let current: DemoPriceList | undefined;
  for (const list of lists) if (list.effectiveAt <= at) current = list;
  return current;
}

interface SaleChoice {
  licenseKind: LicenseKind;
  billingPeriod: BillingPeriod;
  quantity: number;
  subscriptionYear: number;
  program?: { program: CommunityProgram; percent: number };
  coupon?: { kind: OfferDiscountKind; value: number; code: string };
}

/**
 * The quote of an order at a moment, with the item's prices and discounts then; undefined if it was not sold
 * then. `describe` writes the lines' amounts (orders keep them; sales need only the numbers).
 */
function quoteAt(
  commerce: DemoItemCommerce,
  at: Date,
  choice: SaleChoice,
  describe: (minor: number) => string = describeUsd,
): Quote | undefined {
  const price = priceListAt(commerce.priceLists, at)?.prices.find(
    (candidate) =>
      candidate.licenseKind === choice.licenseKind && candidate.billingPeriod === choice.billingPeriod,
  );
  if (!price) return undefined;
  return priceQuote(
    {
      unitPriceMinor: price.amountMinor,
      quantity: choice.quantity,
      volumeTiers: commerce.volumeTiers,
      continuitySteps: commerce.terms.continuityCustomized
        ? commerce.continuitySteps
        : DEFAULT_CONTINUITY_DISCOUNTS,
      subscriptionYear: choice.subscriptionYear,
      program: choice.program,
      coupon: choice.coupon,
    },
    describe,
  );
}

const USD = CURRENCIES[DEMO_CURRENCY_CODE] as Currency;
const describeUsd = (minor: number) => formatMoney(minor, USD);
const describeNothing = () => '';

function saleOf(quote: Quote, at: Date, choice: SaleChoice, country: string, afterTrial: boolean): DemoSale {
  const commission = percentOf(quote.totalMinor, DEMO_COMMISSION_PERCENT);
  return {
    soldAt: at,
    licenseKind: choice.licenseKind,
    billingPeriod: choice.billingPeriod,
    quantity: choice.quantity,
    countryCode: country,
    grossMinor: quote.subtotalMinor,
    discountMinor: quote.discountMinor,
    commissionMinor: commission,
    netMinor: quote.totalMinor - commission,
    afterTrial,
  };
}

const ORGANIZATION_SEATS: ReadonlyArray<readonly [number, number]> = [
  [1, 30],
  [2, 20],
  [3, 14],
  [5, 14],
  [10, 10],
  [15, 4],
  [25, 4],
  [50, 3],
  [100, 1],
];

function chooseSale(
  random: DemoRandom,
  commerce: DemoItemCommerce,
  at: Date,
  kinds: readonly LicenseKind[],
): SaleChoice {
  const { terms } = commerce;
  const licenseKind =
    kinds.length === 1
      ? (kinds[0] as LicenseKind)
      : random.weighted<LicenseKind>([
          ['PERSONAL', 58],
          ['ORGANIZATION', 42],
        ]);
  const billingPeriod: BillingPeriod = !terms.monthlyEnabled
    ? 'YEARLY'
    : random.weighted<BillingPeriod>([
        ['YEARLY', 68],
        ['MONTHLY', 32],
      ]);
  const quantity = licenseKind === 'PERSONAL' ? 1 : random.weighted(ORGANIZATION_SEATS);
  // Renewals of subscriptions that began in the history: more of them as the history goes on.
  const selling = at.getTime() - (commerce.salesFrom as Date).getTime();
  const second = 0.35 * Math.min(1, Math.max(0, selling / (365 * DAY_MS)));
  const third = 0.15 * Math.min(1, Math.max(0, selling / (365 * DAY_MS) - 1));
  const draw = random.next();
  const subscriptionYear = draw < third ? 3 : draw < third + second ? 2 : 1;
  return { licenseKind, billingPeriod, quantity, subscriptionYear };
}

// ---- One item ------------------------------------------------------------------------------------------------

const VOLUME_TEMPLATES: ReadonlyArray<readonly VolumeTier[]> = [
  [
    { minQuantity: 5, percent: 5 },
    { minQuantity: 10, percent: 10 },
    { minQuantity: 25, percent: 15 },
  ],
  [
    { minQuantity: 10, percent: 10 },
    { minQuantity: 50, percent: 20 },
  ],
  [
    { minQuantity: 3, percent: 5 },
    { minQuantity: 10, percent: 10 },
    { minQuantity: 20, percent: 15 },
    { minQuantity: 50, percent: 25 },
  ],
  [
    { minQuantity: 5, percent: 10 },
    { minQuantity: 20, percent: 20 },
  ],
];

const CONTINUITY_TEMPLATES: ReadonlyArray<readonly ContinuityStep[]> = [
  [
    { year: 2, percent: 15 },
    { year: 3, percent: 30 },
  ],
  [
    { year: 2, percent: 25 },
    { year: 3, percent: 50 },
  ],
  [{ year: 2, percent: 10 }],
  [],
];

interface OfferCandidate {
  name: string;
  firstDay: number;
  lastDay: number;
  licenseKinds: LicenseKind[];
  discountKind: OfferDiscountKind;
  discountValue: number;
}

/** Campaigns of the calendar around the history, each one an offer of some items. */
function offerCandidates(
  random: DemoRandom,
  today: Date,
  personalYearly: number,
  firstSellingDay: number,
): OfferCandidate[] {
  const todayNumber = today.getTime() / DAY_MS;
  const year = today.getUTCFullYear();
  const day = (y: number, month: number, date: number) => Date.UTC(y, month, date) / DAY_MS;
  const amountOff = [500, 1000, 1500, 2000].filter((amount) => amount <= personalYearly * 0.4);
  const percent = (choices: readonly number[]) => random.pick(choices);
  const candidates: OfferCandidate[] = [];
  for (const campaignYear of [year - 2, year - 1, year]) {
    if (random.chance(0.6)) {
      candidates.push({
        name: `Black Friday ${campaignYear}`,
        firstDay: day(campaignYear, 10, 24),
        lastDay: day(campaignYear, 11, 1),
        licenseKinds: random.chance(0.7) ? [] : ['PERSONAL'],
        discountKind: 'PERCENT',
        discountValue: percent([25, 30, 40, 50]),
      });
    }
    if (random.chance(0.3)) {
      candidates.push({
        name: `Spring sale ${campaignYear}`,
        firstDay: day(campaignYear, 2, 10),
        lastDay: day(campaignYear, 2, 24),
        licenseKinds: [],
        discountKind: 'PERCENT',
        discountValue: percent([15, 20, 25]),
      });
    }
    if (random.chance(0.25)) {
      candidates.push({
        name: `Back to school ${campaignYear}`,
        firstDay: day(campaignYear, 8, 1),
        lastDay: day(campaignYear, 8, 14),
        licenseKinds: ['PERSONAL'],
        discountKind: 'PERCENT',
        discountValue: percent([30, 40, 50]),
      });
    }
    if (amountOff.length > 0 && random.chance(0.2)) {
      candidates.push({
        name: `Summer deal ${campaignYear}`,
        firstDay: day(campaignYear, 6, 1),
        lastDay: day(campaignYear, 6, 21),
        licenseKinds: [],
        discountKind: 'AMOUNT',
        discountValue: random.pick(amountOff),
      });
    }
  }
  if (random.chance(0.5)) {
    // The team deal running now: organizations only, so it may overlap a campaign for personal licences.
    candidates.push({
      name: 'Team upgrade',
      firstDay: todayNumber - random.int(3, 20),
      lastDay: todayNumber + random.int(10, 40),
      licenseKinds: ['ORGANIZATION'],
      discountKind: 'PERCENT',
      discountValue: percent([10, 15, 20]),
    });
  }
  if (random.chance(0.3)) {
    const amount = amountOff.length > 0 && random.chance(0.5);
    candidates.push({
      name: 'Launch offer',
      firstDay: firstSellingDay,
      lastDay: firstSellingDay + 29,
      licenseKinds: [],
      discountKind: amount ? 'AMOUNT' : 'PERCENT',
      discountValue: amount ? random.pick(amountOff) : 20,
    });
  }
  if (random.chance(0.25)) {
    const start = todayNumber + random.int(25, 45);
    candidates.push({
      name: 'New year offer',
      firstDay: start,
      lastDay: start + random.int(7, 14),
      licenseKinds: [],
      discountKind: 'PERCENT',
      discountValue: percent([15, 20, 25]),
    });
  }
  return candidates.filter(
    (candidate) => candidate.lastDay >= firstSellingDay && candidate.firstDay <= todayNumber + 60,
  );
}

/**
 * An item's selling set-up and its history except the bulk of its sales (see {@link generateItemSales}).
 * Only PAID and FREEMIUM items sell; undefined for free ones.
 */
export function generateItemCommerce(
  input: DemoCommerceInput,
  context: DemoCommerceContext,
): DemoItemCommerce | undefined {
  if (input.pricingModel === 'FREE') return undefined;
  const random = new DemoRandom(context.seed, SETUP, input.id);
  const today = context.today.getTime();
  const created = input.createdAt.getTime();

  // Prices: a list about two years ago (or soon after the item appeared), maybe a rise a year ago, maybe a
  // change announced for the coming weeks.
  const firstEffective = startOfUtcDay(
    Math.min(
      today - DAY_MS,
      Math.max(
        today - (SALES_HISTORY_DAYS + random.int(0, 30)) * DAY_MS,
        created + random.int(1, 10) * DAY_MS,
      ),
    ),
  );
  const monthly = !random.chance(0.08);
  let personalYearly = random.weighted(PERSONAL_YEARLY);
  const priceLists: DemoPriceList[] = [
    {
      effectiveAt: firstEffective,
      createdAt: new Date(firstEffective.getTime() - random.int(0, 5) * DAY_MS - random.int(1, 20) * HOUR_MS),
      prices: priceListOf(personalYearly, monthly),
    },
  ];
  const riseAt = startOfUtcDay(today - (365 + random.int(-20, 20)) * DAY_MS);
  if (riseAt.getTime() - firstEffective.getTime() > 120 * DAY_MS && random.chance(0.35)) {
    personalYearly = nextPriceStep(personalYearly, random.int(1, 2));
    priceLists.push({
      effectiveAt: riseAt,
      createdAt: new Date(riseAt.getTime() - random.int(14, 30) * DAY_MS),
      prices: priceListOf(personalYearly, monthly),
    });
  }
  if (random.chance(0.12)) {
    const changeAt = startOfUtcDay(today + random.int(14, 35) * DAY_MS);
    priceLists.push({
      effectiveAt: changeAt,
      createdAt: new Date(today - random.int(1, 10) * DAY_MS + random.int(8, 18) * HOUR_MS),
      prices: priceListOf(nextPriceStep(personalYearly, 1), monthly),
    });
  }

  const continuityCustomized = random.chance(0.15);
  const continuitySteps = continuityCustomized ? [...random.pick(CONTINUITY_TEMPLATES)] : [];
  const volumeTiers = random.chance(0.35) ? [...random.pick(VOLUME_TEMPLATES)] : [];
  const programs: DemoItemCommerce['programs'] = [];
  if (random.chance(0.3)) {
    programs.push({ program: 'STUDENTS', percent: 100 });
    if (random.chance(0.7)) programs.push({ program: 'OPEN_SOURCE', percent: 100 });
  }
  if (random.chance(0.12)) programs.push({ program: 'STARTUPS', percent: 50 });

  const terms: DemoSellingTerms = {
    trialDays: random.chance(0.82) ? 30 : 14,
    monthlyEnabled: monthly,
    yearlyEnabled: true,
    personalEnabled: true,
    organizationEnabled: true,
    eulaUrl: `https://${input.vendorDomain}/eula`,
    supportEmail: `support@${input.vendorDomain}`,
    licenseCheckDocumented: input.selling || random.chance(0.5),
    continuityCustomized,
    updatedAt: priceLists[0]!.createdAt,
  };

  // How much it sells: popularity (downloads a day) with diminishing returns; freemium converts less.
  const salesFrom = input.selling ? firstEffective : null;
  const sellingDays = salesFrom ? Math.max(1, (today - salesFrom.getTime()) / DAY_MS) : 0;
  const dailyDownloads = input.downloads / Math.max(30, (today - created) / DAY_MS);
  const dailySales =
    Math.min(40, 0.6 + 0.8 * dailyDownloads ** 0.6) *
    (input.pricingModel === 'FREEMIUM' ? 0.6 : 1) *
    Math.min(1, Math.sqrt(1000 / Math.max(1, context.catalogueSize)));
  const growth = 0.15 + random.next() * 0.45;
  const totalSales = salesFrom ? random.poisson(dailySales * sellingDays) : 0;

  const commerce: DemoItemCommerce = {
    pluginId: input.id,
    vendorId: input.vendorId,
    listed: input.listed,
    terms,
    priceLists,
    volumeTiers,
    continuitySteps,
    programs,
    offers: [],
    trials: [],
    salesFrom,
    salesUntil: context.today,
    growth,
    expectedSales: 0,
  };

  // Offers: campaigns that do not conflict (core's rule), their coupons sent and used.
  const firstSellingDay = firstEffective.getTime() / DAY_MS;
  const todayNumber = today / DAY_MS;
  let couponSales = 0;
  for (const candidate of offerCandidates(random, context.today, personalYearly, firstSellingDay)) {
    const validFrom = new Date(candidate.firstDay * DAY_MS);
    const validUntil = new Date((candidate.lastDay + 1) * DAY_MS);
    const window = { validFrom, validUntil, licenseKinds: candidate.licenseKinds };
    if (commerce.offers.some((offer) => offersConflict(window, offer))) continue;
    const createdAt = new Date(
      Math.min(today - random.int(1, 3) * DAY_MS, validFrom.getTime() - random.int(2, 20) * DAY_MS) +
        random.int(8, 18) * HOUR_MS,
    );
    const maxUsesPerCoupon = random.weighted<number | null>([
      [1, 70],
      [null, 20],
      [5, 10],
    ]);
    const couponCount = maxUsesPerCoupon === null ? random.int(1, 3) : random.int(5, 30);
    // Coupon sales: a share of what the item sells while the offer runs (and it has sold).
    const soldFrom = Math.max(candidate.firstDay, salesFrom ? firstSellingDay : Infinity);
    const soldDays = Math.max(0, Math.min(candidate.lastDay + 1, todayNumber) - soldFrom);
    const wanted = soldDays > 0 ? random.poisson(dailySales * soldDays * 0.5) : 0;
    const coupons: DemoCoupon[] = [];
    for (let index = 0; index < couponCount; index++) {
      const sent =
        random.chance(maxUsesPerCoupon === null ? 0.3 : 0.75) && createdAt.getTime() + HOUR_MS < today;
      const sentAt = sent
        ? new Date(Math.min(today - HOUR_MS, createdAt.getTime() + random.int(1, 72) * HOUR_MS))
        : null;
      const buyer = sent ? random.pick(context.buyers) : undefined;
      coupons.push({
        code: couponCode(random),
        uses: 0,
        sentAt,
        sentTo: buyer ? buyer.email : null,
        createdAt,
      });
    }
    // Uses go to sent coupons (campaign codes are shared publicly, so any of them), within their limit.
    let left = wanted;
    const usable = coupons.filter((coupon) => maxUsesPerCoupon === null || coupon.sentAt !== null);
    for (const coupon of random.sample(usable, usable.length)) {
      if (left === 0) break;
      const uses = maxUsesPerCoupon === null ? left : Math.min(left, random.int(1, maxUsesPerCoupon));
      coupon.uses = uses;
      left -= uses;
    }
    couponSales += wanted - left;
    commerce.offers.push({
      name: candidate.name,
      discountKind: candidate.discountKind,
      discountValue: candidate.discountValue,
      validFrom,
      validUntil,
      licenseKinds: candidate.licenseKinds,
      maxUsesPerCoupon,
      createdAt,
      coupons,
    });
  }
  commerce.offers.sort((a, b) => a.validFrom.getTime() - b.validFrom.getTime());

  // Trials: one per buyer; some turn into a paid order (the trial-to-paid conversion of the sales tab).
  let orderSales = 0;
  if (salesFrom && terms.trialDays > 0 && context.buyers.length > 0) {
    const cap = Math.min(300, Math.floor(context.buyers.length * 0.6));
    const count = Math.min(cap, random.poisson(totalSales * 0.45));
    const sampler = new DaySampler(firstSellingDay, Math.max(1, todayNumber - firstSellingDay), growth);
    const buyers = random
      .distinctIndexes(context.buyers.length, count)
      .map((index) => context.buyers[index]!);
    for (const buyer of buyers) {
      const startedAt = new Date(sampler.sample(random) + timeOfDay(random));
      const trial: DemoTrial = {
        userId: buyer.id,
        startedAt,
        endsAt: new Date(startedAt.getTime() + terms.trialDays * DAY_MS),
        order: null,
      };
      const orderedAt = new Date(
        startedAt.getTime() + random.int(1, terms.trialDays + 7) * DAY_MS + random.int(-6, 6) * HOUR_MS,
      );
      if (random.chance(0.2) && orderedAt.getTime() < today - HOUR_MS) {
        const order = trialOrder(random, commerce, buyer, orderedAt, today);
        if (order) {
          trial.order = order;
          if (order.sale) orderSales++;
        }
      }
      commerce.trials.push(trial);
    }
    commerce.trials.sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime() || a.userId - b.userId);
  }
  commerce.expectedSales = Math.max(couponSales, totalSales - orderSales);
  return commerce;
}

/** The order a trial turned into: paid (with its sale) unless it was placed in the last days. */
function trialOrder(
  random: DemoRandom,
  commerce: DemoItemCommerce,
  buyer: DemoBuyer,
  createdAt: Date,
  today: number,
): DemoOrder | undefined {
  const choice = chooseSale(random, commerce, createdAt, ['PERSONAL', 'ORGANIZATION']);
  choice.subscriptionYear = 1;
  const quote = quoteAt(commerce, createdAt, choice);
  if (!quote) return undefined;
  const countryCode = random.weighted(COUNTRIES);
  const paidAt = new Date(createdAt.getTime() + random.int(2, 96) * HOUR_MS);
  const paid = paidAt.getTime() < today;
  return {
    pluginId: commerce.pluginId,
    buyerId: buyer.id,
    licensee: choice.licenseKind === 'PERSONAL' ? buyer.name : `${buyer.name.split(' ').at(-1)} & Co.`,
    licenseKind: choice.licenseKind,
    billingPeriod: choice.billingPeriod,
    quantity: choice.quantity,
    countryCode,
    quote,
    status: paid ? 'PAID' : 'AWAITING_PAYMENT',
    createdAt,
    paidAt: paid ? paidAt : null,
    invoice: {
      issuedAt: createdAt,
      dueAt: new Date(createdAt.getTime() + INVOICE_DUE_DAYS * DAY_MS),
      status: paid ? 'PAID' : 'OPEN',
      paidAt: paid ? paidAt : null,
      markedPaidBy: paid ? ADMIN_ID : null,
    },
    sale: paid ? saleOf(quote, paidAt, choice, countryCode, true) : null,
  };
}

/**
 * The item's sales without an order, `count` of them (the demo asks for `expectedSales`; the benchmark for
 * more), oldest first: the coupons' uses in their offers' windows, then the rest spread over the history by
 * season, weekday and growth. Each is quoted as an order would be at its moment.
 */
export function* generateItemSales(
  commerce: DemoItemCommerce,
  count: number,
  seed: number,
): Generator<DemoSale> {
  if (!commerce.salesFrom || count <= 0) return;
  const random = new DemoRandom(seed, SALES, commerce.pluginId);
  const firstDay = commerce.salesFrom.getTime() / DAY_MS;
  const untilDay = commerce.salesUntil.getTime() / DAY_MS;
  const sampler = new DaySampler(firstDay, Math.max(1, untilDay - firstDay), commerce.growth);
  const allKinds: LicenseKind[] = ['PERSONAL', 'ORGANIZATION'];
  const afterTrialShare = commerce.terms.trialDays > 0 ? 0.22 : 0;
  const sales: DemoSale[] = [];
  const add = (at: Date, choice: SaleChoice) => {
    const quote = quoteAt(commerce, at, choice, describeNothing);
    if (!quote) return;
    sales.push(saleOf(quote, at, choice, random.weighted(COUNTRIES), random.chance(afterTrialShare)));
  };

  for (const offer of commerce.offers) {
    const from = Math.max(offer.validFrom.getTime(), commerce.salesFrom.getTime());
    const until = Math.min(offer.validUntil.getTime(), commerce.salesUntil.getTime());
    for (const coupon of offer.coupons) {
      for (let use = 0; use < coupon.uses && sales.length < count; use++) {
        const sent = coupon.sentAt ? Math.max(from, coupon.sentAt.getTime()) : from;
        const start = sent < until ? sent : from;
        const at = new Date(Math.floor(start + random.next() * (until - start)));
        const choice = chooseSale(
          random,
          commerce,
          at,
          offer.licenseKinds.length > 0 ? offer.licenseKinds : allKinds,
        );
        choice.coupon = { kind: offer.discountKind, value: offer.discountValue, code: coupon.code };
        add(at, choice);
      }
    }
  }
  const regular = count - sales.length;
  for (let index = 0; index < regular; index++) {
    const at = new Date(sampler.sample(random) + timeOfDay(random));
    const choice = chooseSale(random, commerce, at, allKinds);
    if (commerce.programs.length > 0 && random.chance(0.015)) choice.program = random.pick(commerce.programs);
    add(at, choice);
  }
  sales.sort((a, b) => a.soldAt.getTime() - b.soldAt.getTime());
  yield* sales;
}

// ---- Sellers and the visitor ---------------------------------------------------------------------------------

interface SellerCountry {
  suffix: string;
  cities: ReadonlyArray<readonly [city: string, postcode: () => string]>;
  streets: readonly string[];
  /** IBAN length, or undefined where payouts go to a local account. */
  iban?: number;
  tax: () => string | null;
  address: (number: number, street: string, city: string, postcode: string) => string;
}

const european = (number: number, street: string, city: string, postcode: string) =>
  `${street} ${number}, ${postcode} ${city}`;

function sellerCountries(random: DemoRandom): Record<string, SellerCountry> {
  const digits = (count: number) => Array.from({ length: count }, () => random.int(0, 9)).join('');
  const code = (count: number) => () => digits(count);
  return {
    US: {
      suffix: 'Inc.',
      cities: [
        ['San Francisco, CA', () => `941${digits(2)}`],
        ['Austin, TX', () => `787${digits(2)}`],
        ['Seattle, WA', () => `981${digits(2)}`],
        ['Boston, MA', () => `021${digits(2)}`],
      ],
      streets: ['Market Street', 'Congress Avenue', 'Pine Street', 'Summer Street'],
      tax: () => `${digits(2)}-${digits(7)}`,
      address: (number, street, city, postcode) => `${number} ${street}, ${city} ${postcode}`,
    },
    DE: {
      suffix: 'GmbH',
      cities: [
        ['Berlin', code(5)],
        ['München', code(5)],
        ['Hamburg', code(5)],
      ],
      streets: ['Friedrichstraße', 'Leopoldstraße', 'Lange Reihe', 'Torstraße'],
      iban: 22,
      tax: () => `DE${digits(9)}`,
      address: european,
    },
    GB: {
      suffix: 'Ltd',
      cities: [
        ['London', () => `EC${random.int(1, 4)}A ${random.int(1, 9)}BB`],
        ['Manchester', () => `M${random.int(1, 9)} ${random.int(1, 9)}AB`],
        ['Cambridge', () => `CB${random.int(1, 5)} ${random.int(1, 9)}QA`],
      ],
      streets: ['Old Street', 'Deansgate', 'Hills Road', 'Shoreditch High Street'],
      iban: 22,
      tax: () => `GB${digits(9)}`,
      address: (number, street, city, postcode) => `${number} ${street}, ${city} ${postcode}`,
    },
    CZ: {
      suffix: 's.r.o.',
      cities: [
        ['Praha', () => `1${digits(2)} 00`],
        ['Brno', () => `6${digits(2)} 00`],
      ],
      streets: ['Na Příkopě', 'Vinohradská', 'Kounicova', 'Karlínské náměstí'],
      iban: 24,
      tax: () => `CZ${digits(8)}`,
      address: european,
    },
    NL: {
      suffix: 'B.V.',
      cities: [
        ['Amsterdam', () => `10${digits(2)} AB`],
        ['Utrecht', () => `35${digits(2)} CD`],
      ],
      streets: ['Keizersgracht', 'Oudegracht', 'Herengracht'],
      iban: 18,
      tax: () => `NL${digits(9)}B01`,
      address: european,
    },
    FR: {
      suffix: 'SAS',
      cities: [
        ['Paris', () => `750${digits(2)}`],
        ['Lyon', () => `6900${random.int(1, 9)}`],
      ],
      streets: ['rue de Rivoli', 'rue de la République', 'boulevard Haussmann'],
      iban: 27,
      tax: () => `FR${digits(11)}`,
      address: (number, street, city, postcode) => `${number} ${street}, ${postcode} ${city}`,
    },
    PL: {
      suffix: 'sp. z o.o.',
      cities: [
        ['Warszawa', () => `0${random.int(0, 4)}-${digits(3)}`],
        ['Kraków', () => `3${random.int(0, 1)}-${digits(3)}`],
      ],
      streets: ['ul. Marszałkowska', 'ul. Floriańska', 'ul. Prosta'],
      iban: 28,
      tax: () => `PL${digits(10)}`,
      address: european,
    },
    CA: {
      suffix: 'Inc.',
      cities: [
        ['Toronto, ON', () => `M5V ${random.int(1, 9)}A${random.int(1, 9)}`],
        ['Vancouver, BC', () => `V6B ${random.int(1, 9)}C${random.int(1, 9)}`],
      ],
      streets: ['King Street West', 'Granville Street'],
      tax: () => null,
      address: (number, street, city, postcode) => `${number} ${street}, ${city} ${postcode}`,
    },
    SE: {
      suffix: 'AB',
      cities: [['Stockholm', () => `11${digits(1)} ${digits(2)}`]],
      streets: ['Drottninggatan', 'Götgatan'],
      iban: 24,
      tax: () => `SE${digits(12)}`,
      address: european,
    },
    CH: {
      suffix: 'AG',
      cities: [
        ['Zürich', () => `80${digits(2)}`],
        ['Basel', () => `40${digits(2)}`],
      ],
      streets: ['Bahnhofstrasse', 'Freie Strasse'],
      iban: 21,
      tax: () => `CHE-${digits(3)}.${digits(3)}.${digits(3)} MWST`,
      address: european,
    },
    JP: {
      suffix: 'K.K.',
      cities: [['Tokyo', () => `1${digits(2)}-${digits(4)}`]],
      streets: ['Shibuya 2-chome', 'Ginza 4-chome'],
      tax: () => null,
      address: (number, street, city, postcode) => `${street} ${number}, ${city} ${postcode}`,
    },
    IN: {
      suffix: 'Pvt. Ltd.',
      cities: [
        ['Bengaluru', () => `560 0${digits(2)}`],
        ['Pune', () => `411 0${digits(2)}`],
      ],
      streets: ['MG Road', 'FC Road', 'Residency Road'],
      tax: () => `${digits(2)}AAACB${digits(4)}C1Z${digits(1)}`,
      address: (number, street, city, postcode) => `${number} ${street}, ${city} ${postcode}`,
    },
  };
}

const SELLER_COUNTRY_WEIGHTS: ReadonlyArray<readonly [string, number]> = [
  ['US', 30],
  ['DE', 14],
  ['GB', 9],
  ['CZ', 6],
  ['NL', 6],
  ['FR', 6],
  ['PL', 5],
  ['CA', 5],
  ['SE', 3],
  ['CH', 3],
  ['JP', 3],
  ['IN', 4],
];

const LEGAL_SUFFIXES: ReadonlyArray<readonly [suffix: string, countries: readonly string[]]> = [
  ['GmbH', ['DE', 'CH']],
  ['Inc.', ['US', 'CA']],
];

/** An IBAN with correct check digits (ISO 13616, mod 97), grouped by four as people write it. */
function iban(country: string, length: number, random: DemoRandom): string {
  const account = Array.from({ length: length - 4 }, () => random.int(0, 9)).join('');
  const numeric = `${account}${country}00`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of numeric) remainder = (remainder * 10 + Number(digit)) % 97;
  const check = String(98 - remainder).padStart(2, '0');
  return `${country}${check}${account}`.replace(/(.{4})/g, '$1 ').trim();
}

export interface DemoSellerVendor {
  id: number;
  name: string;
  domain: string;
}

/**
 * A vendor's application to sell: approved by the administrator for vendors with paid items (`firstSale` is
 * when their first item started selling), otherwise now and then pending or rejected (undefined: none).
 */
export function generateSeller(
  seed: number,
  vendor: DemoSellerVendor,
  firstSale: Date | undefined,
  today: Date,
): DemoSeller | undefined {
  if (vendor.id === DEVELOPER_VENDOR_ID) return undefined;
  const random = new DemoRandom(seed, SELLER, vendor.id);
  const draw = random.next();
  let status: DemoSeller['status'] = 'APPROVED';
  if (!firstSale) {
    if (draw >= 0.1) return undefined;
    status = draw < 0.07 ? 'PENDING' : 'REJECTED';
  }
  const legal = LEGAL_SUFFIXES.find(([suffix]) => vendor.name.endsWith(` ${suffix}`));
  const countryCode = legal ? random.pick(legal[1]) : random.weighted(SELLER_COUNTRY_WEIGHTS);
  const country = sellerCountries(random)[countryCode] as SellerCountry;
  const [city, postcode] = random.pick(country.cities);
  const address = country.address(random.int(1, 180), random.pick(country.streets), city, postcode());
  const paypal = random.chance(0.2);
  let payoutDetails = `payouts@${vendor.domain}`;
  if (!paypal) {
    const holder = legal ? vendor.name : `${vendor.name} ${country.suffix}`;
    const digits = (count: number) => Array.from({ length: count }, () => random.int(0, 9)).join('');
    payoutDetails = country.iban
      ? `${iban(countryCode, country.iban, random)} (${holder})`
      : countryCode === 'US'
        ? `ACH routing ${random.pick(['021000021', '121000358', '026009593'])}, account ${digits(10)} (${holder})`
        : countryCode === 'CA'
          ? `Transit ${digits(5)}, institution 00${random.int(1, 6)}, account ${digits(7)} (${holder})`
          : countryCode === 'JP'
            ? `Bank 0005, branch ${digits(3)}, ordinary account ${digits(7)} (${holder})`
            : `IFSC HDFC000${digits(4)}, account 50100${digits(9)} (${holder})`;
  }
  const submittedAt = firstSale
    ? new Date(firstSale.getTime() - random.int(5, 30) * DAY_MS + random.int(8, 18) * HOUR_MS)
    : new Date(today.getTime() - random.int(1, 20) * DAY_MS + random.int(8, 18) * HOUR_MS);
  const decidedAt =
    status === 'PENDING'
      ? null
      : new Date(Math.min(today.getTime() - HOUR_MS, submittedAt.getTime() + random.int(4, 96) * HOUR_MS));
  const taxId = random.chance(0.85) ? country.tax() : null;
  return {
    vendorId: vendor.id,
    status,
    legalName: legal ? vendor.name : `${vendor.name} ${country.suffix}`,
    countryCode,
    address,
    taxId,
    billingEmail: `billing@${vendor.domain}`,
    payoutMethod: paypal ? 'PAYPAL' : 'BANK_TRANSFER',
    payoutDetails,
    submittedAt,
    decidedBy: decidedAt ? ADMIN_ID : null,
    decidedAt,
    decisionNote:
      status === 'REJECTED'
        ? 'The account holder of the payout details is not the legal name given. Please correct and apply again.'
        : status === 'APPROVED' && random.chance(0.3)
          ? 'Company registration and payout details checked.'
          : null,
  };
}

/**
 * The demo visitor's orders, for the buyer's orders page and the administrators' invoices: one awaiting
 * payment (an administrator can mark it paid, which issues the licence and records the sale) and one
 * cancelled. They use the first selling items given.
 */
export function generateVisitorOrders(
  seed: number,
  visitor: { id: number; name: string },
  items: readonly DemoItemCommerce[],
  today: Date,
): DemoOrder[] {
  const random = new DemoRandom(seed, VISITOR);
  const orders: DemoOrder[] = [];
  const plans = [
    { daysAgo: 2, licenseKind: 'PERSONAL', quantity: 1, status: 'AWAITING_PAYMENT' },
    { daysAgo: 40, licenseKind: 'ORGANIZATION', quantity: 3, status: 'CANCELLED' },
  ] as const;
  plans.forEach((plan, index) => {
    const item = items[index];
    if (!item) return;
    const createdAt = new Date(today.getTime() - plan.daysAgo * DAY_MS + random.int(9, 17) * HOUR_MS);
    const choice: SaleChoice = {
      licenseKind: plan.licenseKind,
      billingPeriod: 'YEARLY',
      quantity: plan.quantity,
      subscriptionYear: 1,
    };
    const quote = quoteAt(item, createdAt, choice);
    if (!quote) return;
    const open = plan.status === 'AWAITING_PAYMENT';
    orders.push({
      pluginId: item.pluginId,
      buyerId: visitor.id,
      licensee: open ? visitor.name : 'Demo Visitor Consulting',
      licenseKind: plan.licenseKind,
      billingPeriod: 'YEARLY',
      quantity: plan.quantity,
      countryCode: 'NL',
      quote,
      status: plan.status,
      createdAt,
      paidAt: null,
      invoice: {
        issuedAt: createdAt,
        dueAt: new Date(createdAt.getTime() + INVOICE_DUE_DAYS * DAY_MS),
        status: open ? 'OPEN' : 'VOID',
        paidAt: null,
        markedPaidBy: null,
      },
      sale: null,
    });
  });
  return orders;
}
