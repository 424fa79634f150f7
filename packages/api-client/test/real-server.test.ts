import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, NetworkError, apiPaths, createApiClient, type ApiClient } from '../src';
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

describe('pages against the real server', () => {
  it('reads versions page by page through the Link header and the total count', async () => {
    const { mainPluginId, versionIds } = marketplace.catalogue;
    const first = await client.getVersions(mainPluginId, { size: 2 });
    expect(first.totalCount).toBe(3);
    expect(first.data.map((version) => version.version)).toEqual(['2.0.0', '1.1.0']);
    expect(first.links.prev).toBeUndefined();
    expect(first.links.first).toBe(`${marketplace.origin}/api/plugins/${mainPluginId}/updates?size=2&page=1`);
    expect(first.links.last).toBe(`${marketplace.origin}/api/plugins/${mainPluginId}/updates?size=2&page=2`);

    const second = await client.followLink(first);
    expect(second?.data.map((version) => version.id)).toEqual([versionIds[0]]);
    expect(second?.links.next).toBeUndefined();
    expect(await client.followLink(second!, 'next')).toBeUndefined();
    const back = await client.followLink(second!, 'prev');
    expect(back?.data.map((version) => version.version)).toEqual(['2.0.0', '1.1.0']);
  });

  it('walks every page of a search with pages(), in the order asked for', async () => {
    const first = await client.searchPlugins({ tags: ['Formatting'], orderBy: 'name', max: 10 });
    expect(first.totalCount).toBe(25);
    expect(first.data.total).toBe(25);
    const names: string[] = [];
    let pageCount = 0;
    for await (const page of client.pages(first)) {
      pageCount += 1;
      names.push(...page.data.plugins.map((plugin) => plugin.name));
    }
    expect(pageCount).toBe(3);
    expect(names).toEqual(
      Array.from({ length: 25 }, (_, index) => `Formatter ${String(index + 1).padStart(2, '0')}`),
    );
  });

  it('pages the reviews of a plugin and of a user, and the items of a user', async () => {
    const { mainPluginId, reviewerIds, ownerId } = marketplace.catalogue;
    const reviews = await client.getComments({ pluginId: mainPluginId, size: 2 });
    expect(reviews.totalCount).toBe(5);
    expect(reviews.data.map((review) => review.comment)).toEqual(['Review number 5', 'Review number 4']);
    const last = await client.followLink(reviews, 'last');
    expect(last?.data.map((review) => review.comment)).toEqual(['Review number 1']);

    const written = await client.getUserComments(reviewerIds[2]!);
    expect(written.data.map((review) => review.plugin.id)).toEqual([mainPluginId]);
    expect(written.totalCount).toBe(1);

    const owned = await client.getUserPlugins(ownerId, { size: 12 });
    expect(owned.totalCount).toBe(27);
    expect(owned.data).toHaveLength(12);
    expect(owned.links.next).toContain('page=2');
    expect(new URL(owned.links.next!).searchParams.getAll('family')).toHaveLength(9);
    expect(await client.getUser(ownerId)).toMatchObject({ login: 'owner', name: 'Olga Owner' });
  });
});

describe('search against the real server', () => {
  it('applies the text, tag, product, payment filters and sort orders', async () => {
    const { mainPluginId, bundleId } = marketplace.catalogue;
    const byText = await client.searchPlugins({ search: 'bracket' });
    expect(byText.data.plugins.map((plugin) => plugin.id)).toEqual([mainPluginId]);
    const paid = await client.searchPlugins({ payment: 'paid' });
    expect(paid.data.plugins.map((plugin) => plugin.id)).toEqual([bundleId]);
    const forPyCharm = await client.searchPlugins({ products: ['PYCHARM'] });
    expect(forPyCharm.data.plugins.map((plugin) => plugin.id)).toContain(mainPluginId);
    const mostDownloaded = await client.searchPlugins({ orderBy: 'downloads', max: 2 });
    expect(mostDownloaded.data.plugins[0]?.id).toBe(mainPluginId);
    const leastDownloaded = await client.searchPlugins({
      orderBy: 'downloads_asc',
      tags: ['Formatting'],
      max: 1,
    });
    expect(leastDownloaded.data.plugins.map((plugin) => plugin.name)).toEqual(['Formatter 01']);
    const tagged = await client.searchPlugins({ tags: ['Formatting', 'Linting'] });
    expect(tagged.data.total).toBe(0);
  });

  it('suggests names and tags, and counts items per product', async () => {
    const suggestions = await client.searchSuggest({ term: 'brack' });
    expect(suggestions.plugins.map((plugin) => plugin.name)).toContain('Bracket Colorizer');
    const tagSuggestions = await client.searchSuggest({ term: 'Format', max: 3 });
    expect(tagSuggestions.tags.map((tag) => tag.name)).toContain('Formatting');
    expect(tagSuggestions.plugins.length).toBeLessThanOrEqual(3);

    const counts = await client.aggregateProducts({ search: 'bracket' });
    expect(counts.total).toBe(1);
    expect(counts.aggregations['PYCHARM']).toBe(1);
  });

  it('answers a bad filter with the server’s readable 400 message', async () => {
    const failure = await client
      // @ts-expect-error an order the contract does not have, as a hand-written query might send
      .searchPlugins({ orderBy: 'popularity' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(400);
    expect((failure as ApiError).message).toMatch(/orderBy/);
  });
});

describe('featured items, versions, updates and statistics against the real server', () => {
  it('lists featured items in their order, optionally of one family', async () => {
    const { mainPluginId, formatterIds } = marketplace.catalogue;
    const featured = await client.getFeatured({ product: 'IDEA' });
    expect(featured.map((plugin) => plugin.id)).toEqual([formatterIds[4], mainPluginId]);
    expect(await client.getFeatured({ product: 'IDEA', family: 'teamcity' })).toEqual([]);
  });

  it('reads one version, the compatible and the nearest updates of a build', async () => {
    const { mainPluginId, mainPluginXmlId, versionIds } = marketplace.catalogue;
    const version = await client.getVersion(versionIds[1]!);
    expect(version).toMatchObject({ pluginId: mainPluginId, version: '1.1.0', since: '241', until: '243.*' });

    const compatible = await client.compatibleUpdates({ build: 'IU-242.1', pluginXMLIds: [mainPluginXmlId] });
    expect(compatible).toEqual([
      { id: versionIds[1], pluginId: mainPluginId, pluginXmlId: mainPluginXmlId, version: '1.1.0' },
    ]);
    const nearest = await client.nearestUpdates({ build: 'IU-243.5', pluginXMLIds: [mainPluginXmlId] });
    expect(nearest[mainPluginXmlId]?.version).toBe('2.0.0');
  });

  it('reads downloads per day, with every day listed when fill is full, from dates or day texts', async () => {
    const { mainPluginId } = marketplace.catalogue;
    const sparse = await client.getDownloadsPerDay({
      plugin: mainPluginId,
      startDate: '2026-11-01',
      endDate: '2026-11-05',
    });
    expect(sparse.data).toEqual([
      { name: '2026-11-02', value: 7 },
      { name: '2026-11-04', value: 3 },
    ]);
    const full = await client.getDownloadsPerDay({
      plugin: mainPluginId,
      startDate: new Date(Date.UTC(2026, 10, 1)),
      endDate: Date.UTC(2026, 10, 4),
      fill: 'full',
    });
    expect(full.data.map((point) => point.value)).toEqual([0, 7, 0, 3]);
  });

  it('builds download links that give the archive itself', async () => {
    const { versionIds, archiveBytes, mainPluginXmlId } = marketplace.catalogue;
    const byId = await fetch(client.url(apiPaths.download(versionIds[0]!)));
    expect(byId.status).toBe(200);
    expect(new Uint8Array(await byId.arrayBuffer())).toEqual(archiveBytes);
    expect(byId.headers.get('content-disposition')).toContain('attachment');

    const byVersion = await fetch(client.url(apiPaths.downloadVersion(mainPluginXmlId, '1.1.0')));
    expect(byVersion.status).toBe(200);
    await byVersion.arrayBuffer();
    const compatible = await fetch(client.url(apiPaths.downloadCompatible(mainPluginXmlId, 'IU-243.1')));
    expect(compatible.headers.get('content-disposition')).toContain('2.0.0');
    await compatible.arrayBuffer();
  });
});

describe('cancelling against the real server', () => {
  it('rejects with the abort reason, not as an ApiError or NetworkError', async () => {
    const controller = new AbortController();
    const pending = client.searchPlugins({ search: 'formatter' }, { signal: controller.signal });
    controller.abort();
    const failure = await pending.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DOMException);
    expect((failure as DOMException).name).toBe('AbortError');

    const reason = new Error('the visitor left the page');
    const failed = await client
      .getPlugin(marketplace.catalogue.mainPluginId, {}, { signal: AbortSignal.abort(reason) })
      .catch((error: unknown) => error);
    expect(failed).toBe(reason);
  });
});

describe('signing in against the real server', () => {
  const signedIn = () =>
    createApiClient({ baseUrl: marketplace.origin, getToken: () => marketplace.catalogue.ownerToken });

  it('sends the token as a bearer header unless credentials are omitted', async () => {
    const me = await signedIn().request<{ guest: boolean; login: string | null }>({
      method: 'GET',
      path: '/api/users/me',
    });
    expect(me.kind === 'json' && me.data).toMatchObject({ guest: false, login: 'owner' });
    const guest = await signedIn().request<{ guest: boolean }>({
      method: 'GET',
      path: '/api/users/me',
      omitCredentials: true,
    });
    expect(guest.kind === 'json' && guest.data.guest).toBe(true);
  });

  it('shows a draft to its owner only', async () => {
    const { draftPluginId } = marketplace.catalogue;
    expect((await signedIn().getPlugin(draftPluginId)).info.name).toBe('Unreleased Tool');
    const hidden = await client.getPlugin(draftPluginId).catch((error: unknown) => error);
    expect((hidden as ApiError).status).toBe(404);
  });

  it('answers a token the server does not know with its 401 message', async () => {
    const stranger = createApiClient({
      baseUrl: marketplace.origin,
      getToken: () => 'perm:not-a-real-token',
    });
    const failure = (await stranger
      .request({ method: 'GET', path: '/api/users/me/tokens' })
      .catch((error: unknown) => error)) as ApiError;
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).not.toBeInstanceOf(NetworkError);
    expect(failure.status).toBe(401);
    expect(failure.message).toMatch(/sign in/i);
    expect(failure.notification.title).toBe('Error');
  });

  it('creates a token with a JSON body and revokes it with an empty 204 answer', async () => {
    const created = await signedIn().request<{ id: number; token: string; name: string }>({
      method: 'POST',
      path: '/api/users/me/tokens',
      json: { name: 'CI uploads', scopes: ['upload'] },
    });
    expect(created.status).toBe(201);
    if (created.kind !== 'json') throw new Error(`expected JSON, got ${created.kind}`);
    expect(created.data.name).toBe('CI uploads');
    expect(created.data.token.startsWith('perm:')).toBe(true);

    const revoked = await signedIn().request({
      method: 'DELETE',
      path: `/api/users/me/tokens/${created.data.id}`,
    });
    expect(revoked.kind).toBe('empty');
    expect(revoked.status).toBe(204);
  });
});

describe('reviews against the real server', () => {
  const as = (token: string) => createApiClient({ baseUrl: marketplace.origin, getToken: () => token });

  it('writes, changes and deletes a review, and refuses a second one with the server’s 409 message', async () => {
    const { formatterIds, reviewerToken } = marketplace.catalogue;
    const reviewer = as(reviewerToken);
    const pluginId = formatterIds[2]!;
    const review = await reviewer.createReview({
      pluginId,
      rating: 4,
      comment: '<b>Formats</b> quickly',
      categories: { PERFORMANCE: 5 },
    });
    expect(review).toMatchObject({ rating: 4, comment: 'Formats quickly', categories: { PERFORMANCE: 5 } });
    expect(review.plugin.id).toBe(pluginId);

    const second = (await reviewer
      .createReview({ pluginId, rating: 1 })
      .catch((error: unknown) => error)) as ApiError;
    expect(second).toBeInstanceOf(ApiError);
    expect(second.status).toBe(409);
    expect(second.message).toContain(String(review.id));

    const changed = await reviewer.updateReview(review.id, { rating: 2 });
    expect(changed.rating).toBe(2);
    expect((await reviewer.setRating(pluginId, { rating: 5 })).meanRating).toBe(5);

    await reviewer.deleteReview(review.id);
    const left = await client.getComments({ pluginId });
    expect(left.data).toEqual([]);
  });

  it('lets the plugin’s developer reply, change and remove the reply', async () => {
    const { mainPluginId, ownerToken } = marketplace.catalogue;
    const owner = as(ownerToken);
    const [latest] = (await client.getComments({ pluginId: mainPluginId, size: 1 })).data;
    const reply = await owner.addReply(latest!.id, 'Thank you!');
    expect(reply.comment).toBe('Thank you!');
    expect((await owner.updateReply(latest!.id, reply.id, 'Thanks a lot!')).comment).toBe('Thanks a lot!');
    const shown = (await client.getComments({ pluginId: mainPluginId, size: 1 })).data[0];
    expect(shown?.replies.map((item) => item.comment)).toEqual(['Thanks a lot!']);
    await owner.deleteReply(latest!.id, reply.id);
    expect((await client.getComments({ pluginId: mainPluginId, size: 1 })).data[0]?.replies).toEqual([]);
  });

  it('turns a guest’s review away with 401', async () => {
    const failure = (await client
      .createReview({ pluginId: marketplace.catalogue.mainPluginId, rating: 5 })
      .catch((error: unknown) => error)) as ApiError;
    expect(failure.status).toBe(401);
    expect(failure.message).toMatch(/sign in/i);
  });
});

describe('managing a plugin against the real server', () => {
  const owner = () =>
    createApiClient({ baseUrl: marketplace.origin, getToken: () => marketplace.catalogue.ownerToken });
  // A 1x1 PNG.
  const png = () =>
    new File(
      [
        Buffer.from(
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
          'base64',
        ),
      ],
      'screen.png',
      { type: 'image/png' },
    );

  it('sets tags given as names, ids or tags, all sent as strings', async () => {
    const { formatterIds } = marketplace.catalogue;
    const pluginId = formatterIds[9]!;
    const plugin = await client.getPlugin(pluginId);
    const formatting = plugin.tags.find((tag) => tag.name === 'Formatting')!;
    const answer = await owner().updateTags(pluginId, [formatting, 'Linting']);
    expect(answer.kind).toBe('json');
    expect((await owner().getPlugin(pluginId)).tags.map((tag) => tag.name).sort()).toEqual([
      'Formatting',
      'Linting',
    ]);

    const unknown = (await owner()
      .updateTags(pluginId, ['No Such Tag'])
      .catch((error: unknown) => error)) as ApiError;
    expect(unknown.status).toBe(400);
    expect(unknown.message).toBe('Unknown tags: No Such Tag.');
  });

  it('uploads only the screenshots that carry a new file', async () => {
    const { formatterIds } = marketplace.catalogue;
    const pluginId = formatterIds[10]!;
    const nothing = await owner().uploadScreenshots(pluginId, [{ url: '/kept.png' }]);
    expect(nothing.ok).toBe(true);
    const outcome = await owner().uploadScreenshots<{ id: number; url: string }[]>(pluginId, [
      { url: '/already-there.png' },
      { url: '', file: png() },
      { url: '', file: png(), deleted: true },
      { url: '', file: png() },
    ]);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.data).toHaveLength(2);
    const stored = await fetch(client.url(outcome.data![0]!.url));
    expect(stored.headers.get('content-type')).toBe('image/png');
    await stored.arrayBuffer();
  });
});
