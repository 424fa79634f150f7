import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, type ApiClient } from '../src';
import { startMarketplace, type RunningMarketplace } from './support/marketplace';

let marketplace: RunningMarketplace;
let client: ApiClient;

beforeAll(async () => {
  marketplace = await startMarketplace();
  client = createApiClient({ baseUrl: marketplace.origin });
}, 60_000);

afterAll(async () => {
  await marketplace?.close();
});

describe('plugin reads against the real server', () => {
  it('reads an item in the default shape, with developers and bundles when fullInfo is asked', async () => {
    const { mainPluginId, mainPluginName, vendorName } = marketplace.catalogue;
    const plain = await client.getPlugin(mainPluginId);
    expect(plain.info.name).toBe(mainPluginName);
    expect(plain.vendor.name).toBe(vendorName);
    expect(plain.developers.status).toBe('idle');
    expect(plain.tags.map((tag) => tag.name)).toEqual(['Linting']);

    const full = await client.getPlugin(mainPluginId, { fullInfo: true });
    expect(full.developers.status).toBe('resolved');
    expect(full.developers.data.map((developer) => developer.login)).toContain('reviewer0');
  });

  it('reads rating, granular rating, developers, compatible products, bundles and channels', async () => {
    const { mainPluginId, bundleId, formatterIds } = marketplace.catalogue;
    const rating = await client.getRating(mainPluginId);
    expect(rating.total).toBe(5);
    expect(rating.votes['5']).toBe(3);
    expect(rating.votes['4']).toBe(2);
    expect(rating.meanRating).toBeCloseTo(4.6);
    expect(await client.getGranularRating(mainPluginId)).toEqual({ PERFORMANCE: 4 });
    const developers = await client.getDevelopers(mainPluginId);
    expect(developers.map((developer) => developer.login).sort()).toEqual(['owner', 'reviewer0']);
    expect((await client.getCompatibleProducts(mainPluginId)).sort()).toEqual(['IDEA', 'PYCHARM']);
    const members = await client.getBundles(bundleId);
    expect(members.map((member) => member.id)).toEqual([mainPluginId, formatterIds[0]]);
    expect(await client.getChannels(mainPluginId)).toEqual(['']);
  });

  it('answers a missing item with an ApiError carrying the server message and the 404 status', async () => {
    const failure = await client.getPlugin(999_999).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    const error = failure as ApiError;
    expect(error.status).toBe(404);
    expect(error.type).toBe('error');
    expect(error.reportedStatus).toBe('error');
    expect(error.message).toBe('Plugin 999999 does not exist or is not available.');
    expect(error.url).toBe(`${marketplace.origin}/api/plugins/999999`);
    expect(error.notification).toEqual({ title: 'Error', message: error.message, keepOpen: true });
  });
});
