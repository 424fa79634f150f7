import type { FastifyInstance } from 'fastify';
import { trustOptionsFromEnv, type TrustOptions } from './options';
import { trustRoutes } from './routes';
import { scanningRoutes } from './scanning/routes';
import { mirrorRoutes } from './mirror/routes';
import { signatureRoutes } from './signature-routes';
import { signingOptionsFromEnv } from './signing-key';

export { checkNewItem, flagForReview, renameRefusal, type NewItemVerdict } from './checks';
export { trustedVendorIdsOf, vendorProtection } from './namespaces';
export { trustOptionsFromEnv, TrustConfigError, type TrustOptions } from './options';
export { checkAndCountersign, type SignedUpload, type SigningVerdict } from './archive-signing';
export {
  loadVersionSignatures,
  recordVersionSignature,
  vendorNamedForUpload,
  vendorOfPlugin,
  type UploadVendor,
} from './signature-requirements';
export { signingOptionsFromEnv, type SigningOptions } from './signing-key';

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
  // Scanning: the administrators' quarantine queue and decisions (the scans are the trust-scan job's).
  await app.register(scanningRoutes());
  // Archive signatures: the published certificate and the vendors that must sign (the upload checks and
  // countersigns through checkAndCountersign).
  await app.register(signatureRoutes(signingOptionsFromEnv()));
  // Mirroring: the administrators' upstreams (the sync itself is the scheduler's trust-mirror job).
  await app.register(mirrorRoutes);
}
