import formBody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { LicenseKeys } from './license-keys';
import type { CommerceEnvironment } from './orders';
import { invoiceProvider, type PaymentProvider } from './payments';
import { applyDuePriceChanges } from './pricing';
import { commerceRoutes } from './routes';

export { LicenseKeys } from './license-keys';
export { sellerOfPlugin } from './sellers';
export { applyDuePriceChanges } from './pricing';
export { sellingStatistic, type SellingMeasure } from './sales';
export type { PaymentProvider } from './payments';

export interface CommerceOptions {
  /** How orders are paid; the built-in invoice provider by default. */
  payments?: PaymentProvider;
  /** How often scheduled price changes are looked for, in ms (0: never, for tests that call the job). */
  priceChangeIntervalMs?: number;
}

/**
 * Selling: the commerce routes, and the job that records scheduled price changes as they take effect
 * (prices are read by their effective time, so the job only keeps the record and clears kept answers).
 */
export default async function commerce(app: FastifyInstance, options: CommerceOptions = {}): Promise<void> {
  const { currency, commissionPercent, invoiceDueDays } = app.config.commerce;
  const env: CommerceEnvironment = {
    db: app.db,
    currency,
    commissionPercent,
    keys: new LicenseKeys(app.db, app.config.publicUrl),
    payments: options.payments ?? invoiceProvider({ dueDays: invoiceDueDays }),
  };
  // subscriptions and selling-details take HTML form bodies (spec §7) besides JSON; only in this scope.
  await app.register(async (scope) => {
    await scope.register(formBody, { bodyLimit: 64 * 1024 });
    await scope.register(commerceRoutes(env));
  });

  const intervalMs = options.priceChangeIntervalMs ?? 60_000;
  if (intervalMs > 0) {
    const timer = setInterval(() => {
      applyDuePriceChanges(app.db)
        .then((pluginIds) => {
          if (pluginIds.length === 0) return;
          app.forgetCachedAnswers();
          app.log.info({ pluginIds }, 'scheduled price changes took effect');
        })
        .catch((error: unknown) => app.log.error({ err: error }, 'applying scheduled price changes failed'));
    }, intervalMs);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
}
