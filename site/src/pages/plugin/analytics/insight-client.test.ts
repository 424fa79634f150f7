import { createApiClient, insightPaths, isApiError, type Statistic } from '@marketplace/api-client';
import { describe, expect, it } from 'vitest';

/** The client of the insight routes, against a fetch that records what it is asked and answers as told. */
function clientAnswering(status: number, body: unknown) {
  const requests: { url: string; authorization: string | null }[] = [];
  const client = createApiClient({
    baseUrl: 'https://marketplace.example',
    getToken: () => 'token-1',
    fetch: (input, init) => {
      requests.push({
        url: String(input),
        authorization: new Headers(init?.headers).get('authorization'),
      });
      return Promise.resolve(
        new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
      );
    },
  });
  return { client, requests };
}

const answer: Statistic = {
  measure: 'installs',
  dimension: 'product',
  data: [{ name: 'IU', value: 3 }],
  updatedAt: 1_764_000_000_000,
};

describe('the insight client', () => {
  it('asks GET /statistic/{measure}/{dimension} with the query, the token going along', async () => {
    const { client, requests } = clientAnswering(200, answer);
    const result = await client.insight.statistic('installs', 'product', {
      plugin: 7,
      startDate: '2026-10-27',
      endDate: '2026-11-25',
      country: 'DE',
    });
    expect(result).toEqual(answer);
    expect(requests).toEqual([
      {
        url: 'https://marketplace.example/statistic/installs/product?plugin=7&startDate=2026-10-27&endDate=2026-11-25&country=DE',
        authorization: 'Bearer token-1',
      },
    ]);
  });

  it('sends fill=full and keeps an empty filter, which means "not told"', () => {
    expect(
      insightPaths.statistic('downloads-count', 'week', {
        plugin: 7,
        startDate: '2026-01-01',
        endDate: '2026-03-31',
        fill: 'full',
        product: '',
        channel: '',
      }),
    ).toBe(
      '/statistic/downloads-count/week?plugin=7&startDate=2026-01-01&endDate=2026-03-31&fill=full&product=&channel=',
    );
  });

  it('refuses a plugin id that is not a database id before asking', () => {
    expect(() =>
      insightPaths.statistic('sales', 'day', { plugin: 0, startDate: '2026-01-01', endDate: '2026-01-02' }),
    ).toThrow(RangeError);
  });

  it('rejects with the API error the server answered', async () => {
    const { client } = clientAnswering(403, {
      type: 'error',
      message: 'Only the item’s people may see this.',
    });
    const failure = await client.insight
      .statistic('revenue', 'month', { plugin: 7, startDate: '2026-01-01', endDate: '2026-03-31' })
      .catch((error: unknown) => error);
    expect(isApiError(failure) && failure.status).toBe(403);
    expect(isApiError(failure) && failure.message).toBe('Only the item’s people may see this.');
  });
});
