import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, verificationPaths } from '../src';
import { recording, startHttpDouble, type HttpDouble } from './support/http-double';

let double: HttpDouble;
const seen: string[] = [];

beforeAll(async () => {
  double = await startHttpDouble();
  double.on('/api/verifications/update/7', recording(seen, { id: 1, state: 'queued' }, 202));
  double.on('/api/verifications/false-positive', recording(seen, { id: 3 }, 201));
  double.on('/api/verifications/false-positive/global', recording(seen, { id: 4 }, 201));
  double.on('/api/verifications/12/previous', recording(seen, { previous: null }));
});
afterAll(async () => double.close());

describe('the verification client', () => {
  it('builds the spec’s paths', () => {
    expect(verificationPaths.queue({ state: 'failed', max: 5 })).toBe(
      '/api/verifications?state=failed&max=5',
    );
    expect(verificationPaths.verifierVersion()).toBe('/api/verifications/intellij-verifier-version');
    expect(verificationPaths.application(3)).toBe('/api/verifications/application/3');
    expect(verificationPaths.update(7, 'bytecode')).toBe(
      '/api/verifications/update/7?verificationType=bytecode',
    );
    expect(verificationPaths.updateProducts(7)).toBe('/api/verifications/update/7/products');
    expect(verificationPaths.discard(12)).toBe('/api/verifications/discard/12');
    expect(verificationPaths.verification(12)).toBe('/api/verifications/12');
    expect(verificationPaths.verification(12, 'descriptor')).toBe(
      '/api/verifications/12?verificationType=descriptor',
    );
    expect(verificationPaths.previous(12)).toBe('/api/verifications/12/previous');
    expect(verificationPaths.falsePositivesOfPlugin(3)).toBe('/api/verifications/false-positive/plugin/3');
    expect(() => verificationPaths.verification(0)).toThrow(RangeError);
  });

  it('sends the writes with the right methods and bodies', async () => {
    const client = createApiClient({ baseUrl: double.origin });
    expect(await client.verification.requestVerification(7)).toEqual({ id: 1, state: 'queued' });
    await client.verification.markFalsePositive({ problemId: 9, reason: 'fine' });
    await client.verification.markFalsePositive({ problemId: 9 }, 'global');
    await client.verification.unmarkFalsePositive(3);
    await client.verification.compareWithPrevious(12);
    expect(seen).toEqual([
      'POST /api/verifications/update/7 ',
      'POST /api/verifications/false-positive {"problemId":9,"reason":"fine"}',
      'POST /api/verifications/false-positive/global {"problemId":9}',
      'DELETE /api/verifications/false-positive?id=3 ',
      'GET /api/verifications/12/previous ',
    ]);
  });
});
