import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, namespacePaths, scanningPaths } from '../src';
import { recording, startHttpDouble, type HttpDouble } from './support/http-double';

let double: HttpDouble;
const seen: string[] = [];

beforeAll(async () => {
  double = await startHttpDouble();
  const held = { versionId: 12, state: 'quarantined', scan: null, job: null };
  double.on('/api/plugins/7/scans', recording(seen, { versions: [held] }));
  double.on('/api/trust/scans/12', recording(seen, held));
  double.on('/api/admin/trust/scans', recording(seen, { total: 0, entries: [] }));
  double.on('/api/admin/trust/scans/12/reject', recording(seen, held));
  const claim = { id: 3, prefix: 'com.acme.' };
  double.on('/api/trust/namespaces/mine', recording(seen, [claim]));
  double.on('/api/trust/namespaces', recording(seen, claim));
  double.on('/api/admin/trust/namespaces', recording(seen, { reservedPrefixes: [], claims: [claim] }));
  double.on('/api/admin/trust/namespaces/3/approve', recording(seen, claim));
  double.on('/api/admin/trust/namespaces/3/dns', recording(seen, { found: true }));
});
afterAll(async () => double.close());

describe('the scanning client', () => {
  it('builds the paths, refusing an id that is none', () => {
    expect(scanningPaths.ofPlugin(7)).toBe('/api/plugins/7/scans');
    expect(scanningPaths.status(12)).toBe('/api/trust/scans/12');
    expect(scanningPaths.queue({ state: 'pending', max: 5 })).toBe(
      '/api/admin/trust/scans?state=pending&max=5',
    );
    expect(scanningPaths.act(12, 'rescan')).toBe('/api/admin/trust/scans/12/rescan');
    expect(() => scanningPaths.ofPlugin(0)).toThrow(RangeError);
  });

  it("reads an item's held versions in one call, a version's scan, and sends the decisions", async () => {
    seen.length = 0;
    const client = createApiClient({ baseUrl: double.origin });
    expect((await client.scanning.ofPlugin(7)).versions.map((scan) => scan.state)).toEqual(['quarantined']);
    expect((await client.scanning.status(12)).versionId).toBe(12);
    await client.scanning.queue({ state: 'rejected' });
    await client.scanning.act(12, 'reject', 'Ships a key');
    expect(seen).toEqual([
      'GET /api/plugins/7/scans ',
      'GET /api/trust/scans/12 ',
      'GET /api/admin/trust/scans?state=rejected ',
      'POST /api/admin/trust/scans/12/reject {"reason":"Ships a key"}',
    ]);
  });
});

describe('the namespaces client', () => {
  it('builds the paths, refusing an id that is none', () => {
    expect(namespacePaths.list('pending')).toBe('/api/admin/trust/namespaces?state=pending');
    expect(namespacePaths.list()).toBe('/api/admin/trust/namespaces');
    expect(namespacePaths.decide(3, 'revoke')).toBe('/api/admin/trust/namespaces/3/revoke');
    expect(namespacePaths.dns(3)).toBe('/api/admin/trust/namespaces/3/dns');
    expect(() => namespacePaths.dns(-1)).toThrow(RangeError);
  });

  it('claims and lists for vendors, and sends the administrators’ grants and decisions with their bodies', async () => {
    seen.length = 0;
    const client = createApiClient({ baseUrl: double.origin });
    expect((await client.namespaces.mine())[0]?.prefix).toBe('com.acme.');
    await client.namespaces.claim({ prefix: 'com.acme.', vendor: 'Acme' });
    expect((await client.namespaces.list()).claims).toHaveLength(1);
    await client.namespaces.grant({ prefix: 'com.acme.', vendor: 'Acme' });
    await client.namespaces.decide(3, 'approve');
    await client.namespaces.decide(3, 'approve', 'TXT record checked');
    expect((await client.namespaces.dns(3)).found).toBe(true);
    expect(seen).toEqual([
      'GET /api/trust/namespaces/mine ',
      'POST /api/trust/namespaces {"prefix":"com.acme.","vendor":"Acme"}',
      'GET /api/admin/trust/namespaces ',
      'POST /api/admin/trust/namespaces {"prefix":"com.acme.","vendor":"Acme"}',
      'POST /api/admin/trust/namespaces/3/approve {}',
      'POST /api/admin/trust/namespaces/3/approve {"reason":"TXT record checked"}',
      'GET /api/admin/trust/namespaces/3/dns ',
    ]);
  });
});
