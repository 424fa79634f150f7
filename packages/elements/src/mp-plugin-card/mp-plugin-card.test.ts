import type { EmbedErrorMessage, EmbedItemDataMessage } from '@marketplace/protocol';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { marketplaceFetch, pluginFixture } from '../test-support/plugin-fixture';
import { definePluginCard } from './define';

const API = 'https://market.example';

function renderCard(attributes: Record<string, string>): HTMLElement {
  const card = document.createElement('mp-plugin-card');
  for (const [name, value] of Object.entries(attributes)) card.setAttribute(name, value);
  document.body.append(card);
  return card;
}

describe('<mp-plugin-card>', () => {
  beforeAll(() => definePluginCard());
  afterEach(() => {
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('renders the item from the marketplace inside its shadow root and announces the item data', async () => {
    const plugin = pluginFixture({ id: 7, name: 'Rainbow Brackets' });
    plugin.info.icon = '/api/plugins/7/icon?v=1';
    vi.stubGlobal('fetch', marketplaceFetch(API, [plugin]));
    const announced: EmbedItemDataMessage[] = [];
    document.body.addEventListener('embed:item-data', (event) => announced.push(event.detail));
    const card = renderCard({ 'plugin-id': '7', 'api-base': API });

    await vi.waitFor(() =>
      expect(card.shadowRoot?.querySelector('.mp-card__name')?.textContent).toBe('Rainbow Brackets'),
    );
    const link = card.shadowRoot?.querySelector<HTMLAnchorElement>('.mp-card__name a');
    expect(link?.href).toBe(`${API}/plugin/7-rainbow-brackets`);
    expect(link?.target).toBe('_blank');
    // The icon comes from the marketplace, not from the page the card is on.
    expect(card.shadowRoot?.querySelector('img')?.getAttribute('src')).toBe(`${API}/api/plugins/7/icon?v=1`);
    // The host page's styles cannot reach the card, and the card's styles stay inside.
    expect(document.querySelector('.mp-card')).toBeNull();
    await vi.waitFor(() => expect(announced).toHaveLength(1));
    expect(announced[0]?.item.rating).toBe(4.5);
    expect(announced[0]?.item.info).not.toHaveProperty('pricingModel');
  });

  it('draws the 30-day chart and the update date from the item record, with no other request', async () => {
    const fetchSpy = vi.fn(marketplaceFetch(API, [pluginFixture({ id: 7 })]));
    vi.stubGlobal('fetch', fetchSpy);
    const card = renderCard({ 'plugin-id': '7', 'api-base': API });
    await vi.waitFor(() =>
      expect(card.shadowRoot?.querySelector('.mp-chart__caption')?.textContent).toBe(
        '3 downloads in the last 30 days',
      ),
    );
    expect(card.shadowRoot?.querySelectorAll('.mp-chart__bar')).toHaveLength(30);
    expect(card.shadowRoot?.querySelector('.mp-card__meta')?.textContent).toContain('Updated 01.06.2025');
    expect(fetchSpy.mock.calls.map(([url]) => String(url))).toEqual([`${API}/api/plugins/7`]);
  });

  it('draws a theme as a theme card with its chart', async () => {
    const theme = pluginFixture({ id: 9, name: 'Dracula' });
    theme.tags = [
      {
        id: 164,
        name: 'Theme',
        link: '/search?tags=Theme',
        privileged: false,
        searchable: true,
        families: [],
      },
    ];
    theme.screenshots = [{ url: '/api/plugins/9/screenshots/1' }];
    vi.stubGlobal('fetch', marketplaceFetch(API, [theme]));
    const card = renderCard({ 'plugin-id': '9', 'api-base': API });
    await vi.waitFor(() => expect(card.shadowRoot?.querySelector('.mp-card--theme')).not.toBeNull());
    expect(card.shadowRoot?.querySelector('.mp-card__image')?.getAttribute('src')).toBe(
      `${API}/api/plugins/9/screenshots/1`,
    );
    expect(card.shadowRoot?.querySelector('.mp-chart__caption')?.textContent).toBe(
      '3 downloads in the last 30 days',
    );
  });

  it('renders nothing and says why in the console when the item does not exist', async () => {
    vi.stubGlobal('fetch', marketplaceFetch(API, []));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const card = renderCard({ 'plugin-id': '404', 'api-base': API });
    await vi.waitFor(() =>
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('could not load plugin 404')),
    );
    expect(card.shadowRoot?.querySelector('.mp-card')).toBeNull();
  });

  it('tells the host page with embed:error when the item does not exist, and the framing page too', async () => {
    vi.stubGlobal('fetch', marketplaceFetch(API, []));
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    // Framed by https://host.example (no post-to-parent: the error is posted anyway, the item data is not).
    const postMessage = vi.fn();
    vi.stubGlobal('parent', { postMessage });
    vi.spyOn(document, 'referrer', 'get').mockReturnValue('https://host.example/page?x=1');
    const errors: EmbedErrorMessage[] = [];
    document.body.addEventListener('embed:error', (event) => errors.push(event.detail));
    const card = renderCard({ 'plugin-id': '404', 'api-base': API });

    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(errors[0]).toEqual({
      namespace: 'plugin-marketplace',
      type: 'embed:error',
      pluginId: '404',
      status: 404,
      message: 'There is no item 404.',
    });
    expect(postMessage).toHaveBeenCalledWith(errors[0], 'https://host.example');
    expect(card.shadowRoot?.querySelector('.mp-card')).toBeNull();
  });

  it('says only Internal Error when the marketplace fails, and status 0 when it cannot be reached', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const errors: EmbedErrorMessage[] = [];
    document.body.addEventListener('embed:error', (event) => errors.push(event.detail));
    vi.stubGlobal('fetch', async () => new Response('{"message":"stack trace"}', { status: 503 }));
    renderCard({ 'plugin-id': '7', 'api-base': API });
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(errors[0]).toMatchObject({ pluginId: '7', status: 503, message: 'Internal Error' });

    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    renderCard({ 'plugin-id': '8', 'api-base': API });
    await vi.waitFor(() => expect(errors).toHaveLength(2));
    expect(errors[1]).toMatchObject({
      pluginId: '8',
      status: 0,
      message: 'The marketplace could not be reached.',
    });
  });

  it('asks for a numeric plugin-id instead of calling the API with anything else', async () => {
    const fetchSpy = vi.fn(marketplaceFetch(API, []));
    vi.stubGlobal('fetch', fetchSpy);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const errors: EmbedErrorMessage[] = [];
    document.body.addEventListener('embed:error', (event) => errors.push(event.detail));
    renderCard({ 'plugin-id': '../admin', 'api-base': API });
    await vi.waitFor(() =>
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('"../admin" is not a plugin id')),
    );
    expect(fetchSpy).not.toHaveBeenCalled();
    await vi.waitFor(() =>
      expect(errors).toEqual([
        expect.objectContaining({ pluginId: '../admin', status: 404, message: 'There is no item ../admin.' }),
      ]),
    );
  });

  it('follows a changed plugin-id attribute', async () => {
    vi.stubGlobal(
      'fetch',
      marketplaceFetch(API, [pluginFixture({ id: 7 }), pluginFixture({ id: 8, name: 'Key Promoter' })]),
    );
    const card = renderCard({ 'plugin-id': '7', 'api-base': API });
    await vi.waitFor(() =>
      expect(card.shadowRoot?.querySelector('.mp-card__name')?.textContent).toBe('Rainbow Brackets'),
    );
    card.setAttribute('plugin-id', '8');
    await vi.waitFor(() =>
      expect(card.shadowRoot?.querySelector('.mp-card__name')?.textContent).toBe('Key Promoter'),
    );
  });
});
