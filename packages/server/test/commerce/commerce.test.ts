import { createPublicKey, verify } from 'node:crypto';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type {
  CouponAnswer,
  LicenseBody,
  LicenseVerificationBody,
  MonetizationBody,
  OfferAnswer,
  OrderAnswer,
  PricingBody,
  QuoteBody,
  SalesAnalyticsBody,
  SalesInfoBody,
  SellerBody,
} from '@marketplace/api-contract';
import { applyDuePriceChanges } from '../../src/commerce';
import { loadPriceLists } from '../../src/commerce/pricing';
import { selectRows } from '../../src/search/sql';
import { archiveBytes, pluginJarContent, pluginXml } from '../archive/plugin-fixtures';
import { multipartBody } from '../publishing/publishing-test-app';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

/*
 * Selling through the real application: a vendor becomes a seller, prices an item, makes an offer with
 * coupons; a buyer tries the item, gets a quote, orders with a coupon; an administrator marks the invoice
 * paid; the buyer's licence verifies with the published key; the sale shows in the vendor's sales.
 */

let t: ReviewsTestApp;
const people = { vendor: 0, buyer: 0, stranger: 0, admin: 0 };
let pluginId = 0;
let vendorId = 0;
let offer: OfferAnswer;
let coupons: CouponAnswer[];

async function insertedId(statement: ReturnType<typeof sql>): Promise<number> {
  const [row] = await selectRows<{ id: number }>(t.db, statement);
  return row!.id;
}

beforeAll(async () => {
  t = await createReviewsTestApp({ catalogue: false });
  people.vendor = await t.addUser('seller-vendor');
  people.buyer = await t.addUser('buyer');
  people.stranger = await t.addUser('stranger');
  people.admin = await t.addUser('admin', { isAdmin: true });
  vendorId = await insertedId(sql`INSERT INTO vendors (name) VALUES ('Acme Tools') RETURNING id`);
  pluginId = await insertedId(
    sql`INSERT INTO plugins (family, xml_id, name, owner_id, vendor_id, lifecycle_state, approved, published_at)
      VALUES ('intellij', 'com.acme.pro', 'Acme Pro', ${people.vendor}, ${vendorId}, 'published', true, now())
      RETURNING id`,
  );
  await t.db.execute(
    sql`INSERT INTO plugin_versions (plugin_id, version, since_build, since_components, file_hash, file_size,
        file_name, approval_state, product_code, product_release_date, product_release_version, product_optional)
      VALUES (${pluginId}, '1.0', '241', '{241}', 'no-file', 0, 'acme.zip', 'approved', 'PACMEPRO', '2026-01-15',
        20261, false)`,
  );
});

afterAll(async () => t?.close());

const json = <T>(response: { json(): unknown }) => response.json() as T;

describe('becoming a seller', () => {
  it('refuses a paid pricing model before the vendor is approved', async () => {
    const response = await t.call(people.vendor, {
      method: 'PUT',
      url: `/api/plugins/${pluginId}`,
      payload: { pricingModel: 'PAID' },
    });
    expect(response.statusCode).toBe(400);
    expect(json<{ message: string }>(response).message).toMatch(/Only approved sellers/);
  });

  it('takes an application from the vendor’s people only, and an administrator approves it', async () => {
    const application = {
      vendorId,
      legalName: 'Acme Tools s.r.o.',
      countryCode: 'CZ',
      address: 'Na Příkopě 1, 110 00 Praha',
      billingEmail: 'billing@acme.example',
      payoutMethod: 'BANK_TRANSFER',
      payoutDetails: 'CZ65 0800 0000 1920 0014 5399',
    };
    const stranger = await t.call(people.stranger, {
      method: 'POST',
      url: '/api/marketplace/submit',
      payload: application,
    });
    expect(stranger.statusCode).toBe(403);
    const badCountry = await t.call(people.vendor, {
      method: 'POST',
      url: '/api/marketplace/submit',
      payload: { ...application, countryCode: 'Czechia' },
    });
    expect(badCountry.statusCode).toBe(400);

    const submitted = await t.call(people.vendor, {
      method: 'POST',
      url: '/api/marketplace/submit',
      payload: application,
    });
    expect(submitted.statusCode).toBe(201);
    expect(json<SellerBody>(submitted)).toMatchObject({ status: 'PENDING', canSell: false });

    // The public sees whether the vendor sells, never its payout details.
    const publicView = json<SellerBody>(
      await t.call(undefined, { method: 'GET', url: `/api/marketplace/vendor/${vendorId}` }),
    );
    expect(publicView).toMatchObject({ status: 'PENDING', details: null });

    const byVendor = await t.call(people.vendor, {
      method: 'POST',
      url: `/api/marketplace/vendor/${vendorId}/approve`,
    });
    expect(byVendor.statusCode).toBe(403);
    const approved = await t.call(people.admin, {
      method: 'POST',
      url: `/api/marketplace/vendor/${vendorId}/approve`,
      payload: {},
    });
    expect(json<SellerBody>(approved)).toMatchObject({ status: 'APPROVED', canSell: true });
    const again = await t.call(people.admin, {
      method: 'POST',
      url: `/api/marketplace/vendor/${vendorId}/reject`,
      payload: {},
    });
    expect(again.statusCode).toBe(409);

    const paid = await t.call(people.vendor, {
      method: 'PUT',
      url: `/api/plugins/${pluginId}`,
      payload: { pricingModel: 'PAID' },
    });
    expect(paid.statusCode).toBe(200);
  });
});

describe('prices, discounts and offers', () => {
  it('refuses amounts that are not whole non-negative minor units, and changes nothing', async () => {
    for (const amountMinor of [-100, 19.99, '12,00']) {
      const response = await t.call(people.vendor, {
        method: 'PUT',
        url: `/api/marketplace/plugin/${pluginId}/prices`,
        payload: { prices: [{ licenseKind: 'PERSONAL', billingPeriod: 'YEARLY', amountMinor }] },
      });
      expect(response.statusCode).toBe(400);
    }
    const pricing = json<PricingBody>(
      await t.call(undefined, { method: 'GET', url: `/api/marketplace/plugin/${pluginId}/prices` }),
    );
    expect(pricing.prices).toEqual([]);
    expect(pricing.forSale).toBe(false);
  });

  it('sets prices, volume tiers and a continuity discount the pricing tab shows', async () => {
    const prices = [
      { licenseKind: 'PERSONAL', billingPeriod: 'YEARLY', amountMinor: 9_900 },
      { licenseKind: 'PERSONAL', billingPeriod: 'MONTHLY', amountMinor: 990 },
      { licenseKind: 'ORGANIZATION', billingPeriod: 'YEARLY', amountMinor: 19_900 },
      { licenseKind: 'ORGANIZATION', billingPeriod: 'MONTHLY', amountMinor: 1_990 },
    ];
    const stranger = await t.call(people.stranger, {
      method: 'PUT',
      url: `/api/marketplace/plugin/${pluginId}/prices`,
      payload: { prices },
    });
    expect(stranger.statusCode).toBe(403);
    const set = await t.call(people.vendor, {
      method: 'PUT',
      url: `/api/marketplace/plugin/${pluginId}/prices`,
      payload: { prices },
    });
    expect(set.statusCode).toBe(200);
    const tiers = await t.call(people.vendor, {
      method: 'PUT',
      url: `/api/marketplace/plugin/${pluginId}/volume-discounts`,
      payload: {
        tiers: [
          { minQuantity: 10, percent: 10 },
          { minQuantity: 5, percent: 5 },
        ],
      },
    });
    expect(tiers.json()).toEqual({
      tiers: [
        { minQuantity: 5, percent: 5 },
        { minQuantity: 10, percent: 10 },
      ],
    });
    const overHundred = await t.call(people.vendor, {
      method: 'PUT',
      url: `/api/marketplace/plugin/${pluginId}/continuity-discount`,
      payload: { steps: [{ year: 2, percent: 120 }] },
    });
    expect(overHundred.statusCode).toBe(400);

    const pricing = json<PricingBody>(
      await t.call(undefined, { method: 'GET', url: `/api/marketplace/plugin/${pluginId}/prices` }),
    );
    expect(pricing).toMatchObject({ forSale: true, currency: 'USD', trialDays: 30 });
    expect(pricing.prices).toHaveLength(4);
    const base = await t.call(undefined, { method: 'GET', url: `/api/marketplace/plugin/${pluginId}` });
    expect(base.json()).toEqual(pricing);
    expect(pricing.continuityDiscounts).toEqual([
      { year: 2, percent: 20 },
      { year: 3, percent: 40 },
    ]);
  });

  it('finds the item by the community programs it offers', async () => {
    const search = async () =>
      json<{ plugins: { id: number }[] }>(
        await t.call(undefined, { method: 'GET', url: '/api/searchPlugins?communityPrograms=STUDENTS' }),
      ).plugins.map((plugin) => plugin.id);
    expect(await search()).toEqual([]);
    const set = await t.call(people.vendor, {
      method: 'PUT',
      url: `/api/marketplace/plugin/${pluginId}/programs`,
      payload: { programs: [{ program: 'STUDENTS', percent: 100 }] },
    });
    expect(set.statusCode).toBe(200);
    expect(await search()).toEqual([pluginId]);
    const unknown = await t.call(undefined, {
      method: 'GET',
      url: '/api/searchPlugins?communityPrograms=PENSIONERS',
    });
    expect(unknown.statusCode).toBe(400);
  });

  it('announces a scheduled price change, which takes effect on its day', async () => {
    const tomorrow = new Date(Date.now() + 24 * 3600 * 1000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 24 * 3600 * 1000).toISOString().slice(0, 10);
    const past = await t.call(people.vendor, {
      method: 'POST',
      url: `/api/marketplace/plugin/${pluginId}/schedule-price-change`,
      payload: {
        effectiveDate: yesterday,
        prices: [{ licenseKind: 'PERSONAL', billingPeriod: 'YEARLY', amountMinor: 12_900 }],
      },
    });
    expect(past.statusCode).toBe(400);
    const scheduled = await t.call(people.vendor, {
      method: 'POST',
      url: `/api/marketplace/plugin/${pluginId}/schedule-price-change`,
      payload: {
        effectiveDate: tomorrow,
        prices: [{ licenseKind: 'PERSONAL', billingPeriod: 'YEARLY', amountMinor: 12_900 }],
      },
    });
    expect(scheduled.statusCode).toBe(201);
    const pricing = json<PricingBody>(
      await t.call(undefined, { method: 'GET', url: `/api/marketplace/plugin/${pluginId}/prices` }),
    );
    expect(pricing.scheduledChanges).toEqual([
      {
        id: expect.any(Number),
        effectiveDate: tomorrow,
        prices: [{ licenseKind: 'PERSONAL', billingPeriod: 'YEARLY', amountMinor: 12_900 }],
      },
    ]);
    expect(
      pricing.prices.find((price) => price.billingPeriod === 'YEARLY' && price.licenseKind === 'PERSONAL')
        ?.amountMinor,
    ).toBe(9_900);

    // On its day the new list is the current one, and the job records that it took effect.
    const dayAfter = new Date(Date.now() + 2 * 24 * 3600 * 1000);
    expect((await loadPriceLists(t.db, pluginId, dayAfter)).current).toEqual([
      { licenseKind: 'PERSONAL', billingPeriod: 'YEARLY', amountMinor: 12_900 },
    ]);
    expect(await applyDuePriceChanges(t.db, dayAfter)).toEqual([pluginId]);
    expect(await applyDuePriceChanges(t.db, dayAfter)).toEqual([]);

    // Cancelled, so it never happens here.
    const cancel = await t.call(people.vendor, {
      method: 'DELETE',
      url: `/api/marketplace/plugin/${pluginId}/schedule-price-change/${json<{ id: number }>(scheduled).id}`,
    });
    expect(cancel.statusCode).toBe(204);
  });

  it('makes offers, refusing ones that overlap another for the same licences', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const inAMonth = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    const body = {
      name: 'Launch week',
      discountKind: 'PERCENT',
      discountValue: 25,
      validFrom: today,
      validUntil: inAMonth,
      licenseKinds: ['PERSONAL'],
      maxUsesPerCoupon: 1,
    };
    const tooMuch = await t.call(people.vendor, {
      method: 'POST',
      url: `/api/marketplace/plugin/${pluginId}/offers`,
      payload: { ...body, discountValue: 150 },
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(json<{ message: string }>(tooMuch).message).toMatch(/more than 100%/);
    const created = await t.call(people.vendor, {
      method: 'POST',
      url: `/api/marketplace/plugin/${pluginId}/offers`,
      payload: body,
    });
    expect(created.statusCode).toBe(201);
    offer = json<OfferAnswer>(created);
    expect(offer).toMatchObject({ validFrom: today, validUntil: inAMonth, couponCount: 0 });
    const overlapping = await t.call(people.vendor, {
      method: 'POST',
      url: `/api/marketplace/plugin/${pluginId}/offers`,
      payload: { ...body, name: 'Overlap', licenseKinds: [] },
    });
    expect(overlapping.statusCode).toBe(400);
    expect(json<{ message: string }>(overlapping).message).toMatch(/overlaps the offer "Launch week"/);
    const otherKind = await t.call(people.vendor, {
      method: 'POST',
      url: `/api/marketplace/plugin/${pluginId}/offers`,
      payload: {
        ...body,
        name: 'Teams',
        licenseKinds: ['ORGANIZATION'],
        discountKind: 'AMOUNT',
        discountValue: 5_000,
      },
    });
    expect(otherKind.statusCode).toBe(201);
  });

  it('generates coupons and marks them sent; only the item’s people see them', async () => {
    const response = await t.call(people.vendor, {
      method: 'POST',
      url: `/api/marketplace/plugin/${pluginId}/offers/${offer.id}/coupons?numberOfCoupons=3`,
    });
    expect(response.statusCode).toBe(201);
    coupons = json<CouponAnswer[]>(response);
    expect(new Set(coupons.map((coupon) => coupon.code)).size).toBe(3);
    const sent = await t.call(people.vendor, {
      method: 'POST',
      url: `/api/marketplace/plugin/${pluginId}/coupons/${coupons[0]!.id}/sent`,
      payload: { sentTo: 'buyer@example.com' },
    });
    expect(json<CouponAnswer>(sent)).toMatchObject({
      sentTo: 'buyer@example.com',
      sentAt: expect.any(Number),
    });
    for (const [who, status] of [
      [undefined, 401],
      [people.buyer, 403],
    ] as const) {
      for (const path of [
        'offers',
        'coupons',
        `offers/${offer.id}/coupons`,
        'sales-info',
        'analytics',
        'full-report',
      ]) {
        const answer = await t.call(who, {
          method: 'GET',
          url: `/api/marketplace/plugin/${pluginId}/${path}`,
        });
        expect(answer.statusCode, `${path} for ${who ?? 'a guest'}`).toBe(status);
      }
    }
    // Asked for at the item's level, coupons need the offer named when several are valid today.
    const ambiguous = await t.call(people.vendor, {
      method: 'POST',
      url: `/api/marketplace/plugin/${pluginId}/coupons?numberOfCoupons=2`,
    });
    expect(ambiguous.statusCode).toBe(400);
    const named = await t.call(people.vendor, {
      method: 'POST',
      url: `/api/marketplace/plugin/${pluginId}/coupons?numberOfCoupons=2&offerId=${offer.id}`,
    });
    expect(json<CouponAnswer[]>(named).map((coupon) => coupon.offerId)).toEqual([offer.id, offer.id]);
    const tooMany = await t.call(people.vendor, {
      method: 'POST',
      url: `/api/marketplace/plugin/${pluginId}/offers/${offer.id}/coupons?numberOfCoupons=0`,
    });
    expect(tooMany.statusCode).toBe(400);
  });

  it('quotes with each discount in order, and says why a coupon does not apply', async () => {
    const code = coupons[1]!.code;
    const quote = json<QuoteBody>(
      await t.call(undefined, {
        method: 'GET',
        url: `/api/marketplace/plugin/${pluginId}/apply/${code.toLowerCase()}?quantity=1&licenseKind=PERSONAL&billingPeriod=YEARLY`,
      }),
    );
    expect(quote.lines.map((line) => [line.kind, line.amountMinor])).toEqual([
      ['LIST', 9_900],
      ['COUPON', -2_475],
    ]);
    expect(quote).toMatchObject({ totalMinor: 7_425, coupon: { code, applied: true, reason: null } });

    const team = json<QuoteBody>(
      await t.call(undefined, {
        method: 'GET',
        url: `/api/marketplace/plugin/${pluginId}/apply/${code}?quantity=10&licenseKind=ORGANIZATION&billingPeriod=YEARLY`,
      }),
    );
    expect(team.coupon).toEqual({
      code,
      applied: false,
      reason: 'This coupon is not valid for this kind of licence.',
    });
    expect(team.lines.map((line) => [line.kind, line.amountMinor])).toEqual([
      ['LIST', 199_000],
      ['VOLUME', -19_900],
    ]);
    const unknown = json<QuoteBody>(
      await t.call(undefined, {
        method: 'GET',
        url: `/api/marketplace/plugin/${pluginId}/apply/NOPE?quantity=1`,
      }),
    );
    expect(unknown.coupon?.reason).toBe('There is no such coupon.');
    const zero = await t.call(undefined, {
      method: 'GET',
      url: `/api/marketplace/plugin/${pluginId}/quote?quantity=0`,
    });
    expect(zero.statusCode).toBe(400);
  });
});

describe('buying', () => {
  it('gives one trial per customer, as a signed licence', async () => {
    const first = await t.call(people.buyer, {
      method: 'POST',
      url: `/api/marketplace/plugin/${pluginId}/trial`,
    });
    expect(first.statusCode).toBe(201);
    expect(json<LicenseBody>(first)).toMatchObject({
      trial: true,
      seats: 1,
      licenseKind: 'PERSONAL',
      productCode: 'PACMEPRO',
    });
    const second = await t.call(people.buyer, {
      method: 'POST',
      url: `/api/marketplace/plugin/${pluginId}/trial`,
    });
    expect(second.statusCode).toBe(400);
    expect(json<{ message: string }>(second).message).toMatch(/already tried Acme Pro/);
  });

  let order: OrderAnswer;
  it('places an order with a coupon; the coupon is spent; a used-up coupon is refused', async () => {
    const code = coupons[2]!.code;
    const placed = await t.call(people.buyer, {
      method: 'POST',
      url: '/api/marketplace/orders',
      payload: {
        pluginId,
        licenseKind: 'PERSONAL',
        billingPeriod: 'YEARLY',
        quantity: 1,
        couponCode: code,
        licensee: 'Jana Nováková',
        countryCode: 'CZ',
      },
    });
    expect(placed.statusCode).toBe(201);
    order = json<OrderAnswer>(placed);
    expect(order).toMatchObject({
      status: 'AWAITING_PAYMENT',
      totalMinor: 7_425,
      invoice: { status: 'OPEN', amountMinor: 7_425 },
    });
    expect(order.invoice?.number).toMatch(/^INV-\d{4}-\d{6}$/);

    const again = await t.call(people.stranger, {
      method: 'POST',
      url: '/api/marketplace/orders',
      payload: {
        pluginId,
        licenseKind: 'PERSONAL',
        billingPeriod: 'YEARLY',
        quantity: 1,
        couponCode: code,
        licensee: 'Someone Else',
        countryCode: 'DE',
      },
    });
    expect(again.statusCode).toBe(400);
    expect(json<{ message: string }>(again).message).toBe('This coupon has been used up.');
    const ordersOfStranger = json<OrderAnswer[]>(
      await t.call(people.stranger, { method: 'GET', url: '/api/marketplace/orders' }),
    );
    expect(ordersOfStranger).toEqual([]);
    expect(
      (await t.call(people.stranger, { method: 'GET', url: `/api/marketplace/orders/${order.id}` }))
        .statusCode,
    ).toBe(403);
    const badQuantity = await t.call(people.buyer, {
      method: 'POST',
      url: '/api/marketplace/orders',
      payload: {
        pluginId,
        licenseKind: 'ORGANIZATION',
        billingPeriod: 'YEARLY',
        quantity: 0,
        licensee: 'Acme',
        countryCode: 'CZ',
      },
    });
    expect(badQuantity.statusCode).toBe(400);
  });

  it('issues the licence when an administrator marks the invoice paid, and records the sale', async () => {
    const byBuyer = await t.call(people.buyer, {
      method: 'POST',
      url: `/api/marketplace/invoices/${order.invoice!.id}/paid`,
    });
    expect(byBuyer.statusCode).toBe(403);
    const open = json<OrderAnswer[]>(
      await t.call(people.admin, { method: 'GET', url: '/api/marketplace/invoices?status=OPEN' }),
    );
    expect(open.map((candidate) => candidate.id)).toContain(order.id);
    const paid = await t.call(people.admin, {
      method: 'POST',
      url: `/api/marketplace/invoices/${order.invoice!.id}/paid`,
    });
    expect(paid.statusCode).toBe(200);
    expect(json<OrderAnswer>(paid)).toMatchObject({
      status: 'PAID',
      invoice: { status: 'PAID' },
      licenseId: expect.any(Number),
    });
    const twice = await t.call(people.admin, {
      method: 'POST',
      url: `/api/marketplace/invoices/${order.invoice!.id}/paid`,
    });
    expect(twice.statusCode).toBe(409);

    const licences = json<LicenseBody[]>(
      await t.call(people.buyer, { method: 'GET', url: '/api/marketplace/licenses' }),
    );
    const bought = licences.find((licence) => !licence.trial)!;
    expect(bought).toMatchObject({ licensee: 'Jana Nováková', seats: 1, pluginId });
    const year = bought.expiresAt - bought.startsAt;
    expect(year).toBeGreaterThanOrEqual(365 * 24 * 3600 * 1000);

    // The plugin's offline check: the public key alone verifies the token.
    const keys = await t.call(undefined, { method: 'GET', url: '/api/marketplace/licenses/public-key' });
    const { payload } = await jwtVerify(bought.token, createLocalJWKSet(keys.json()), {
      issuer: t.config.publicUrl,
    });
    expect(payload).toMatchObject({
      pid: pluginId,
      xid: 'com.acme.pro',
      pcode: 'PACMEPRO',
      licensee: 'Jana Nováková',
      trial: false,
    });
    // The check docs/selling.md gives plugins: the raw key "x" behind the Ed25519 SPKI prefix, JDK-style.
    const { keys: jwks } = keys.json<{ keys: { x: string }[] }>();
    const [header, body, signature] = bought.token.split('.') as [string, string, string];
    const spki = Buffer.concat([
      Buffer.from('302a300506032b6570032100', 'hex'),
      Buffer.from(jwks[0]!.x, 'base64url'),
    ]);
    const publicKey = createPublicKey({ key: spki, format: 'der', type: 'spki' });
    expect(
      verify(null, Buffer.from(`${header}.${body}`), publicKey, Buffer.from(signature, 'base64url')),
    ).toBe(true);
    expect(
      verify(null, Buffer.from(`${header}.${body}x`), publicKey, Buffer.from(signature, 'base64url')),
    ).toBe(false);
    const verified = json<LicenseVerificationBody>(
      await t.call(undefined, {
        method: 'POST',
        url: '/api/marketplace/licenses/verify',
        payload: { token: bought.token },
      }),
    );
    expect(verified).toMatchObject({ valid: true, claims: { pluginId, seats: 1, licenseKind: 'PERSONAL' } });
    const tampered = `${bought.token.slice(0, -4)}AAAA`;
    const refused = json<LicenseVerificationBody>(
      await t.call(undefined, {
        method: 'POST',
        url: '/api/marketplace/licenses/verify',
        payload: { token: tampered },
      }),
    );
    expect(refused).toEqual({
      valid: false,
      reason: 'The licence was not issued by this marketplace.',
      claims: null,
    });

    const sales = json<SalesInfoBody>(
      await t.call(people.vendor, { method: 'GET', url: `/api/marketplace/plugin/${pluginId}/sales-info` }),
    );
    expect(sales.total).toBe(1);
    expect(sales.sales[0]).toMatchObject({
      countryCode: 'CZ',
      grossMinor: 9_900,
      discountMinor: 2_475,
      commissionMinor: 1_114,
      netMinor: 6_311,
    });
    const csv = await t.call(people.vendor, {
      method: 'GET',
      url: `/api/marketplace/plugin/${pluginId}/full-report`,
    });
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body.split('\r\n')[1]).toMatch(
      /^\d+,\d{4}-\d{2}-\d{2},PERSONAL,YEARLY,1,CZ,USD,99\.00,24\.75,11\.14,63\.11$/,
    );
    const analytics = json<SalesAnalyticsBody>(
      await t.call(people.vendor, { method: 'GET', url: `/api/marketplace/plugin/${pluginId}/analytics` }),
    );
    const thisMonth = analytics.months.at(-1)!;
    expect(thisMonth).toMatchObject({
      sales: 1,
      grossMinor: 9_900,
      netMinor: 6_311,
      trials: 1,
      salesAfterTrial: 1,
    });
    expect(analytics.trialConversionPercent).toBe(100);
  });

  it('lists the steps to sell with what is done', async () => {
    const monetization = json<MonetizationBody>(
      await t.call(people.vendor, { method: 'GET', url: `/api/plugins/${pluginId}/monetization` }),
    );
    expect(monetization.steps.map((step) => [step.step, step.done])).toEqual([
      ['SELLER_APPROVED', true],
      ['PRICES_SET', true],
      ['PRODUCT_DESCRIPTOR', true],
      ['LICENSE_CHECK', false],
      ['ITEM_APPROVED', true],
    ]);
    const details = await t.call(people.vendor, {
      method: 'PUT',
      url: `/api/plugins/${pluginId}/selling-details`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload:
        'eulaUrl=https%3A%2F%2Facme.example%2Feula&supportEmail=help%40acme.example&licenseCheckDocumented=true',
    });
    expect(details.statusCode).toBe(200);
    const steps = json<MonetizationBody['steps']>(
      await t.call(people.vendor, { method: 'GET', url: `/api/plugins/${pluginId}/monetization/steps` }),
    );
    expect(steps.every((step) => step.done)).toBe(true);
    const badTrial = await t.call(people.vendor, {
      method: 'PUT',
      url: `/api/plugins/${pluginId}/subscriptions`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'trialDays=3&monthly=true&yearly=true&personal=true&organization=true',
    });
    expect(badTrial.statusCode).toBe(400);
    expect(json<{ message: string }>(badTrial).message).toMatch(/from 7 to 90 days/);
  });
});

describe('uploads of paid items', () => {
  it('refuses a version of a paid item without <product-descriptor>, and keeps one that declares it', async () => {
    const upload = async (extra: string) => {
      const archive = await archiveBytes(
        pluginJarContent(
          pluginXml({
            id: '<id>com.acme.pro</id>',
            version: `<version>${extra ? '1.1' : '1.2'}</version>`,
            depends: `<depends>com.intellij.modules.platform</depends>${extra}`,
          }),
        ),
      );
      const { body, headers } = multipartBody(
        { pluginId: String(pluginId) },
        { name: 'acme.jar', content: archive },
      );
      return t.call(people.vendor, { method: 'POST', url: '/api/updates/upload', payload: body, headers });
    };
    const missing = await upload('');
    expect(missing.statusCode).toBe(400);
    expect(json<{ errors: string[] }>(missing).errors[0]).toMatch(
      /must declare its product: add <product-descriptor/,
    );
    const declared = await upload(
      '<product-descriptor code="PACMEPRO" release-date="20260301" release-version="20262"/>',
    );
    expect(declared.statusCode).toBe(200);
    const releases = await t.call(undefined, {
      method: 'GET',
      url: `/api/marketplace/plugin/${pluginId}/release-infos`,
    });
    expect(releases.json()).toEqual([
      {
        productCode: 'PACMEPRO',
        releaseVersion: 20261,
        releaseDate: '2026-01-15',
        version: '1.0',
        optional: false,
      },
      {
        productCode: 'PACMEPRO',
        releaseVersion: 20262,
        releaseDate: '2026-03-01',
        version: '1.1',
        optional: false,
      },
    ]);
  });
});

describe('the API description', () => {
  it('describes every selling path of spec §7 in the OpenAPI document', async () => {
    const document = json<{ paths: Record<string, Record<string, unknown>> }>(
      await t.call(undefined, { method: 'GET', url: '/api/openapi.json' }),
    );
    const plugin = '/api/marketplace/plugin/{id}';
    const expected: [string, string][] = [
      [plugin, 'get'],
      ...[
        'prices',
        'sales-info',
        'programs',
        'user/programs',
        'release-infos',
        'schedule-price-change',
        'volume-discounts',
        'trial',
        'continuity-discount',
        'analytics',
        'full-report',
        'offers',
      ].map((section): [string, string] => [`${plugin}/${section}`, 'get']),
      [`${plugin}/apply/{code}`, 'get'],
      [`${plugin}/offers/{offerId}`, 'put'],
      [`${plugin}/offers/{offerId}/coupons`, 'post'],
      [`${plugin}/coupons`, 'post'],
      [`${plugin}/coupons/{couponId}/sent`, 'post'],
      ['/api/marketplace/vendor/{id}', 'get'],
      ['/api/marketplace/submit', 'post'],
      ['/api/plugins/{id}/monetization', 'get'],
      ['/api/plugins/{id}/monetization/steps', 'get'],
      ['/api/plugins/{id}/subscriptions', 'put'],
      ['/api/plugins/{id}/selling-details', 'put'],
    ];
    const missing = expected.filter(([path, method]) => document.paths[path]?.[method] === undefined);
    expect(missing).toEqual([]);
  });
});
