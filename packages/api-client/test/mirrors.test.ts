import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, mirrorPaths } from '../src';
import { recording, startHttpDouble, type Handler, type HttpDouble } from './support/http-double';

let double: HttpDouble;
const seen: string[] = [];

beforeAll(async () => {
  double = await startHttpDouble();
  const upstream = { id: 3, host: 'plugins.example.org', enabled: true };
  // The double routes by path only, so each path answers by the request's method.
  const answers: Record<string, Handler> = {
    'GET /api/admin/trust/mirrors': recording(seen, {
      upstreams: [upstream],
      defaultBuilds: ['IU-262.10315.125'],
    }),
    'POST /api/admin/trust/mirrors': recording(seen, upstream),
    'PUT /api/admin/trust/mirrors/3': recording(seen, { ...upstream, enabled: false }),
    'DELETE /api/admin/trust/mirrors/3': recording(seen, null, 204),
    'POST /api/admin/trust/mirrors/3/sync': recording(seen, upstream),
  };
  for (const path of [
    '/api/admin/trust/mirrors',
    '/api/admin/trust/mirrors/3',
    '/api/admin/trust/mirrors/3/sync',
  ]) {
    double.on(path, (request, response) => answers[`${request.method} ${path}`]!(request, response));
  }
});
afterAll(async () => double.close());

describe('the mirrors client', () => {
  it('builds the paths, refusing an id that is none', () => {
    expect(mirrorPaths.list()).toBe('/api/admin/trust/mirrors');
    expect(mirrorPaths.upstream(3)).toBe('/api/admin/trust/mirrors/3');
    expect(mirrorPaths.sync(3)).toBe('/api/admin/trust/mirrors/3/sync');
    expect(() => mirrorPaths.sync(0)).toThrow(RangeError);
  });

  it('lists, adds, pauses, syncs and removes upstreams with the bodies the server reads', async () => {
    seen.length = 0;
    const client = createApiClient({ baseUrl: double.origin });
    const list = await client.mirrors.list();
    expect(list.upstreams.map((upstream) => upstream.host)).toEqual(['plugins.example.org']);
    expect(list.defaultBuilds).toEqual(['IU-262.10315.125']);
    const added = await client.mirrors.add({ baseUrl: 'https://plugins.example.org', builds: ['IU-243.1'] });
    expect(added.id).toBe(3);
    expect((await client.mirrors.update(3, { enabled: false })).enabled).toBe(false);
    await client.mirrors.sync(3);
    await client.mirrors.sync(3, 'Upstream fixed its feed');
    await expect(client.mirrors.remove(3)).resolves.toBeUndefined();
    await client.mirrors.remove(3, 'Not needed');
    expect(seen).toEqual([
      'GET /api/admin/trust/mirrors ',
      'POST /api/admin/trust/mirrors {"baseUrl":"https://plugins.example.org","builds":["IU-243.1"]}',
      'PUT /api/admin/trust/mirrors/3 {"enabled":false}',
      'POST /api/admin/trust/mirrors/3/sync {}',
      'POST /api/admin/trust/mirrors/3/sync {"reason":"Upstream fixed its feed"}',
      'DELETE /api/admin/trust/mirrors/3 ',
      'DELETE /api/admin/trust/mirrors/3?reason=Not+needed ',
    ]);
  });
});
