import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from '../support/browser';
import { startSiteServer } from './support/site-server';
import type { SiteServer } from './support/site-server';
import { getJson, signIn } from './support/site-pages';

const POLL = { timeout: 30_000, interval: 200 };

interface Summary {
  id: number;
  name: string;
  pricingModel: string;
}

/** A call to the API in Node, as one of the demo accounts (through a permanent token). */
async function call<T>(
  origin: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(new URL(path, origin), {
    method,
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok)
    throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * The plugin's offline check, as the selling guide shows it: the token's signature verified with the public
 * key alone (node:crypto here; the JDK's Ed25519 in a plugin), then its expiry and item.
 */
function verifyOffline(token: string, keys: JsonWebKey[]): Record<string, unknown> | undefined {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) return undefined;
  const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { kid?: string };
  const jwk = keys.find((key) => key.kid === kid);
  if (!jwk) return undefined;
  const publicKey = createPublicKey({ key: jwk, format: 'jwk' });
  if (!verify(null, Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url')))
    return undefined;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  return Number(claims.exp) * 1000 > Date.now() ? claims : undefined;
}

describe('buying a licence in Chromium', () => {
  let server: SiteServer;
  let browser: Browser;
  let item: Summary;
  let couponCode: string;

  beforeAll(async () => {
    server = await startSiteServer();
    browser = await launchChromium();
    // The developer sells one of their free demo plugins: apply to sell, approval, price, an offer and a coupon.
    const developer = server.createToken('developer', 'manage');
    const admin = server.createToken('admin', 'manage');
    const me = await call<{ id: number }>(server.origin, developer, 'GET', '/api/users/me');
    const mine = await getJson<Summary[]>(server.origin, `/api/users/${me.id}/plugins?size=100`, developer);
    const free = mine.find((candidate) => candidate.pricingModel === 'FREE');
    if (!free) throw new Error('The demo developer has no free plugin to sell.');
    item = free;
    const { vendorId } = await getJson<{ vendorId: number }>(
      server.origin,
      `/api/plugins/${item.id}/monetization`,
      developer,
    );
    await call(server.origin, developer, 'POST', '/api/marketplace/submit', {
      vendorId,
      legalName: 'Demo Developer GmbH',
      countryCode: 'DE',
      address: 'Unter den Linden 1, 10117 Berlin',
      billingEmail: 'billing@developer.example',
      payoutMethod: 'BANK_TRANSFER',
      payoutDetails: 'DE89 3704 0044 0532 0130 00',
    });
    await call(server.origin, admin, 'POST', `/api/marketplace/vendor/${vendorId}/approve`, {});
    await call(server.origin, developer, 'PUT', `/api/plugins/${item.id}`, { pricingModel: 'PAID' });
    await call(server.origin, developer, 'PUT', `/api/marketplace/plugin/${item.id}/prices`, {
      prices: [
        { licenseKind: 'PERSONAL', billingPeriod: 'YEARLY', amountMinor: 4_900 },
        { licenseKind: 'PERSONAL', billingPeriod: 'MONTHLY', amountMinor: 490 },
        { licenseKind: 'ORGANIZATION', billingPeriod: 'YEARLY', amountMinor: 9_900 },
        { licenseKind: 'ORGANIZATION', billingPeriod: 'MONTHLY', amountMinor: 990 },
      ],
    });
    const today = new Date().toISOString().slice(0, 10);
    const nextMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const offer = await call<{ id: number }>(
      server.origin,
      developer,
      'POST',
      `/api/marketplace/plugin/${item.id}/offers`,
      {
        name: 'E2E spring sale',
        discountKind: 'PERCENT',
        discountValue: 20,
        validFrom: today,
        validUntil: nextMonth,
        licenseKinds: ['PERSONAL'],
        maxUsesPerCoupon: 1,
      },
    );
    const [coupon] = await call<{ code: string }[]>(
      server.origin,
      developer,
      'POST',
      `/api/marketplace/plugin/${item.id}/offers/${offer.id}/coupons?numberOfCoupons=1`,
    );
    couponCode = coupon!.code;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('quotes with a coupon, orders, gets the invoice paid by an administrator, and the licence verifies', async () => {
    const buyer = await openPage(browser);
    const admin = await openPage(browser);
    const vendor = await openPage(browser);
    try {
      // The buyer: pricing tab, a coupon, the quote, the order with its invoice.
      const page = buyer.page;
      await page.goto(`${server.origin}/plugin/${item.id}/pricing`);
      await signIn(page, 'visitor', server.passwords.visitor);
      await page.getByRole('table', { name: 'Prices per licence and billing period' }).waitFor(POLL);
      await page.getByRole('cell', { name: '$49.00 / year' }).waitFor();
      await page.getByLabel('Coupon code').fill(couponCode.toLowerCase());
      await page.getByRole('button', { name: 'Apply coupon' }).click();
      await page.getByText(`Coupon ${couponCode} applied.`).waitFor(POLL);
      const quote = page.getByRole('table', { name: 'Your quote' });
      await quote.getByRole('row', { name: /Total\s+\$39\.20/ }).waitFor(POLL);
      await quote.getByRole('row', { name: new RegExp(`Coupon ${couponCode}.*−\\$9\\.80`) }).waitFor();
      await page.getByLabel('Billing country (two-letter code)').fill('de');
      await page.getByText('Germany').waitFor();
      await page.getByRole('button', { name: 'Place order' }).click();
      const placed = page.getByRole('status').filter({ hasText: /Order \d+ is placed/ });
      await placed.waitFor(POLL);
      const invoiceNumber = /invoice (INV-\d{4}-\d{6})/.exec(await placed.innerText())?.[1];
      expect(invoiceNumber).toBeDefined();

      // The administrator marks the invoice paid.
      await admin.page.goto(`${server.origin}/admin`);
      await signIn(admin.page, 'admin', server.passwords.admin);
      const invoiceRow = admin.page.getByRole('row').filter({ hasText: invoiceNumber! });
      await invoiceRow.getByRole('button', { name: 'Mark paid' }).click();
      await invoiceRow
        .getByRole('button', { name: 'Mark paid' })
        .waitFor({ state: 'detached', timeout: 30_000 });

      // The buyer's licence: shown, checked by the marketplace, and verified offline with the public key.
      await page.goto(`${server.origin}/account/licenses`);
      const licence = page
        .getByRole('article', { name: `Licence for ${item.name}` })
        .filter({ hasNotText: 'Trial' });
      await licence.waitFor(POLL);
      await licence.getByRole('button', { name: 'Check this licence' }).click();
      await licence.getByText(/^Valid: signed by this marketplace/).waitFor(POLL);
      const token = await licence.getByRole('textbox').inputValue();
      const { keys } = await getJson<{ keys: JsonWebKey[] }>(
        server.origin,
        '/api/marketplace/licenses/public-key',
      );
      expect(verifyOffline(token, keys)).toMatchObject({
        pid: item.id,
        kind: 'PERSONAL',
        seats: 1,
        trial: false,
      });
      expect(verifyOffline(`${token.slice(0, -3)}AAA`, keys)).toBeUndefined();

      // The vendor sees the sale on the sales tab and in the CSV.
      await vendor.page.goto(`${server.origin}/plugin/${item.id}/sales`);
      await signIn(vendor.page, 'developer', server.passwords.developer);
      const saleRow = vendor.page.getByRole('row').filter({ hasText: '$49.00' }).filter({ hasText: 'DE' });
      await saleRow.first().waitFor(POLL);
      const download = vendor.page.waitForEvent('download');
      await vendor.page.getByRole('button', { name: 'Download CSV' }).click();
      const file = await download;
      const path = await file.path();
      const { readFile } = await import('node:fs/promises');
      const csv = await readFile(path, 'utf8');
      expect(csv.split('\r\n')[0]).toBe(
        'sale_id,date,license_kind,billing_period,quantity,country,currency,gross,discounts,commission,net',
      );
      expect(csv).toMatch(/,PERSONAL,YEARLY,1,DE,USD,49\.00,9\.80,5\.88,33\.32\r\n/);
      expect(buyer.errors).toEqual([]);
    } finally {
      await buyer.context.close();
      await admin.context.close();
      await vendor.context.close();
    }
  });
});
