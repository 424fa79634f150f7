import { createMessage } from '@marketplace/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MockInstance } from 'vitest';
import { EMBED_ALLOW, EMBED_SANDBOX } from './iframe-widget';
import { loadElement, setElementLoader, setupMarketplaceWidget } from './setup-widget';

function makeRoot(): HTMLElement {
  const root = document.createElement('div');
  root.id = 'widget-root';
  document.body.append(root);
  return root;
}

/** Delivers a message to the host window as if `source` had posted it from `origin`. */
function deliver(data: unknown, origin: string, source: MessageEventSource | null): void {
  window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
}

/** happy-dom does not load frames; give the iframe a window of its own so source checks have something to compare. */
function withFrameWindow(iframe: HTMLIFrameElement): MessageEventSource {
  const frameWindow = new EventTarget() as unknown as Window;
  Object.defineProperty(iframe, 'contentWindow', { value: frameWindow });
  return frameWindow;
}

describe('setupMarketplaceWidget', () => {
  let logged: MockInstance<typeof console.error>;
  beforeEach(() => {
    setElementLoader(undefined);
    logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    document.body.innerHTML = '';
    document.head.innerHTML = '';
    vi.restoreAllMocks();
  });

  it('accepts the vendor call (type, numeric id, selector) and puts the element into the root', () => {
    const root = makeRoot();
    const widget = setupMarketplaceWidget('card', 7495, '#widget-root', {
      apiBase: 'https://market.example',
    });
    expect(widget.parentElement).toBe(root);
    expect(widget.tagName.toLowerCase()).toBe('mp-plugin-card');
    expect(widget.getAttribute('plugin-id')).toBe('7495');
    expect(widget.getAttribute('api-base')).toBe('https://market.example');
  });

  it.each([
    ['install', 'mp-install-button'],
    ['ai', 'mp-ai-button'],
    ['open-course', 'mp-open-course'],
    ['course-lti', 'mp-course-lti'],
  ] as const)('renders the %s type with <%s>', (type, tag) => {
    const root = makeRoot();
    expect(setupMarketplaceWidget(type, '42', root).tagName.toLowerCase()).toBe(tag);
  });

  it('passes the ai options on as attributes', () => {
    const widget = setupMarketplaceWidget('ai', 1, makeRoot(), {
      buttonSize: 'l',
      buttonText: 'Install the assistant',
      allowMultiline: false,
    });
    expect(widget.getAttribute('button-size')).toBe('l');
    expect(widget.getAttribute('button-text')).toBe('Install the assistant');
    expect(widget.getAttribute('allow-multiline')).toBe('false');
  });

  it('explains mistakes in the call instead of failing silently', () => {
    makeRoot();
    // @ts-expect-error an unknown type from untyped host code
    expect(() => setupMarketplaceWidget('banner', 1, '#widget-root')).toThrow(/unknown widget type "banner"/);
    expect(() => setupMarketplaceWidget('card', '1"><script>', '#widget-root')).toThrow(/is not a plugin id/);
    expect(() => setupMarketplaceWidget('card', 1, '#missing')).toThrow(/no element matches "#missing"/);
    expect(() => setupMarketplaceWidget('card', 1, '##')).toThrow(/not a valid CSS selector/);
    expect(document.querySelector('mp-plugin-card')).toBeNull();
  });

  it('says which script to load when element mode has no element definitions and no loader', () => {
    setupMarketplaceWidget('card', 1, makeRoot());
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({
        message: expect.stringContaining('<mp-plugin-card> is not defined: load mp-loader.js'),
      }),
    );
  });

  it("asks the loader for the element's code when the element is not defined yet", async () => {
    const requested: string[] = [];
    setElementLoader((name) => {
      requested.push(name);
      return Promise.resolve(false);
    });
    setupMarketplaceWidget('install', 1, makeRoot());
    setupMarketplaceWidget('open-course', 2, makeRoot());
    expect(requested).toEqual(['mp-install-button', 'mp-open-course']);
    // A defined element needs no loading.
    customElements.define('mp-test-defined', class extends HTMLElement {});
    await expect(loadElement('mp-test-defined')).resolves.toBe(true);
    expect(requested).toHaveLength(2);
    expect(logged).not.toHaveBeenCalled();
  });
});

describe('iframe mode', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('frames the embed page with the local-network delegation and a sandbox', () => {
    const iframe = setupMarketplaceWidget('ai', 9, makeRoot(), {
      mode: 'iframe',
      apiBase: 'https://market.example/',
      buttonText: 'Try it',
    }) as HTMLIFrameElement;
    expect(iframe.tagName).toBe('IFRAME');
    expect(iframe.getAttribute('src')).toBe('https://market.example/embeddable/ai/9?buttonText=Try+it');
    expect(iframe.getAttribute('allow')).toBe(EMBED_ALLOW);
    expect(EMBED_ALLOW).toBe('loopback-network; local-network-access');
    expect(iframe.getAttribute('sandbox')).toBe(EMBED_SANDBOX);
    expect(EMBED_SANDBOX).not.toContain('allow-top-navigation');
  });

  it('follows the size the embed page reports and re-dispatches its messages as DOM events', () => {
    const iframe = setupMarketplaceWidget('install', 9, makeRoot(), {
      mode: 'iframe',
      apiBase: 'https://market.example',
    }) as HTMLIFrameElement;
    const frameWindow = withFrameWindow(iframe);
    const received: string[] = [];
    iframe.addEventListener('embed:size', (event) => received.push(event.type));
    deliver(
      createMessage('embed:size', { width: 151.2, height: 36.5 }),
      'https://market.example',
      frameWindow,
    );
    expect(iframe.style.height).toBe('37px');
    expect(iframe.style.width).toBe('152px');
    expect(received).toEqual(['embed:size']);
  });

  it('ignores messages from a foreign origin or from another window', () => {
    const iframe = setupMarketplaceWidget('card', 9, makeRoot(), {
      mode: 'iframe',
      apiBase: 'https://market.example',
    }) as HTMLIFrameElement;
    const frameWindow = withFrameWindow(iframe);
    const initialHeight = iframe.style.height;
    const listener = vi.fn();
    iframe.addEventListener('embed:size', listener);
    const size = createMessage('embed:size', { width: 10, height: 999 });
    deliver(size, 'https://evil.example', frameWindow);
    deliver(size, 'https://market.example', window);
    deliver({ ...size, namespace: 'someone-else' }, 'https://market.example', frameWindow);
    expect(listener).not.toHaveBeenCalled();
    expect(iframe.style.height).toBe(initialHeight);
    deliver(size, 'https://market.example', frameWindow);
    expect(listener).toHaveBeenCalledOnce();
    expect(iframe.style.height).toBe('999px');
  });
});
