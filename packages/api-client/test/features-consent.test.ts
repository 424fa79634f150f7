import { describe, expect, it } from 'vitest';
import { consentPaths, createApiClient, featurePaths } from '../src';

/** A fetch that answers JSON and keeps what each call asked for. */
function recordingFetch(answer: unknown) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch: typeof globalThis.fetch = async (input, init = {}) => {
    calls.push({ url: String(input), init });
    return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
  };
  return { calls, fetch };
}

describe('the feature flags and consent clients', () => {
  it('build the spec’s paths', () => {
    expect(featurePaths.list()).toBe('/api/features');
    expect(featurePaths.list('users')).toBe('/api/features?type=users');
    expect(featurePaths.search('new home', 'boolean')).toBe(
      '/api/features/search?query=new+home&type=boolean',
    );
    expect(featurePaths.groupByTypes()).toBe('/api/features/group-by-types');
    expect(featurePaths.statistic()).toBe('/api/features/statistic');
    expect(featurePaths.mine('abc12345')).toBe('/api/features/mine?browser=abc12345');
    expect(featurePaths.flag('a/b')).toBe('/api/features/a%2Fb');
    expect(consentPaths.consent()).toBe('/api/consent');
  });

  it('send the browser’s cookies for consent only, and the bodies as JSON', async () => {
    const { calls, fetch } = recordingFetch({ analytics: true });
    const client = createApiClient({
      baseUrl: 'https://plugins.example.com',
      fetch,
      getToken: () => 'token',
    });
    await client.consent.get();
    await client.consent.set(false);
    await client.features.mine('abc12345');
    await client.features.change('home-new-items', { value: true, reason: 'launch' });
    expect(calls.map((call) => [call.init.method, call.url, call.init.credentials, call.init.body])).toEqual([
      ['GET', 'https://plugins.example.com/api/consent', 'same-origin', undefined],
      ['PUT', 'https://plugins.example.com/api/consent', 'same-origin', '{"analytics":false}'],
      ['GET', 'https://plugins.example.com/api/features/mine?browser=abc12345', 'omit', undefined],
      [
        'PUT',
        'https://plugins.example.com/api/features/home-new-items',
        'omit',
        '{"value":true,"reason":"launch"}',
      ],
    ]);
    expect(new Headers(calls[0]!.init.headers).get('authorization')).toBe('Bearer token');
  });
});
