import type { WidgetMessage } from '@marketplace/protocol';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { marketplaceFetch, pluginFixture } from '../test-support/plugin-fixture';
import { defineAiButton } from './define';

const API = 'https://market.example';
const AI_EVENTS = ['ai-button:mounted', 'ai-button:running-ides', 'embed:item-data'] as const;

describe('<mp-ai-button>', () => {
  beforeAll(() => defineAiButton());
  afterEach(() => {
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
  });

  it('links to the item page with tracking parameters while no IDE runs, and says so in its events', async () => {
    // The marketplace answers; no IDE answers on the visitor's ports.
    vi.stubGlobal('fetch', marketplaceFetch(API, [pluginFixture({ id: 7 })]));
    const received: WidgetMessage[] = [];
    for (const type of AI_EVENTS)
      document.body.addEventListener(type, (event) => received.push(event.detail));
    const button = document.createElement('mp-ai-button');
    button.setAttribute('plugin-id', '7');
    button.setAttribute('api-base', API);
    button.setAttribute('button-text', 'Get the assistant');
    document.body.append(button);

    await vi.waitFor(
      () => expect(received.map((message) => message.type)).toContain('ai-button:running-ides'),
      {
        timeout: 5000,
      },
    );
    const link = button.shadowRoot?.querySelector<HTMLAnchorElement>('a.mp-button');
    expect(link?.textContent).toBe('Get the assistant');
    const url = new URL(link?.href ?? '');
    expect(url.origin + url.pathname).toBe(`${API}/plugin/7-rainbow-brackets`);
    expect(url.searchParams.get('content')).toBe('Get the assistant');
    expect(received[0]?.type).toBe('ai-button:mounted');
    expect(received.find((message) => message.type === 'ai-button:running-ides')).toMatchObject({ ides: [] });
  });
});
