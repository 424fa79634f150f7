import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiTestContext, PLUGINS, USERS, VERSIONS, type ApiTestContext } from './catalogue-fixture';

let context: ApiTestContext;
beforeAll(async () => {
  context = await createApiTestContext();
}, 120_000);
afterAll(async () => context?.close());

async function get(url: string) {
  const response = await context.app.inject({ method: 'GET', url });
  return { status: response.statusCode, headers: response.headers, body: response.json() };
}

describe('GET /api/plugins/{id}', () => {
  it('answers the default shape, with developers and bundles left to load', async () => {
    const { status, body } = await get(`/api/plugins/${PLUGINS.gitToolbox}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: 1,
      removed: false,
      status: 'resolved',
      info: {
        name: 'Git Toolbox',
        xmlId: 'com.example.gittoolbox',
        family: 'intellij',
        link: '/plugin/1-git-toolbox',
        approve: true,
        isHidden: false,
        isBlocked: false,
        hasUnapprovedUpdate: true,
        preview: 'Extends the Git integration with status, blame and fetch.',
        downloads: 5000,
        pricingModel: 'FREE',
        cdate: Date.parse('2024-03-01T12:00:00Z'),
      },
      vendor: { name: 'Acme Tools', url: 'https://acme.example.com' },
      urls: {
        url: 'https://acme.example.com/git',
        sourceCodeUrl: 'https://github.com/acme/gittoolbox',
        forumUrl: '',
        donationLinks: [{ name: 'Sponsor', url: 'https://sponsor.example.com' }],
      },
      // Mallory's 1-star review is by a banned user: it counts nowhere.
      rating: { status: 'resolved', votes: { '1': 0, '2': 0, '3': 0, '4': 1, '5': 1 } },
      developers: { status: 'idle', data: [] },
      bundles: { status: 'idle', data: [] },
      compatibleProducts: ['IDEA', 'IDEA_COMMUNITY'],
    });
    expect(body.rating.meanRating).toBe(4.5);
    expect(body.tags.map((tag: { name: string }) => tag.name)).toEqual(['Code tools', 'VCS']);
    expect(body.info.email).toBe('');
  });

  it('includes developers (owner first) and visible bundle members with fullInfo=true', async () => {
    const { body } = await get(`/api/plugins/${PLUGINS.gitToolbox}?fullInfo=true`);
    expect(body.developers).toEqual({
      status: 'resolved',
      data: [
        { id: '1', login: 'alice', name: 'Alice Owner', link: '/author/1' },
        { id: '2', login: 'bob', name: 'Bob Developer', link: '/author/2' },
      ],
    });
    expect(body.bundles.status).toBe('resolved');
    expect(body.bundles.data.map((member: { id: number }) => member.id)).toEqual([PLUGINS.kotlinFest]);
  });

  it.each([
    ['hidden', PLUGINS.hidden],
    ['blocked', PLUGINS.blocked],
    ['unapproved', PLUGINS.unapproved],
    ['draft', PLUGINS.draft],
    ['deleted', PLUGINS.deleted],
  ])('answers 404 for a %s item, the same as for one that never existed', async (_kind, id) => {
    const { status, body } = await get(`/api/plugins/${id}`);
    expect(status).toBe(404);
    expect(body).toEqual({ type: 'error', message: `Plugin ${id} does not exist or is not available.` });
    expect((await get(`/api/plugins/${id}/rating`)).status).toBe(404);
  });

  it('refuses an id that is not a number with a readable 400', async () => {
    const { status, body } = await get('/api/plugins/git-toolbox');
    expect(status).toBe(400);
    expect(body.type).toBe('error');
    expect(body.message).toMatch(/path parameter "id" must be integer/);
  });
});

describe('plugin sub-resources', () => {
  it('gives the rating per star count and the mean per category', async () => {
    expect((await get('/api/plugins/1/rating')).body).toEqual({
      meanRating: 4.5,
      votes: { '1': 0, '2': 0, '3': 0, '4': 1, '5': 1 },
      total: 2,
    });
    expect((await get('/api/plugins/1/rating-granular')).body).toEqual({
      PERFORMANCE: 3.5,
      USER_INTERFACE: 4,
    });
    expect((await get('/api/plugins/3/rating')).body.meanRating).toBe(0);
  });

  it('lists developers, bundles and compatible products', async () => {
    expect(
      (await get('/api/plugins/1/developers')).body.map((user: { login: string }) => user.login),
    ).toEqual(['alice', 'bob']);
    expect((await get('/api/plugins/1/bundles')).body.map((plugin: { name: string }) => plugin.name)).toEqual(
      ['Kotlin Fest'],
    );
    expect((await get('/api/plugins/10/compatible-products')).body).toEqual([
      'PYCHARM',
      'PYCHARM_COMMUNITY',
      'PYCHARM_PRO',
    ]);
  });

  it('lists published versions newest first, by channel, with page links', async () => {
    const all = await get('/api/plugins/1/updates');
    expect(all.body.map((version: { version: string }) => version.version)).toEqual([
      '3.1-eap',
      '3.0',
      '2.0',
      '1.0',
    ]);
    const stable = await get('/api/plugins/1/updates?channel=&size=2');
    expect(stable.body.map((version: { id: number }) => version.id)).toEqual([
      VERSIONS.gitToolbox242Open,
      VERSIONS.gitToolbox241,
    ]);
    expect(stable.headers['x-total-count']).toBe('3');
    expect(stable.headers.link).toBe(
      '</api/plugins/1/updates?channel=&size=2&page=1>; rel="first", ' +
        '</api/plugins/1/updates?channel=&size=2&page=2>; rel="next", ' +
        '</api/plugins/1/updates?channel=&size=2&page=2>; rel="last"',
    );
    expect(stable.body[0]).toMatchObject({
      pluginId: 1,
      pluginXmlId: 'com.example.gittoolbox',
      since: '242.100',
      until: null,
      channel: '',
      downloadUrl: `https://plugins.example.com/plugin/download?updateId=${VERSIONS.gitToolbox242Open}`,
    });
    expect((await get('/api/plugins/1/channels')).body).toEqual(['', 'eap']);
  });

  it('answers one version by id, but not a pending or hidden one', async () => {
    expect((await get(`/api/updates/${VERSIONS.gitToolbox241}`)).body).toMatchObject({
      version: '2.0',
      since: '241',
      until: '241.*',
      dependencies: ['com.intellij.modules.platform', 'Git4Idea'],
    });
    expect((await get(`/api/updates/${VERSIONS.gitToolboxPending}`)).status).toBe(404);
    expect((await get(`/api/updates/${VERSIONS.gitToolboxHidden}`)).status).toBe(404);
    expect((await get(`/api/updates/${VERSIONS.hiddenPlugin}`)).status).toBe(404);
  });
});

describe('reviews and users', () => {
  it("lists a plugin's reviews newest first, 20 a page, without banned authors", async () => {
    const { status, body, headers } = await get('/api/comments?pluginId=1');
    expect(status).toBe(200);
    expect(body.map((comment: { id: number }) => comment.id)).toEqual([2, 1]);
    expect(body[0]).toMatchObject({
      plugin: { id: 1, name: 'Git Toolbox', link: '/plugin/1-git-toolbox' },
      author: { id: 2, login: 'bob', name: 'Bob Developer', link: '/author/2' },
      rating: 4,
      comment: 'Good, a bit slow.',
      updateDate: null,
      replies: [{ author: { login: 'alice' }, comment: 'Faster in 3.0.' }],
    });
    expect(headers['x-total-count']).toBe('2');
    expect(headers.link).toContain('size=20');
  });

  it('pages reviews with Link headers', async () => {
    const { body, headers } = await get('/api/comments?pluginId=1&size=1&page=2');
    expect(body.map((comment: { id: number }) => comment.id)).toEqual([1]);
    expect(headers.link).toBe(
      '</api/comments?pluginId=1&size=1&page=1>; rel="first", ' +
        '</api/comments?pluginId=1&size=1&page=1>; rel="prev", ' +
        '</api/comments?pluginId=1&size=1&page=2>; rel="last"',
    );
  });

  it('does not show reviews of an item visitors cannot see', async () => {
    expect((await get(`/api/comments?pluginId=${PLUGINS.hidden}`)).status).toBe(404);
    expect((await get('/api/comments')).body.message).toBe('The query parameter "pluginId" is required.');
  });

  it('shows a public profile without the e-mail address, and none for banned users', async () => {
    const { body } = await get('/api/users/1');
    expect(body).toEqual({
      id: 1,
      login: 'alice',
      name: 'Alice Owner',
      link: '/author/1',
      cdate: Date.parse('2024-01-01T12:00:00Z'),
    });
    expect((await get(`/api/users/${USERS.mallory.id}`)).status).toBe(404);
    expect((await get('/api/users/999')).body).toEqual({
      type: 'error',
      message: 'User 999 does not exist.',
    });
  });

  it('lists the visible items a user owns or develops, 12 a page, every family but edu by default', async () => {
    const owner = await get('/api/users/1/plugins');
    expect(owner.body.map((plugin: { id: number }) => plugin.id)).toEqual([1, 3, 2, 8]);
    expect(owner.headers.link).toContain('size=12');
    const teamcityOnly = await get('/api/users/1/plugins?family=teamcity');
    expect(teamcityOnly.body.map((plugin: { id: number }) => plugin.id)).toEqual([8]);
    const developer = await get('/api/users/2/plugins');
    expect(developer.body.map((plugin: { id: number }) => plugin.id)).toEqual([1, 10]);
    expect((await get('/api/users/1/plugins?family=edu')).body).toEqual([]);
    expect((await get('/api/users/1/plugins?family=eclipse')).status).toBe(400);
  });

  it('lists the reviews a user wrote on visible items', async () => {
    const { body } = await get('/api/users/3/comments');
    expect(
      body.map((comment: { id: number; plugin: { id: number } }) => [comment.id, comment.plugin.id]),
    ).toEqual([
      [5, 2],
      [1, 1],
    ]);
  });

  it('lists featured items of a product in order, skipping hidden ones', async () => {
    const idea = await get('/api/featured-plugins/product?product=IDEA');
    expect(idea.body.map((plugin: { id: number }) => plugin.id)).toEqual([3, 1]);
    expect(idea.body[0]).toMatchObject({
      name: 'Darcula Pro Theme',
      isTheme: true,
      pricingModel: 'FREEMIUM',
    });
    expect((await get('/api/featured-plugins/teamcity/product?product=TEAMCITY')).body).toHaveLength(1);
    expect((await get('/api/featured-plugins/intellij/product?product=TEAMCITY')).body).toEqual([]);
    const unknown = await get('/api/featured-plugins/product?product=ECLIPSE');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/^The query parameter "product" must be one of "IDEA", /);
  });
});

describe('GET /statistic/downloads-count/day', () => {
  const url = (query: string) => `/statistic/downloads-count/day?plugin=1&${query}`;

  it('lists every day with fill=full, days without downloads as 0', async () => {
    const { status, body } = await get(url('startDate=2026-11-17&endDate=2026-11-21&fill=full'));
    expect(status).toBe(200);
    expect(body).toEqual({
      measure: 'downloads-count',
      dimension: 'day',
      data: [
        { name: '2026-11-17', value: 0 },
        { name: '2026-11-18', value: 3 },
        { name: '2026-11-19', value: 0 },
        { name: '2026-11-20', value: 3 },
        { name: '2026-11-21', value: 0 },
      ],
    });
  });

  it('lists only days with downloads without fill', async () => {
    const { body } = await get(url('startDate=2026-11-01&endDate=2026-11-30'));
    expect(body.data).toEqual([
      { name: '2026-11-18', value: 3 },
      { name: '2026-11-20', value: 3 },
    ]);
  });

  it.each([
    ['startDate=2026-11-21&endDate=2026-11-17', 'endDate must not be before startDate.'],
    ['startDate=2026-02-30&endDate=2026-03-01', 'startDate "2026-02-30" is not a day of the calendar.'],
    ['startDate=2000-01-01&endDate=2026-01-01', 'Ask for at most 3660 days at once (asked 9498).'],
  ])('refuses %s', async (query, message) => {
    expect(await get(url(query))).toMatchObject({ status: 400, body: { type: 'error', message } });
  });

  it('refuses dates in another format and items visitors cannot see', async () => {
    const badFormat = await get(url('startDate=21.11.2026&endDate=2026-11-21'));
    expect(badFormat.status).toBe(400);
    expect(badFormat.body.message).toContain('"startDate"');
    const hidden = await get(
      `/statistic/downloads-count/day?plugin=${PLUGINS.hidden}&startDate=2026-11-01&endDate=2026-11-02`,
    );
    expect(hidden.status).toBe(404);
  });
});
