import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDeferredIframeFactory } from './deferred-iframe';
import { EMBED_SANDBOX } from './iframe-widget';
import { createElementLoader, watchForElements } from './lazy-elements';

const CHUNKS = {
  'mp-lazy-card': ['chunks/shared-AAAAAAAA.js', 'chunks/mp-lazy-card-BBBBBBBB.js'],
  'mp-lazy-button': [
    'chunks/shared-AAAAAAAA.js',
    'chunks/shared-some-CCCCCCCC.js',
    'chunks/mp-lazy-button-DDDDDDDD.js',
  ],
};
const LOADER_URL = 'https://market.example/sdk/mp-loader.js';

/** An importer that "runs" an element chunk by defining its element, as the real chunks do. */
function fakeImporter(fail: (url: string) => boolean = () => false) {
  const imported: string[] = [];
  const importModule = (url: string) => {
    imported.push(url);
    if (fail(url))
      return Promise.reject(new TypeError(`Failed to fetch dynamically imported module: ${url}`));
    const element = /\/(mp-lazy-[a-z]+)-[A-Z]{8}\.js$/.exec(url)?.[1];
    if (element && !customElements.get(element)) customElements.define(element, class extends HTMLElement {});
    return Promise.resolve({});
  };
  return { imported, importModule };
}

/** Lets the observer's records and the loads' promises settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createElementLoader', () => {
  afterEach(() => vi.restoreAllMocks());

  it("imports all of an element's chunks at once, from the loader's folder, and only once", async () => {
    const { imported, importModule } = fakeImporter();
    const load = createElementLoader(CHUNKS, LOADER_URL, importModule);
    const [first, second] = await Promise.all([load('mp-lazy-button'), load('mp-lazy-button')]);
    expect([first, second]).toEqual([true, true]);
    expect(imported).toEqual([
      'https://market.example/sdk/chunks/shared-AAAAAAAA.js',
      'https://market.example/sdk/chunks/shared-some-CCCCCCCC.js',
      'https://market.example/sdk/chunks/mp-lazy-button-DDDDDDDD.js',
    ]);
    await expect(load('mp-lazy-button')).resolves.toBe(true);
    expect(imported).toHaveLength(3);
  });

  it('knows only the elements of its chunk list', async () => {
    const { imported, importModule } = fakeImporter();
    const load = createElementLoader(CHUNKS, LOADER_URL, importModule);
    await expect(load('constructor')).resolves.toBe(false);
    await expect(load('mp-unknown')).resolves.toBe(false);
    expect(imported).toEqual([]);
  });

  it('explains a failed download in the console and tries again at the next request', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let offline = true;
    const { imported, importModule } = fakeImporter(() => offline);
    const load = createElementLoader(
      { 'mp-lazy-retry': ['chunks/mp-lazy-retry-EEEEEEEE.js'] },
      LOADER_URL,
      importModule,
    );
    await expect(load('mp-lazy-retry')).resolves.toBe(false);
    expect(error).toHaveBeenCalledWith(
      expect.objectContaining({
        message: expect.stringContaining(
          'could not load <mp-lazy-retry> from https://market.example/sdk/chunks/mp-lazy-retry-EEEEEEEE.js',
        ),
      }),
    );
    offline = false;
    await expect(load('mp-lazy-retry')).resolves.toBe(true);
    expect(imported).toHaveLength(2);
  });
});

describe('watchForElements', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('loads the elements already in the page and those added later, each name once', async () => {
    document.body.innerHTML =
      '<mp-watch-a plugin-id="1"></mp-watch-a><mp-watch-a plugin-id="2"></mp-watch-a>';
    const requested: string[] = [];
    const stop = watchForElements(['mp-watch-a', 'mp-watch-b', 'mp-watch-c'], (name) => {
      requested.push(name);
      return Promise.resolve(true);
    });
    expect(requested).toEqual(['mp-watch-a']);
    // Added by a script, inside other markup.
    const section = document.createElement('section');
    section.innerHTML = '<div><mp-watch-b plugin-id="3"></mp-watch-b></div><mp-watch-a></mp-watch-a>';
    document.body.append(section);
    await settle();
    expect(requested).toEqual(['mp-watch-a', 'mp-watch-b']);
    document.body.append(document.createElement('mp-watch-c'), document.createElement('mp-watch-c'));
    await settle();
    expect(requested).toEqual(['mp-watch-a', 'mp-watch-b', 'mp-watch-c']);
    stop();
  });

  it('asks again for an element whose code could not be loaded when the next one appears', async () => {
    const requested: string[] = [];
    const stop = watchForElements(['mp-watch-retry'], (name) => {
      requested.push(name);
      return Promise.resolve(false);
    });
    document.body.append(document.createElement('mp-watch-retry'));
    await settle();
    expect(requested).toEqual(['mp-watch-retry']);
    document.body.append(document.createElement('mp-watch-retry'));
    await settle();
    expect(requested).toEqual(['mp-watch-retry', 'mp-watch-retry']);
    stop();
    document.body.append(document.createElement('mp-watch-retry'));
    await settle();
    expect(requested).toHaveLength(2);
  });
});

describe("mp-loader.js's iframe mode", () => {
  afterEach(() => vi.restoreAllMocks());

  it('starts the embed page only once its messages have a listener', async () => {
    const order: string[] = [];
    let arrive: (module: unknown) => void = () => undefined;
    const importModule = vi.fn(
      (url: string) =>
        new Promise((resolve) => {
          order.push(`import ${url}`);
          arrive = resolve;
        }),
    );
    const create = createDeferredIframeFactory(
      'https://market.example/sdk/chunks/embed-messages-FFFFFFFF.js',
      importModule,
    );
    const iframe = create({ type: 'card', pluginId: '7', apiBase: 'https://market.example' });
    expect(iframe.getAttribute('sandbox')).toBe(EMBED_SANDBOX);
    expect(iframe.getAttribute('src')).toBeNull();
    arrive({
      followEmbedPage: (frame: HTMLIFrameElement, type: string, src: string) =>
        order.push(`follow ${type} ${src} (src set: ${frame.hasAttribute('src')})`),
    });
    await vi.waitFor(() =>
      expect(iframe.getAttribute('src')).toBe('https://market.example/embeddable/card/7'),
    );
    expect(order).toEqual([
      'import https://market.example/sdk/chunks/embed-messages-FFFFFFFF.js',
      'follow card https://market.example/embeddable/card/7 (src set: false)',
    ]);
  });

  it('still shows the embed page when the chunk cannot be loaded, and says so', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const create = createDeferredIframeFactory(
      'https://market.example/sdk/chunks/embed-messages-FFFFFFFF.js',
      () => Promise.reject(new TypeError('offline')),
    );
    const iframe = create({ type: 'install', pluginId: '7', apiBase: 'https://market.example' });
    await vi.waitFor(() =>
      expect(iframe.getAttribute('src')).toBe('https://market.example/embeddable/install/7'),
    );
    expect(error).toHaveBeenCalledWith(
      expect.objectContaining({
        message: expect.stringContaining('the install widget keeps its initial size'),
      }),
    );
  });
});
