import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  archiveBytes,
  createApiTestContext,
  PLUGINS,
  VERSIONS,
  type ApiTestContext,
} from './catalogue-fixture';

let context: ApiTestContext;
beforeAll(async () => {
  context = await createApiTestContext();
}, 120_000);
afterAll(async () => context?.close());

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });

interface FeedEntry {
  id: string;
  version: string;
  'download-url': string;
  'idea-version': Record<string, string>;
}

/** xmlId -> version offered by /plugins/list for the build (and channel). */
async function repositoryFeed(query: string): Promise<Record<string, string>> {
  const response = await context.app.inject(`/plugins/list?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
  const document = parser.parse(response.body);
  const categories = [document['plugin-repository']?.category ?? []].flat();
  const entries: FeedEntry[] = categories.flatMap((category: { 'idea-plugin': FeedEntry | FeedEntry[] }) =>
    [category['idea-plugin']].flat(),
  );
  return Object.fromEntries(entries.map((entry) => [entry.id, String(entry.version)]));
}

const GIT = 'com.example.gittoolbox';
const KOTLIN = 'org.kotlinfest';
const THEME = 'com.example.darcula';
const PYTHON = 'com.example.pylint';
const TEAMCITY = 'com.example.notifier';

describe('/plugins/list at every compatibility boundary', () => {
  it.each<[string, Record<string, string>, string]>([
    ['IU-233.15000', { [GIT]: '1.0', [THEME]: '1.0' }, 'inside a .* until'],
    ['IU-234.1', { [THEME]: '1.0' }, "between one version's until and the next one's since"],
    [
      'IU-241',
      { [GIT]: '2.0', [KOTLIN]: '1.0', [THEME]: '1.0' },
      'a bare branch equals an exact until "241"',
    ],
    ['IU-241.14494.240', { [GIT]: '2.0', [THEME]: '1.0' }, 'a build past an exact until "241"'],
    ['IU-242.99', { [THEME]: '1.0' }, 'just below a since of 242.100'],
    ['IU-242.100', { [GIT]: '3.0', [THEME]: '1.0' }, 'exactly on a since'],
    ['IU-251.1', { [GIT]: '3.0', [THEME]: '1.0' }, 'open until; pending and hidden versions skipped'],
    ['IU-999.10000', { [GIT]: '3.0', [THEME]: '1.0' }, 'an until of 999.9999 read as 999.*'],
    ['IU-1000.1', { [GIT]: '3.0' }, 'past the large until'],
    [
      '241.14494',
      { [GIT]: '2.0', [THEME]: '1.0', [PYTHON]: '1.0' },
      'no product code: any IntelliJ-based item',
    ],
    [
      'PC-241.1',
      { [PYTHON]: '1.0', [THEME]: '1.0' },
      'another product: only items for it or for every product',
    ],
    ['TC-241.1', { [TEAMCITY]: '1.0' }, 'a product of another family'],
  ])('build %s: %j (%s)', async (build, expected) => {
    expect(await repositoryFeed(`build=${build}`)).toEqual(expected);
  });

  it('answers the channel asked for, in both query forms', async () => {
    expect(await repositoryFeed('build=IU-243.5&channel=eap')).toEqual({ [GIT]: '3.1-eap' });
    const response = await context.app.inject('/plugins/eap/list?build=IU-243.5');
    expect(response.body).toContain('<version>3.1-eap</version>');
    expect(await repositoryFeed('build=IU-243.5&channel=nightly')).toEqual({});
  });

  it('limits the answer to the plugin ids asked for, never revealing hidden ones', async () => {
    expect(await repositoryFeed(`build=IU-251.1&pluginId=${THEME}&pluginId=com.example.secret`)).toEqual({
      [THEME]: '1.0',
    });
  });

  it('describes each plugin the way the IDE reads it', async () => {
    const response = await context.app.inject('/plugins/list?build=IU-251.1');
    const document = parser.parse(response.body);
    const categories = [document['plugin-repository'].category].flat();
    const vcs = categories.find((category: { '@name': string }) => category['@name'] === 'Code tools');
    const entry = vcs['idea-plugin'];
    expect(entry).toMatchObject({
      '@downloads': '5000',
      '@size': String(archiveBytes(VERSIONS.gitToolbox242Open).length),
      name: 'Git Toolbox',
      id: GIT,
      version: '3.0',
      vendor: {
        '#text': 'Acme Tools',
        '@email': 'plugins@acme.example.com',
        '@url': 'https://acme.example.com',
      },
      'idea-version': { '@since-build': '242.100' },
      'download-url': `https://plugins.example.com/plugin/download?updateId=${VERSIONS.gitToolbox242Open}`,
      rating: '4.5',
    });
    expect(entry['idea-version']['@until-build']).toBeUndefined();
    // HTML notes travel as CDATA; a "]]>" inside them survives intact.
    expect(entry['change-notes']).toBe('Fixed <b>blame</b> ]]> parsing');
  });

  it('refuses a build that is not a build number', async () => {
    const response = await context.app.inject('/plugins/list?build=banana-split');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      type: 'error',
      message: '"banana-split" is not an IDE build number; expected something like IU-241.14494.240.',
    });
    expect((await context.app.inject('/plugins/list')).statusCode).toBe(400);
  });
});

describe('/updatePlugins.xml', () => {
  it('lists one <plugin id url version> per plugin in the simple form', async () => {
    const response = await context.app.inject('/updatePlugins.xml?build=IU-241.14494.240');
    expect(response.statusCode).toBe(200);
    const plugins = [parser.parse(response.body).plugins.plugin].flat();
    expect(
      plugins.map((plugin: Record<string, string>) => [plugin['@id'], plugin['@version'], plugin['@url']]),
    ).toEqual([
      [GIT, '2.0', `https://plugins.example.com/plugin/download?updateId=${VERSIONS.gitToolbox241}`],
      [THEME, '1.0', `https://plugins.example.com/plugin/download?updateId=${VERSIONS.darculaLargeUntil}`],
    ]);
    expect(plugins[0]['idea-version']).toEqual({ '@since-build': '241', '@until-build': '241.*' });
    expect(plugins[0].description).toBe(
      '<p>Extends the <b>Git</b> integration with status, blame and fetch.</p>',
    );
  });
});

describe('compatible updates', () => {
  const body = {
    build: 'IU-251.1',
    pluginXMLIds: [GIT, 'com.example.secret', THEME, KOTLIN, 'not.a.plugin'],
  };

  it.each(['/api/search/updates/compatible', '/api/search/compatibleUpdates'])(
    'POST %s answers the newest compatible version of each known, visible plugin',
    async (url) => {
      const response = await context.app.inject({ method: 'POST', url, payload: body });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([
        { id: VERSIONS.gitToolbox242Open, pluginId: PLUGINS.gitToolbox, pluginXmlId: GIT, version: '3.0' },
        {
          id: VERSIONS.darculaLargeUntil,
          pluginId: PLUGINS.darculaTheme,
          pluginXmlId: THEME,
          version: '1.0',
        },
      ]);
    },
  );

  it('answers another channel when asked', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/search/updates/compatible',
      payload: { ...body, channel: 'eap' },
    });
    expect(response.json()).toEqual([
      { id: VERSIONS.gitToolboxEap, pluginId: PLUGINS.gitToolbox, pluginXmlId: GIT, version: '3.1-eap' },
    ]);
  });

  it('refuses a body without a build', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/search/updates/compatible',
      payload: { pluginXMLIds: [GIT] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ type: 'error', message: 'The body field "build" is required.' });
  });

  it('GET /api/search/updates/nearest keys the answers by xmlId', async () => {
    const response = await context.app.inject(
      `/api/search/updates/nearest?build=IU-241.2&pluginXMLIds=${GIT}&pluginXMLIds=${KOTLIN}&pluginXMLIds=${PYTHON}`,
    );
    expect(response.json()).toEqual({
      [GIT]: { xmlId: GIT, id: VERSIONS.gitToolbox241, pluginId: PLUGINS.gitToolbox, version: '2.0' },
    });
  });
});

describe('downloads', () => {
  async function statisticsToday(): Promise<number> {
    const today = new Date().toISOString().slice(0, 10);
    const response = await context.app.inject(
      `/statistic/downloads-count/day?plugin=${PLUGINS.gitToolbox}&startDate=${today}&endDate=${today}&fill=full`,
    );
    return response.json().data[0].value;
  }

  it('sends the archive with Content-Disposition and counts it once, in the statistics too', async () => {
    const before = await statisticsToday();
    const response = await context.app.inject(`/plugin/download?updateId=${VERSIONS.gitToolbox242Open}`);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload).toEqual(archiveBytes(VERSIONS.gitToolbox242Open));
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="${GIT}-3.0.jar"; filename*=UTF-8''${GIT}-3.0.jar`,
    );
    expect(response.headers['content-type']).toBe('application/java-archive');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(await statisticsToday()).toBe(before + 1);
    const plugin = (await context.app.inject(`/api/plugins/${PLUGINS.gitToolbox}`)).json();
    expect(plugin.info.downloads).toBe(5001);
    const version = (await context.app.inject(`/api/updates/${VERSIONS.gitToolbox242Open}`)).json();
    expect(version.downloads).toBe(1);
  });

  it('does not count a HEAD request', async () => {
    const before = await statisticsToday();
    const response = await context.app.inject({
      method: 'HEAD',
      url: `/plugin/download?updateId=${VERSIONS.gitToolbox241}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="${GIT}-2.0.zip"; filename*=UTF-8''${GIT}-2.0.zip`,
    );
    expect(await statisticsToday()).toBe(before);
  });

  it('finds a version by xmlId, version and channel', async () => {
    const stable = await context.app.inject(`/plugin/download?pluginId=${GIT}&version=2.0`);
    expect(stable.rawPayload).toEqual(archiveBytes(VERSIONS.gitToolbox241));
    const eap = await context.app.inject(`/plugin/download?pluginId=${GIT}&version=3.1-eap&channel=eap`);
    expect(eap.rawPayload).toEqual(archiveBytes(VERSIONS.gitToolboxEap));
    expect((await context.app.inject(`/plugin/download?pluginId=${GIT}&version=3.1-eap`)).statusCode).toBe(
      404,
    );
  });

  it('answers /pluginManager?action=download with the newest compatible version', async () => {
    const response = await context.app.inject(`/pluginManager?action=download&id=${GIT}&build=IU-241.1`);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload).toEqual(archiveBytes(VERSIONS.gitToolbox241));
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="${GIT}-2.0.zip"; filename*=UTF-8''${GIT}-2.0.zip`,
    );
    const none = await context.app.inject(`/pluginManager?action=download&id=${GIT}&build=IU-234.1`);
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe(
      `A version of ${GIT} compatible with IU-234.1 does not exist or is not available.`,
    );
  });

  it.each([
    ['a pending version', VERSIONS.gitToolboxPending],
    ['a hidden version', VERSIONS.gitToolboxHidden],
    ['a version of a hidden plugin', VERSIONS.hiddenPlugin],
    ['a version of a blocked plugin', VERSIONS.blockedPlugin],
    ['a version of an unapproved plugin', VERSIONS.unapprovedPlugin],
    ['a version of a deleted plugin', VERSIONS.deletedPlugin],
  ])('refuses %s and counts nothing', async (_what, updateId) => {
    const response = await context.app.inject(`/plugin/download?updateId=${updateId}`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      type: 'error',
      message: `Version ${updateId} does not exist or is not available.`,
    });
  });

  it('asks for an update id or an xmlId with a version', async () => {
    const response = await context.app.inject(`/plugin/download?pluginId=${GIT}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Give updateId, or pluginId (the plugin.xml id) and version.');
  });
});
