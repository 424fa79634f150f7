import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApplyParams,
  ContinuityDiscountBody,
  CouponCountQuery,
  CouponParams,
  CouponSchema,
  CouponSentBody,
  CouponsSchema,
  ErrorBody,
  IdParams,
  InvoiceListQuery,
  LicenseKeySetSchema,
  LicenseSchema,
  LicensesSchema,
  LicenseVerificationSchema,
  LicenseVerifyBody,
  MonetizationSchema,
  MonetizationStepsSchema,
  OfferBody,
  OfferParams,
  OfferSchema,
  OffersSchema,
  OrderBody,
  OrderSchema,
  OrdersSchema,
  PriceListBody,
  PricingSchema,
  ProgramApplicationBody,
  ProgramApplicationParams,
  ProgramApplicationSchema,
  ProgramApplicationsSchema,
  ProgramDecisionBody,
  ProgramsBody,
  QuoteQuery,
  QuoteSchema,
  ReleaseInfosSchema,
  SalesAnalyticsQuery,
  SalesAnalyticsSchema,
  SalesInfoSchema,
  SalesQuery,
  ScheduledPriceChangeBody,
  ScheduledPriceChangeSchema,
  SellerApplicationBody,
  SellerDecisionBody,
  SellerListSchema,
  SellerSchema,
  SellingDetailsSchema,
  SubscriptionsSchema,
  TrialDaysBody,
  TrialSettingsSchema,
  VolumeDiscountsBody,
  type QuoteBody,
} from '@marketplace/api-contract';
import { DAY_MS, formatStatisticsDate, isSellerStatus, parseStatisticsDate } from '@marketplace/core';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { signedInViewer } from '../auth/authorization';
import { ApiError } from '../plugins/app/errors';
import { isAdministrator, managersOfPluginParam, pluginManagers } from '../publishing/plugin-access';
import {
  monetizationOf,
  releaseInfos,
  applyToProgram,
  decideProgramApplication,
  listProgramApplications,
} from './monetization';
import {
  createOffer,
  currentOfferId,
  deleteOffer,
  generateCoupons,
  listCoupons,
  listOffers,
  loadOffer,
  markCouponSent,
  updateOffer,
} from './offers';
import {
  cancelOrder,
  listLicenses,
  listOrdersByInvoice,
  listOrdersOf,
  loadOrder,
  markOrderPaid,
  orderBuyer,
  orderOfInvoice,
  placeOrder,
  quoteFor,
  requireItem,
  startTrial,
  trialSettings,
  type CommerceEnvironment,
} from './orders';
import {
  addPriceList,
  cancelScheduledChange,
  loadContinuitySteps,
  loadPriceLists,
  loadPricing,
  loadPrograms,
  loadTerms,
  loadVolumeTiers,
  saveContinuitySteps,
  savePrograms,
  saveSellingDetails,
  saveSubscriptions,
  saveTrialDays,
  saveVolumeTiers,
  sellingDetailsOf,
  subscriptionsOf,
} from './pricing';
import { salesAnalytics, salesInfo, salesReportLines } from './sales';
import { decideSeller, listSellers, loadSeller, submitSellerApplication, vendorMembers } from './sellers';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody } as const;
const PLUGIN = '/api/marketplace/plugin/:id';

/** Strips the server-side coupon id from a quote before it is answered. */
function publicQuote({ couponId: _couponId, ...quote }: QuoteBody & { couponId: number | null }): QuoteBody {
  return quote;
}

/**
 * The commerce routes: /api/marketplace/... (sellers, prices, discounts, programs, offers and coupons,
 * quotes, trials, orders, invoices, licences, sales) and a plugin's subscriptions, selling-details and
 * monetization. Who may call what is declared on each route; sales, offers and coupons are for the item's
 * people and administrators only.
 */
export function commerceRoutes(env: CommerceEnvironment): FastifyPluginAsyncTypebox {
  return async (app) => {
    const OWNER = { auth: { rule: 'owner', ownerOf: managersOfPluginParam(app.db) } } as const;
    const SIGNED_IN = { auth: { rule: 'signed-in' } } as const;
    const ADMIN = { auth: { rule: 'admin' } } as const;
    const PUBLIC_CACHED = { auth: { rule: 'public' }, cache: 'public' } as const;
    const BUYER = {
      auth: {
        rule: 'owner',
        ownerOf: async (request: FastifyRequest) => {
          const id = Number((request.params as { id?: unknown }).id);
          if (!Number.isSafeInteger(id) || id <= 0) return undefined;
          const buyer = await orderBuyer(app.db, id);
          return buyer === undefined ? undefined : [buyer];
        },
      },
    } as const;

    /** An item whose commerce a visitor may read: listed, or theirs, or they administer. */
    async function visibleItem(request: FastifyRequest, pluginId: number) {
      const item = await requireItem(app.db, pluginId);
      if (item.listed || isAdministrator(request.viewer)) return item;
      const viewer = request.viewer;
      const managers = (await pluginManagers(app.db, pluginId)) ?? [];
      if (viewer.kind === 'user' && managers.includes(viewer.user.id)) return item;
      throw new ApiError('notFound', `There is no item ${pluginId}.`);
    }

    const viewerId = (request: FastifyRequest) =>
      request.viewer.kind === 'user' ? request.viewer.user.id : null;

    // ---- Sellers -----------------------------------------------------------------------------------------

    app.post(
      '/api/marketplace/submit',
      {
        config: SIGNED_IN,
        schema: {
          tags: ['commerce'],
          summary: 'Apply to sell for a vendor, with legal and payout details (an administrator decides)',
          body: SellerApplicationBody,
          response: { 201: SellerSchema, ...errors },
        },
      },
      async (request, reply) => {
        const viewer = signedInViewer(request);
        const seller = await submitSellerApplication(app.db, viewer.user.id, viewer.isAdmin, request.body);
        return reply.code(201).send(seller);
      },
    );

    app.get(
      '/api/marketplace/vendor/:id',
      {
        config: { auth: { rule: 'public' } },
        schema: {
          tags: ['commerce'],
          summary:
            "A vendor's selling status; its legal and payout details for its people and administrators",
          params: IdParams,
          response: { 200: SellerSchema, ...errors },
        },
      },
      async (request) => {
        const viewer = request.viewer;
        const members = (await vendorMembers(app.db, request.params.id)) ?? [];
        const withDetails =
          isAdministrator(viewer) || (viewer.kind === 'user' && members.includes(viewer.user.id));
        const seller = await loadSeller(app.db, request.params.id, withDetails);
        if (!seller) throw new ApiError('notFound', `There is no vendor ${request.params.id}.`);
        return seller;
      },
    );

    app.get(
      '/api/marketplace/sellers',
      {
        config: ADMIN,
        schema: {
          tags: ['commerce'],
          summary: 'Applications to sell, pending first (administrators)',
          querystring: Type.Object({ status: Type.Optional(Type.Enum(['PENDING', 'APPROVED', 'REJECTED'])) }),
          response: { 200: SellerListSchema, ...errors },
        },
      },
      async (request) =>
        listSellers(app.db, isSellerStatus(request.query.status) ? request.query.status : undefined),
    );

    for (const decision of ['approve', 'reject'] as const) {
      app.post(
        `/api/marketplace/vendor/:id/${decision}`,
        {
          config: ADMIN,
          schema: {
            tags: ['commerce'],
            summary: `${decision === 'approve' ? 'Approve' : 'Reject'} a vendor's application to sell (administrators)`,
            params: IdParams,
            body: Type.Optional(SellerDecisionBody),
            response: { 200: SellerSchema, ...errors },
          },
        },
        async (request) =>
          decideSeller(
            app.db,
            request.params.id,
            signedInViewer(request).user.id,
            decision === 'approve',
            request.body?.note,
          ),
      );
    }

    // ---- Prices, discounts, programs, terms ---------------------------------------------------------------

    app.get(
      PLUGIN,
      {
        config: { auth: { rule: 'public' } },
        schema: {
          tags: ['commerce'],
          summary: 'The item as the marketplace sells it (the same answer as /prices)',
          params: IdParams,
          response: { 200: PricingSchema, ...errors },
        },
      },
      async (request) => loadPricing(app.db, await visibleItem(request, request.params.id), env.currency),
    );

    app.get(
      `${PLUGIN}/prices`,
      {
        config: { auth: { rule: 'public' } },
        schema: {
          tags: ['commerce'],
          summary: 'Prices per licence kind and period, scheduled changes, trial, discounts and programs',
          params: IdParams,
          response: { 200: PricingSchema, ...errors },
        },
      },
      async (request) => loadPricing(app.db, await visibleItem(request, request.params.id), env.currency),
    );

    app.put(
      `${PLUGIN}/prices`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'Set the prices, effective now (earlier orders keep theirs)',
          params: IdParams,
          body: PriceListBody,
          response: { 200: PricingSchema, ...errors },
        },
      },
      async (request) => {
        const item = await requireItem(app.db, request.params.id);
        await addPriceList(app.db, item.id, signedInViewer(request).user.id, request.body.prices, new Date());
        return loadPricing(app.db, item, env.currency);
      },
    );

    app.get(
      `${PLUGIN}/schedule-price-change`,
      {
        config: { auth: { rule: 'public' } },
        schema: {
          tags: ['commerce'],
          summary: 'Price changes still to come (announced on the pricing tab)',
          params: IdParams,
          response: { 200: Type.Array(ScheduledPriceChangeSchema), ...errors },
        },
      },
      async (request) => {
        const item = await visibleItem(request, request.params.id);
        return (await loadPriceLists(app.db, item.id)).scheduled;
      },
    );

    app.post(
      `${PLUGIN}/schedule-price-change`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'Schedule a price list from a future day (UTC); the same day again replaces it',
          params: IdParams,
          body: ScheduledPriceChangeBody,
          response: { 201: ScheduledPriceChangeSchema, ...errors },
        },
      },
      async (request, reply) => {
        const item = await requireItem(app.db, request.params.id);
        const effectiveAt = parseStatisticsDate(request.body.effectiveDate);
        if (!effectiveAt) throw new ApiError('validation', `"${request.body.effectiveDate}" is not a date.`);
        const tomorrow = formatStatisticsDate(Date.now() + DAY_MS);
        if (request.body.effectiveDate < tomorrow) {
          throw new ApiError(
            'validation',
            `A price change is scheduled from tomorrow (${tomorrow}) on; to change prices today, set them directly.`,
          );
        }
        const id = await addPriceList(
          app.db,
          item.id,
          signedInViewer(request).user.id,
          request.body.prices,
          effectiveAt,
        );
        const change = (await loadPriceLists(app.db, item.id)).scheduled.find(
          (candidate) => candidate.id === id,
        );
        if (!change) throw new Error('The scheduled change was not stored.');
        return reply.code(201).send(change);
      },
    );

    app.delete(
      `${PLUGIN}/schedule-price-change/:changeId`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'Cancel a scheduled price change before its day',
          params: Type.Object({ id: IdParams.properties.id, changeId: IdParams.properties.id }),
          response: { 204: Type.Null(), ...errors },
        },
      },
      async (request, reply) => {
        await cancelScheduledChange(app.db, request.params.id, request.params.changeId);
        return reply.code(204).send(null);
      },
    );

    app.get(
      `${PLUGIN}/volume-discounts`,
      {
        config: PUBLIC_CACHED,
        schema: {
          tags: ['commerce'],
          summary: 'Volume discount tiers',
          params: IdParams,
          response: { 200: VolumeDiscountsBody, ...errors },
        },
      },
      async (request) => ({
        tiers: await loadVolumeTiers(app.db, (await visibleItem(request, request.params.id)).id),
      }),
    );

    app.put(
      `${PLUGIN}/volume-discounts`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'Replace the volume discount tiers (more licences, more off)',
          params: IdParams,
          body: VolumeDiscountsBody,
          response: { 200: VolumeDiscountsBody, ...errors },
        },
      },
      async (request) => {
        await saveVolumeTiers(app.db, request.params.id, request.body.tiers);
        return { tiers: await loadVolumeTiers(app.db, request.params.id) };
      },
    );

    app.get(
      `${PLUGIN}/continuity-discount`,
      {
        config: PUBLIC_CACHED,
        schema: {
          tags: ['commerce'],
          summary: 'Continuity discount by subscription year (the default is 20% in year 2, 40% from year 3)',
          params: IdParams,
          response: { 200: ContinuityDiscountBody, ...errors },
        },
      },
      async (request) => ({
        steps: await loadContinuitySteps(app.db, (await visibleItem(request, request.params.id)).id),
      }),
    );

    app.put(
      `${PLUGIN}/continuity-discount`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'Replace the continuity discount ([] for none)',
          params: IdParams,
          body: ContinuityDiscountBody,
          response: { 200: ContinuityDiscountBody, ...errors },
        },
      },
      async (request) => {
        await saveContinuitySteps(app.db, request.params.id, request.body.steps);
        return { steps: await loadContinuitySteps(app.db, request.params.id) };
      },
    );

    app.get(
      `${PLUGIN}/programs`,
      {
        config: PUBLIC_CACHED,
        schema: {
          tags: ['commerce'],
          summary: 'Community programs the item takes part in, with their discounts',
          params: IdParams,
          response: { 200: ProgramsBody, ...errors },
        },
      },
      async (request) => ({
        programs: await loadPrograms(app.db, (await visibleItem(request, request.params.id)).id),
      }),
    );

    app.put(
      `${PLUGIN}/programs`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'Replace the programs the item takes part in',
          params: IdParams,
          body: ProgramsBody,
          response: { 200: ProgramsBody, ...errors },
        },
      },
      async (request) => {
        await savePrograms(app.db, request.params.id, request.body.programs);
        return { programs: await loadPrograms(app.db, request.params.id) };
      },
    );

    app.get(
      `${PLUGIN}/user/programs`,
      {
        config: SIGNED_IN,
        schema: {
          tags: ['commerce'],
          summary: "My applications to the item's programs",
          params: IdParams,
          response: { 200: ProgramApplicationsSchema, ...errors },
        },
      },
      async (request) => {
        await visibleItem(request, request.params.id);
        return listProgramApplications(app.db, request.params.id, signedInViewer(request).user.id);
      },
    );

    app.post(
      `${PLUGIN}/user/programs`,
      {
        config: SIGNED_IN,
        schema: {
          tags: ['commerce'],
          summary: "Apply to one of the item's programs with evidence; its vendor decides",
          params: IdParams,
          body: ProgramApplicationBody,
          response: { 201: ProgramApplicationSchema, ...errors },
        },
      },
      async (request, reply) => {
        await visibleItem(request, request.params.id);
        const application = await applyToProgram(
          app.db,
          request.params.id,
          signedInViewer(request).user.id,
          request.body,
        );
        return reply.code(201).send(application);
      },
    );

    app.get(
      `${PLUGIN}/program-applications`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: "Applications to the item's programs, pending first (its people and administrators)",
          params: IdParams,
          response: { 200: ProgramApplicationsSchema, ...errors },
        },
      },
      async (request) => listProgramApplications(app.db, request.params.id, null),
    );

    app.post(
      `${PLUGIN}/program-applications/:applicationId/decision`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'Approve or reject an application to a program',
          params: ProgramApplicationParams,
          body: ProgramDecisionBody,
          response: { 200: ProgramApplicationSchema, ...errors },
        },
      },
      async (request) =>
        decideProgramApplication(
          app.db,
          request.params.id,
          request.params.applicationId,
          signedInViewer(request).user.id,
          request.body.approve,
        ),
    );

    app.get(
      `${PLUGIN}/release-infos`,
      {
        config: PUBLIC_CACHED,
        schema: {
          tags: ['commerce'],
          summary: "The product releases the item's versions declare in <product-descriptor>",
          params: IdParams,
          response: { 200: ReleaseInfosSchema, ...errors },
        },
      },
      async (request) => releaseInfos(app.db, (await visibleItem(request, request.params.id)).id),
    );

    // ---- Trials and quotes --------------------------------------------------------------------------------

    app.get(
      `${PLUGIN}/trial`,
      {
        config: { auth: { rule: 'public' } },
        schema: {
          tags: ['commerce'],
          summary: 'The trial length, and my trial of the item when signed in',
          params: IdParams,
          response: { 200: TrialSettingsSchema, ...errors },
        },
      },
      async (request) => {
        const item = await visibleItem(request, request.params.id);
        return trialSettings(env, item.id, viewerId(request));
      },
    );

    app.put(
      `${PLUGIN}/trial`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'Set the trial length in days (0: no trial; else 7 to 90)',
          params: IdParams,
          body: TrialDaysBody,
          response: { 200: TrialSettingsSchema, ...errors },
        },
      },
      async (request) => {
        await saveTrialDays(app.db, request.params.id, request.body.trialDays);
        return trialSettings(env, request.params.id, viewerId(request));
      },
    );

    app.post(
      `${PLUGIN}/trial`,
      {
        config: SIGNED_IN,
        schema: {
          tags: ['commerce'],
          summary: 'Start my trial of the item (one per customer): a signed trial licence',
          params: IdParams,
          response: { 201: LicenseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const viewer = signedInViewer(request);
        await visibleItem(request, request.params.id);
        const license = await startTrial(env, request.params.id, {
          id: viewer.user.id,
          name: viewer.user.name,
        });
        return reply.code(201).send(license);
      },
    );

    app.get(
      `${PLUGIN}/quote`,
      {
        config: { auth: { rule: 'public' } },
        schema: {
          tags: ['commerce'],
          summary: 'A quote without a coupon: list price and each discount in the documented order',
          params: IdParams,
          querystring: QuoteQuery,
          response: { 200: QuoteSchema, ...errors },
        },
      },
      async (request) => {
        await visibleItem(request, request.params.id);
        return publicQuote(
          await quoteFor(env, app.db, {
            pluginId: request.params.id,
            ...request.query,
            buyerId: viewerId(request),
          }),
        );
      },
    );

    app.get(
      `${PLUGIN}/apply/:code`,
      {
        config: { auth: { rule: 'public' } },
        schema: {
          tags: ['commerce'],
          summary: 'A quote with a coupon: the discounts, the total, and why the coupon does not apply if so',
          params: ApplyParams,
          querystring: QuoteQuery,
          response: { 200: QuoteSchema, ...errors },
        },
      },
      async (request) => {
        await visibleItem(request, request.params.id);
        return publicQuote(
          await quoteFor(env, app.db, {
            pluginId: request.params.id,
            ...request.query,
            couponCode: request.params.code,
            buyerId: viewerId(request),
          }),
        );
      },
    );

    // ---- Offers and coupons (the item's people) -------------------------------------------------------------

    app.get(
      `${PLUGIN}/offers`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: "The item's offers",
          params: IdParams,
          response: { 200: OffersSchema, ...errors },
        },
      },
      async (request) => listOffers(app.db, request.params.id),
    );

    app.post(
      `${PLUGIN}/offers`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'Create an offer: percent or amount off, its days, licence kinds and uses per coupon',
          params: IdParams,
          body: OfferBody,
          response: { 201: OfferSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(await createOffer(app.db, request.params.id, signedInViewer(request).user.id, request.body)),
    );

    app.get(
      `${PLUGIN}/offers/:offerId`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'One offer',
          params: OfferParams,
          response: { 200: OfferSchema, ...errors },
        },
      },
      async (request) => loadOffer(app.db, request.params.id, request.params.offerId),
    );

    app.put(
      `${PLUGIN}/offers/:offerId`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'Change an offer',
          params: OfferParams,
          body: OfferBody,
          response: { 200: OfferSchema, ...errors },
        },
      },
      async (request) => updateOffer(app.db, request.params.id, request.params.offerId, request.body),
    );

    app.delete(
      `${PLUGIN}/offers/:offerId`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'Delete an offer whose coupons were never used',
          params: OfferParams,
          response: { 204: Type.Null(), ...errors },
        },
      },
      async (request, reply) => {
        await deleteOffer(app.db, request.params.id, request.params.offerId);
        return reply.code(204).send(null);
      },
    );

    app.get(
      `${PLUGIN}/offers/:offerId/coupons`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: "An offer's coupons",
          params: OfferParams,
          response: { 200: CouponsSchema, ...errors },
        },
      },
      async (request) => {
        await loadOffer(app.db, request.params.id, request.params.offerId);
        return listCoupons(app.db, request.params.id, request.params.offerId);
      },
    );

    app.post(
      `${PLUGIN}/offers/:offerId/coupons`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'Generate coupons for an offer (?numberOfCoupons=N, up to 1,000 at a time)',
          params: OfferParams,
          querystring: CouponCountQuery,
          response: { 201: CouponsSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(
            await generateCoupons(
              app.db,
              request.params.id,
              request.params.offerId,
              request.query.numberOfCoupons,
            ),
          ),
    );

    app.get(
      `${PLUGIN}/coupons`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: "All the item's coupons",
          params: IdParams,
          response: { 200: CouponsSchema, ...errors },
        },
      },
      async (request) => listCoupons(app.db, request.params.id, null),
    );

    app.post(
      `${PLUGIN}/coupons`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary:
            'Generate coupons (?numberOfCoupons=N) for the offer named by offerId, or else the offer valid today',
          params: IdParams,
          querystring: Type.Object({
            ...CouponCountQuery.properties,
            offerId: Type.Optional(IdParams.properties.id),
          }),
          response: { 201: CouponsSchema, ...errors },
        },
      },
      async (request, reply) => {
        const offerId = request.query.offerId ?? (await currentOfferId(app.db, request.params.id));
        return reply
          .code(201)
          .send(await generateCoupons(app.db, request.params.id, offerId, request.query.numberOfCoupons));
      },
    );

    app.post(
      `${PLUGIN}/coupons/:couponId/sent`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'Mark a coupon as sent (optionally to whom)',
          params: CouponParams,
          body: Type.Optional(CouponSentBody),
          response: { 200: CouponSchema, ...errors },
        },
      },
      async (request) =>
        markCouponSent(app.db, request.params.id, request.params.couponId, request.body?.sentTo),
    );

    // ---- Sales (the item's people) ------------------------------------------------------------------------

    app.get(
      `${PLUGIN}/sales-info`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'Sales with gross, discounts, commission and net; filters; totals; a page of rows',
          params: IdParams,
          querystring: SalesQuery,
          response: { 200: SalesInfoSchema, ...errors },
        },
      },
      async (request) =>
        salesInfo(app.db, request.params.id, request.query, env.currency, env.commissionPercent),
    );

    app.get(
      `${PLUGIN}/analytics`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'Revenue per month, trial-to-paid conversion and top countries',
          params: IdParams,
          querystring: SalesAnalyticsQuery,
          response: { 200: SalesAnalyticsSchema, ...errors },
        },
      },
      async (request) => salesAnalytics(app.db, request.params.id, request.query, env.currency),
    );

    app.get(
      `${PLUGIN}/full-report`,
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'Every sale of the range as a CSV download',
          params: IdParams,
          querystring: SalesAnalyticsQuery,
          response: { 200: Type.String({ description: 'text/csv' }), ...errors },
        },
      },
      async (request, reply) => {
        const item = await requireItem(app.db, request.params.id);
        const lines = salesReportLines(app.db, item.id, request.query, env.currency);
        // The first page is read here, so a bad date range still answers 400 rather than a broken download.
        const first = await lines.next();
        const stream = Readable.from(
          (async function* () {
            if (!first.done) yield first.value;
            yield* lines;
          })(),
        );
        const fileName = `${item.xmlId.replace(/[^A-Za-z0-9._-]+/g, '_')}-sales.csv`;
        return (
          reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${fileName}"`)
            // A stream is sent as it is (the schema's string documents the CSV; streams are never serialized).
            .send(stream as unknown as string)
        );
      },
    );

    // ---- Orders, invoices and licences --------------------------------------------------------------------

    app.post(
      '/api/marketplace/orders',
      {
        config: SIGNED_IN,
        schema: {
          tags: ['commerce'],
          summary: 'Place an order at the current quote; the invoice to pay comes with it',
          body: OrderBody,
          response: { 201: OrderSchema, ...errors },
        },
      },
      async (request, reply) => {
        await visibleItem(request, request.body.pluginId);
        return reply.code(201).send(await placeOrder(env, signedInViewer(request).user.id, request.body));
      },
    );

    app.get(
      '/api/marketplace/orders',
      {
        config: SIGNED_IN,
        schema: {
          tags: ['commerce'],
          summary: 'My orders, newest first',
          response: { 200: OrdersSchema, ...errors },
        },
      },
      async (request) => listOrdersOf(app.db, signedInViewer(request).user.id),
    );

    app.get(
      '/api/marketplace/orders/:id',
      {
        config: BUYER,
        schema: {
          tags: ['commerce'],
          summary: 'One of my orders',
          params: IdParams,
          response: { 200: OrderSchema, ...errors },
        },
      },
      async (request) => {
        const order = await loadOrder(app.db, request.params.id);
        if (!order) throw new ApiError('notFound', `There is no order ${request.params.id}.`);
        return order;
      },
    );

    app.post(
      '/api/marketplace/orders/:id/cancel',
      {
        config: BUYER,
        schema: {
          tags: ['commerce'],
          summary: 'Cancel an unpaid order',
          params: IdParams,
          response: { 200: OrderSchema, ...errors },
        },
      },
      async (request) => cancelOrder(app.db, request.params.id),
    );

    app.get(
      '/api/marketplace/invoices',
      {
        config: ADMIN,
        schema: {
          tags: ['commerce'],
          summary: 'Orders with their invoices, by invoice status (administrators)',
          querystring: InvoiceListQuery,
          response: { 200: OrdersSchema, ...errors },
        },
      },
      async (request) => listOrdersByInvoice(app.db, request.query.status),
    );

    app.post(
      '/api/marketplace/invoices/:id/paid',
      {
        config: ADMIN,
        schema: {
          tags: ['commerce'],
          summary:
            "Mark an order's invoice paid: the licence is issued and the sale recorded (administrators)",
          params: IdParams,
          response: { 200: OrderSchema, ...errors },
        },
      },
      async (request) => {
        const orderId = await orderOfInvoice(app.db, request.params.id);
        if (orderId === undefined)
          throw new ApiError('notFound', `There is no invoice ${request.params.id}.`);
        return markOrderPaid(env, orderId, signedInViewer(request).user.id);
      },
    );

    app.get(
      '/api/marketplace/licenses',
      {
        config: SIGNED_IN,
        schema: {
          tags: ['commerce'],
          summary: 'My licences, trials included',
          response: { 200: LicensesSchema, ...errors },
        },
      },
      async (request) => listLicenses(app.db, signedInViewer(request).user.id),
    );

    app.get(
      '/api/marketplace/licenses/public-key',
      {
        config: PUBLIC_CACHED,
        schema: {
          tags: ['commerce'],
          summary: 'The public keys licences are signed with (JWK set, Ed25519)',
          response: { 200: LicenseKeySetSchema },
        },
      },
      async () => env.keys.publicKeySet(),
    );

    app.post(
      '/api/marketplace/licenses/verify',
      {
        config: { auth: { rule: 'public' }, readOnly: true },
        schema: {
          tags: ['commerce'],
          summary: 'Check a licence token: valid or why not, and what it grants',
          body: LicenseVerifyBody,
          response: { 200: LicenseVerificationSchema, ...errors },
        },
      },
      async (request) => {
        const result = await env.keys.verify(request.body.token.trim());
        if (!result.valid) return { valid: false, reason: result.reason, claims: null };
        const { claims } = result;
        return {
          valid: true,
          reason: null,
          claims: {
            licenseId: claims.licenseId,
            pluginId: claims.pluginId,
            productCode: claims.productCode,
            licensee: claims.licensee,
            licenseKind: claims.licenseKind,
            seats: claims.seats,
            trial: claims.trial,
            expiresAt: claims.expiresAt.getTime(),
          },
        };
      },
    );

    // ---- The plugin's subscriptions, selling details and monetization ------------------------------------

    app.get(
      '/api/plugins/:id/subscriptions',
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'What is sold, and the trial',
          params: IdParams,
          response: { 200: SubscriptionsSchema, ...errors },
        },
      },
      async (request) =>
        subscriptionsOf(await loadTerms(app.db, (await requireItem(app.db, request.params.id)).id)),
    );

    app.put(
      '/api/plugins/:id/subscriptions',
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'Change what is sold and the trial (form or JSON body)',
          params: IdParams,
          body: SubscriptionsSchema,
          response: { 200: SubscriptionsSchema, ...errors },
        },
      },
      async (request) => {
        await requireItem(app.db, request.params.id);
        await saveSubscriptions(app.db, request.params.id, request.body);
        return subscriptionsOf(await loadTerms(app.db, request.params.id));
      },
    );

    app.get(
      '/api/plugins/:id/selling-details',
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'Licence agreement, support address, licence check',
          params: IdParams,
          response: { 200: SellingDetailsSchema, ...errors },
        },
      },
      async (request) =>
        sellingDetailsOf(await loadTerms(app.db, (await requireItem(app.db, request.params.id)).id)),
    );

    app.put(
      '/api/plugins/:id/selling-details',
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'Change the selling details (form or JSON body)',
          params: IdParams,
          body: SellingDetailsSchema,
          response: { 200: SellingDetailsSchema, ...errors },
        },
      },
      async (request) => {
        await requireItem(app.db, request.params.id);
        await saveSellingDetails(app.db, request.params.id, request.body);
        return sellingDetailsOf(await loadTerms(app.db, request.params.id));
      },
    );

    async function monetization(pluginId: number) {
      return monetizationOf(app.db, await requireItem(app.db, pluginId), env.currency);
    }

    app.get(
      '/api/plugins/:id/monetization',
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'Where selling stands for the item',
          params: IdParams,
          response: { 200: MonetizationSchema, ...errors },
        },
      },
      async (request) => monetization(request.params.id),
    );

    app.get(
      '/api/plugins/:id/monetization/steps',
      {
        config: OWNER,
        schema: {
          tags: ['commerce'],
          summary: 'The steps to start selling: done, or what to do next',
          params: IdParams,
          response: { 200: MonetizationStepsSchema, ...errors },
        },
      },
      async (request) => (await monetization(request.params.id)).steps,
    );
  };
}
