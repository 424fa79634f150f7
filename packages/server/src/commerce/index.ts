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
}

/**
 * Selling: the commerce routes, and the work of the job that records scheduled price changes as they take
 * effect ({@link applyScheduledPriceChanges}, run by the admin scheduler).
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
}

/**
 * Scheduled price changes, once: the admin scheduler (src/admin/scheduler) runs it every minute. Prices are
 * read by their effective time, so this only keeps the record and clears kept answers.
 */
export async function applyScheduledPriceChanges(app: FastifyInstance): Promise<string> {
  const pluginIds = await applyDuePriceChanges(app.db);
  if (pluginIds.length === 0) return 'No price change was due.';
  app.forgetCachedAnswers();
  app.log.info({ pluginIds }, 'scheduled price changes took effect');
  return `${pluginIds.length} scheduled price change(s) took effect.`;
}
