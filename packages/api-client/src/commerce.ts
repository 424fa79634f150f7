import type {
  ContinuityDiscountBody,
  CouponAnswer,
  LicenseBody,
  LicenseVerificationBody,
  MonetizationBody,
  MonetizationStepBody,
  OfferAnswer,
  OfferBody,
  OrderAnswer,
  OrderBody,
  PriceBody,
  PricingBody,
  ProgramApplicationAnswer,
  ProgramApplicationBody,
  ProgramsBody,
  QuoteBody,
  ReleaseInfoBody,
  SalesAnalyticsBody,
  SalesAnalyticsQuery,
  SalesInfoBody,
  SalesQuery,
  ScheduledPriceChangeBodyAnswer,
  SellerApplicationBody,
  SellerBody,
  SellingDetailsBody,
  SubscriptionsBody,
  TrialSettingsBody,
  VolumeDiscountsBody,
} from '@marketplace/api-contract';
import type { BillingPeriod, LicenseKind } from '@marketplace/core';
import { pathId } from './paths';
import { buildQuery, type QueryParameters } from './query';
import type { ApiTransport, CallOptions } from './transport';

export type Pricing = PricingBody;
export type Price = PriceBody;
export type Quote = QuoteBody;
export type Seller = SellerBody;
export type SellerApplication = SellerApplicationBody;
export type Offer = OfferAnswer;
export type OfferInput = OfferBody;
export type Coupon = CouponAnswer;
export type Order = OrderAnswer;
export type NewOrder = OrderBody;
export type License = LicenseBody;
export type LicenseVerification = LicenseVerificationBody;
export type SalesInfo = SalesInfoBody;
export type SalesFilter = Partial<SalesQuery>;
export type SalesAnalytics = SalesAnalyticsBody;
export type SalesAnalyticsFilter = SalesAnalyticsQuery;
export type Monetization = MonetizationBody;
export type MonetizationStep = MonetizationStepBody;
export type Subscriptions = SubscriptionsBody;
export type SellingDetails = SellingDetailsBody;
export type TrialSettings = TrialSettingsBody;
export type ReleaseInfo = ReleaseInfoBody;
export type ProgramApplication = ProgramApplicationAnswer;
export type ProgramApplicationInput = ProgramApplicationBody;
export type ScheduledPriceChange = ScheduledPriceChangeBodyAnswer;

export interface QuoteInput {
  quantity: number;
  licenseKind?: LicenseKind;
  billingPeriod?: BillingPeriod;
  /** A coupon code as the buyer typed it; absent or empty: a quote without a coupon. */
  couponCode?: string;
}

/** The paths of the commerce routes (spec §7 `/api/marketplace/...`). */
export const commercePaths = {
  plugin: (pluginId: number, section: string, query: QueryParameters = {}) =>
    `/api/marketplace/plugin/${pathId('Plugin id', pluginId)}/${section}${buildQuery(query)}`,
  vendor: (vendorId: number) => `/api/marketplace/vendor/${pathId('Vendor id', vendorId)}`,
  submit: () => '/api/marketplace/submit',
  orders: () => '/api/marketplace/orders',
  order: (orderId: number) => `/api/marketplace/orders/${pathId('Order id', orderId)}`,
  invoices: (status?: 'OPEN' | 'PAID' | 'VOID') => `/api/marketplace/invoices${buildQuery({ status })}`,
  invoicePaid: (invoiceId: number) => `/api/marketplace/invoices/${pathId('Invoice id', invoiceId)}/paid`,
  licenses: () => '/api/marketplace/licenses',
  publicKey: () => '/api/marketplace/licenses/public-key',
  verify: () => '/api/marketplace/licenses/verify',
  sellers: (status?: 'PENDING' | 'APPROVED' | 'REJECTED') =>
    `/api/marketplace/sellers${buildQuery({ status })}`,
  pluginSection: (
    pluginId: number,
    section: 'subscriptions' | 'selling-details' | 'monetization' | 'monetization/steps',
  ) => `/api/plugins/${pathId('Plugin id', pluginId)}/${section}`,
};

/** Selling: prices and quotes for buyers, offers and sales for vendors, sellers and invoices for administrators. */
export class CommerceClient {
  constructor(private readonly transport: ApiTransport) {}

  private get<T>(path: string, options: CallOptions = {}): Promise<T> {
    return this.transport.sendJson<T>({ ...options, method: 'GET', path });
  }

  private write<T>(
    method: 'POST' | 'PUT' | 'DELETE',
    path: string,
    json: unknown,
    options: CallOptions = {},
  ): Promise<T> {
    return this.transport.sendJson<T>({ ...options, method, path, ...(json === undefined ? {} : { json }) });
  }

  // Buyers ------------------------------------------------------------------------------------------------

  getPricing(pluginId: number, options?: CallOptions): Promise<Pricing> {
    return this.get(commercePaths.plugin(pluginId, 'prices'), options);
  }

  /** A quote; with a coupon code, `coupon` says whether it applied and why not. */
  quote(pluginId: number, input: QuoteInput, options?: CallOptions): Promise<Quote> {
    const query = {
      quantity: input.quantity,
      licenseKind: input.licenseKind,
      billingPeriod: input.billingPeriod,
    };
    const code = input.couponCode?.trim();
    const path = code
      ? commercePaths.plugin(pluginId, `apply/${encodeURIComponent(code)}`, query)
      : commercePaths.plugin(pluginId, 'quote', query);
    return this.get(path, options);
  }

  getTrial(pluginId: number, options?: CallOptions): Promise<TrialSettings> {
    return this.get(commercePaths.plugin(pluginId, 'trial'), options);
  }

  startTrial(pluginId: number, options?: CallOptions): Promise<License> {
    return this.write('POST', commercePaths.plugin(pluginId, 'trial'), undefined, options);
  }

  getReleaseInfos(pluginId: number, options?: CallOptions): Promise<ReleaseInfo[]> {
    return this.get(commercePaths.plugin(pluginId, 'release-infos'), options);
  }

  getMyProgramApplications(pluginId: number, options?: CallOptions): Promise<ProgramApplication[]> {
    return this.get(commercePaths.plugin(pluginId, 'user/programs'), options);
  }

  applyToProgram(
    pluginId: number,
    input: ProgramApplicationInput,
    options?: CallOptions,
  ): Promise<ProgramApplication> {
    return this.write('POST', commercePaths.plugin(pluginId, 'user/programs'), input, options);
  }

  placeOrder(order: NewOrder, options?: CallOptions): Promise<Order> {
    return this.write('POST', commercePaths.orders(), order, options);
  }

  getMyOrders(options?: CallOptions): Promise<Order[]> {
    return this.get(commercePaths.orders(), options);
  }

  cancelOrder(orderId: number, options?: CallOptions): Promise<Order> {
    return this.write('POST', `${commercePaths.order(orderId)}/cancel`, undefined, options);
  }

  getMyLicenses(options?: CallOptions): Promise<License[]> {
    return this.get(commercePaths.licenses(), options);
  }

  verifyLicense(token: string, options?: CallOptions): Promise<LicenseVerification> {
    return this.write('POST', commercePaths.verify(), { token }, options);
  }

  // Vendors -----------------------------------------------------------------------------------------------

  getSeller(vendorId: number, options?: CallOptions): Promise<Seller> {
    return this.get(commercePaths.vendor(vendorId), options);
  }

  applyToSell(application: SellerApplication, options?: CallOptions): Promise<Seller> {
    return this.write('POST', commercePaths.submit(), application, options);
  }

  setPrices(pluginId: number, prices: readonly Price[], options?: CallOptions): Promise<Pricing> {
    return this.write('PUT', commercePaths.plugin(pluginId, 'prices'), { prices }, options);
  }

  schedulePriceChange(
    pluginId: number,
    effectiveDate: string,
    prices: readonly Price[],
    options?: CallOptions,
  ): Promise<ScheduledPriceChange> {
    return this.write(
      'POST',
      commercePaths.plugin(pluginId, 'schedule-price-change'),
      { effectiveDate, prices },
      options,
    );
  }

  async cancelPriceChange(pluginId: number, changeId: number, options?: CallOptions): Promise<void> {
    await this.transport.send({
      ...options,
      method: 'DELETE',
      path: commercePaths.plugin(pluginId, `schedule-price-change/${pathId('Change id', changeId)}`),
    });
  }

  setVolumeDiscounts(
    pluginId: number,
    tiers: VolumeDiscountsBody['tiers'],
    options?: CallOptions,
  ): Promise<VolumeDiscountsBody> {
    return this.write('PUT', commercePaths.plugin(pluginId, 'volume-discounts'), { tiers }, options);
  }

  setContinuityDiscount(
    pluginId: number,
    steps: ContinuityDiscountBody['steps'],
    options?: CallOptions,
  ): Promise<ContinuityDiscountBody> {
    return this.write('PUT', commercePaths.plugin(pluginId, 'continuity-discount'), { steps }, options);
  }

  setPrograms(
    pluginId: number,
    programs: ProgramsBody['programs'],
    options?: CallOptions,
  ): Promise<ProgramsBody> {
    return this.write('PUT', commercePaths.plugin(pluginId, 'programs'), { programs }, options);
  }

  getProgramApplications(pluginId: number, options?: CallOptions): Promise<ProgramApplication[]> {
    return this.get(commercePaths.plugin(pluginId, 'program-applications'), options);
  }

  decideProgramApplication(
    pluginId: number,
    applicationId: number,
    approve: boolean,
    options?: CallOptions,
  ): Promise<ProgramApplication> {
    return this.write(
      'POST',
      commercePaths.plugin(
        pluginId,
        `program-applications/${pathId('Application id', applicationId)}/decision`,
      ),
      { approve },
      options,
    );
  }

  getOffers(pluginId: number, options?: CallOptions): Promise<Offer[]> {
    return this.get(commercePaths.plugin(pluginId, 'offers'), options);
  }

  createOffer(pluginId: number, offer: OfferInput, options?: CallOptions): Promise<Offer> {
    return this.write('POST', commercePaths.plugin(pluginId, 'offers'), offer, options);
  }

  updateOffer(pluginId: number, offerId: number, offer: OfferInput, options?: CallOptions): Promise<Offer> {
    return this.write(
      'PUT',
      commercePaths.plugin(pluginId, `offers/${pathId('Offer id', offerId)}`),
      offer,
      options,
    );
  }

  async deleteOffer(pluginId: number, offerId: number, options?: CallOptions): Promise<void> {
    await this.transport.send({
      ...options,
      method: 'DELETE',
      path: commercePaths.plugin(pluginId, `offers/${pathId('Offer id', offerId)}`),
    });
  }

  getCoupons(pluginId: number, offerId: number, options?: CallOptions): Promise<Coupon[]> {
    return this.get(commercePaths.plugin(pluginId, `offers/${pathId('Offer id', offerId)}/coupons`), options);
  }

  generateCoupons(
    pluginId: number,
    offerId: number,
    numberOfCoupons: number,
    options?: CallOptions,
  ): Promise<Coupon[]> {
    return this.write(
      'POST',
      commercePaths.plugin(pluginId, `offers/${pathId('Offer id', offerId)}/coupons`, { numberOfCoupons }),
      undefined,
      options,
    );
  }

  markCouponSent(
    pluginId: number,
    couponId: number,
    sentTo?: string,
    options?: CallOptions,
  ): Promise<Coupon> {
    return this.write(
      'POST',
      commercePaths.plugin(pluginId, `coupons/${pathId('Coupon id', couponId)}/sent`),
      sentTo ? { sentTo } : {},
      options,
    );
  }

  getSalesInfo(pluginId: number, filter: SalesFilter = {}, options?: CallOptions): Promise<SalesInfo> {
    return this.get(commercePaths.plugin(pluginId, 'sales-info', { ...filter }), options);
  }

  getSalesAnalytics(
    pluginId: number,
    filter: SalesAnalyticsFilter = {},
    options?: CallOptions,
  ): Promise<SalesAnalytics> {
    return this.get(commercePaths.plugin(pluginId, 'analytics', { ...filter }), options);
  }

  /** The address of the CSV report (it needs the signed-in vendor's token: fetch it, do not link it). */
  salesReportPath(pluginId: number, filter: SalesAnalyticsFilter = {}): string {
    return commercePaths.plugin(pluginId, 'full-report', { ...filter });
  }

  getSubscriptions(pluginId: number, options?: CallOptions): Promise<Subscriptions> {
    return this.get(commercePaths.pluginSection(pluginId, 'subscriptions'), options);
  }

  setSubscriptions(
    pluginId: number,
    subscriptions: Subscriptions,
    options?: CallOptions,
  ): Promise<Subscriptions> {
    return this.write('PUT', commercePaths.pluginSection(pluginId, 'subscriptions'), subscriptions, options);
  }

  getSellingDetails(pluginId: number, options?: CallOptions): Promise<SellingDetails> {
    return this.get(commercePaths.pluginSection(pluginId, 'selling-details'), options);
  }

  setSellingDetails(
    pluginId: number,
    details: SellingDetails,
    options?: CallOptions,
  ): Promise<SellingDetails> {
    return this.write('PUT', commercePaths.pluginSection(pluginId, 'selling-details'), details, options);
  }

  getMonetization(pluginId: number, options?: CallOptions): Promise<Monetization> {
    return this.get(commercePaths.pluginSection(pluginId, 'monetization'), options);
  }

  // Administrators ----------------------------------------------------------------------------------------

  getSellers(status?: 'PENDING' | 'APPROVED' | 'REJECTED', options?: CallOptions): Promise<Seller[]> {
    return this.get(commercePaths.sellers(status), options);
  }

  decideSeller(vendorId: number, approve: boolean, note?: string, options?: CallOptions): Promise<Seller> {
    return this.write(
      'POST',
      `${commercePaths.vendor(vendorId)}/${approve ? 'approve' : 'reject'}`,
      note ? { note } : {},
      options,
    );
  }

  getInvoices(status?: 'OPEN' | 'PAID' | 'VOID', options?: CallOptions): Promise<Order[]> {
    return this.get(commercePaths.invoices(status), options);
  }

  markInvoicePaid(invoiceId: number, options?: CallOptions): Promise<Order> {
    return this.write('POST', commercePaths.invoicePaid(invoiceId), undefined, options);
  }
}
