import type { FastifyInstance } from 'fastify';
import { trustOptionsFromEnv, type TrustOptions } from './options';
import { trustRoutes } from './routes';

export { checkNewItem, flagForReview, renameRefusal, type NewItemVerdict } from './checks';
export { trustOptionsFromEnv, TrustConfigError, type TrustOptions } from './options';

/**
 * Supply-chain trust: the namespace routes (vendors claim id prefixes, administrators decide). The look-alike
 * and namespace rules of new items are called by the upload pipeline ({@link checkNewItem}).
 */
export default async function trust(
  app: FastifyInstance,
  partialOptions: Partial<TrustOptions> = {},
): Promise<void> {
  const options: TrustOptions = { ...trustOptionsFromEnv(), ...partialOptions };
  await app.register(trustRoutes(options));
}
