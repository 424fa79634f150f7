import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, signaturePaths } from '../src';
import { recording, startHttpDouble, type HttpDouble } from './support/http-double';

let double: HttpDouble;
const seen: string[] = [];

beforeAll(async () => {
  double = await startHttpDouble();
  double.on('/api/trust/certificate/details', recording(seen, { downloadPath: '/api/trust/certificate' }));
  double.on('/api/admin/trust/signature-requirements', recording(seen, { vendor: { id: 7, name: 'Acme' } }));
  double.on(
    '/api/admin/trust/signature-requirements/7/lift',
    recording(seen, { vendor: { id: 7, name: 'Acme' } }),
  );
});
afterAll(async () => double.close());

describe('the signatures client', () => {
  it('builds the paths, refusing an id that is none', () => {
    expect(signaturePaths.certificate()).toBe('/api/trust/certificate');
    expect(signaturePaths.certificateDetails()).toBe('/api/trust/certificate/details');
    expect(signaturePaths.requirements()).toBe('/api/admin/trust/signature-requirements');
    expect(signaturePaths.lift(7)).toBe('/api/admin/trust/signature-requirements/7/lift');
    expect(() => signaturePaths.lift(0)).toThrow(RangeError);
  });

  it('reads the certificate and sends the administrators’ decisions with their bodies', async () => {
    const client = createApiClient({ baseUrl: double.origin });
    expect((await client.signatures.certificate()).downloadPath).toBe('/api/trust/certificate');
    await client.signatures.require('Acme', 'Has a CA');
    await client.signatures.require('Acme');
    await client.signatures.lift(7);
    expect(seen).toEqual([
      'GET /api/trust/certificate/details ',
      'POST /api/admin/trust/signature-requirements {"vendor":"Acme","reason":"Has a CA"}',
      'POST /api/admin/trust/signature-requirements {"vendor":"Acme"}',
      'POST /api/admin/trust/signature-requirements/7/lift {}',
    ]);
  });
});
