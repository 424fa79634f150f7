// @vitest-environment node
// (The server's render runs in Node, with React DOM's Node renderer; no DOM but jsdom's for the sanitiser.)
import type { Plugin } from '@marketplace/api-client';
import { describe, expect, it, vi } from 'vitest';
import { render, type RenderRequest } from './entry-server';
import { pluginPageFixture } from './test-support/plugin-page';

/** A fetch answering the item's own address with `plugin`, and every other call with a 404, as the API would. */
function itemFetch(plugin: unknown): typeof fetch {
  return (input) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const body = url.pathname === '/api/plugins/42' ? plugin : { type: 'error', message: 'Not here' };
    return Promise.resolve(
      new Response(JSON.stringify(body), {
        status: url.pathname === '/api/plugins/42' ? 200 : 404,
        headers: { 'content-type': 'application/json' },
      }),
    );
  };
}

function request(plugin: unknown, extra: Partial<RenderRequest> = {}): RenderRequest {
  return {
    url: '/plugin/42-rainbow-kit',
    publicUrl: 'https://plugins.example.com',
    links: { social: [] },
    fetch: itemFetch(plugin),
    timeoutMs: 15_000,
    ...extra,
  };
}

/** The page's text as a reader sees it: React separates adjacent texts with empty comments. */
function readable(html: string): string {
  return html.replace(/<!-- -->/g, '');
}

describe('the server render of an item page', () => {
  it('draws the item, its overview tab in place, and writes no script the CSP would refuse', async () => {
    const onError = vi.fn();
    const page = await render(request(pluginPageFixture(), { onError }));
    expect(onError).not.toHaveBeenCalled();
    expect(page?.status).toBe(200);
    expect(page?.head?.title).toBe('Rainbow Kit');
    const html = page?.html ?? '';
    expect(html).toContain('<h1>Rainbow Kit</h1>');
    expect(readable(html)).toContain('1,200 downloads');
    // The overview tab, drawn through its lazily loaded module, is in the markup, not its loading state.
    expect(html).toContain('<p>Colours.</p>');
    expect(page?.modules).toContain('src/pages/plugin/PluginPage.tsx');
    expect(JSON.parse(page?.pageData ?? '{}')).toMatchObject({ lazyModules: page?.modules.slice(1) });
    // Nothing left for the browser to finish: no pending boundary, no inline script to move a part in.
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<!--$?-->');
    expect(html).not.toContain('<!--$!-->');
  });

  it('writes a long description in place too, where a streamed render would move it with a script', async () => {
    // Far past the size (12.8 KB by default) past which React sends a finished part apart from its place.
    const paragraph = `<p>${'Colours for every bracket and every keyword. '.repeat(20)}</p>`;
    const description = paragraph.repeat(60);
    expect(description.length).toBeGreaterThan(50_000);
    const onError = vi.fn();
    const page = await render(
      request(
        pluginPageFixture({ ...pluginPageFixture(), info: { ...pluginPageFixture().info, description } }),
        { onError },
      ),
    );
    expect(onError).not.toHaveBeenCalled();
    const html = page?.html ?? '';
    expect(html).not.toContain('<script');
    expect(html).not.toMatch(/<div hidden id="S:/);
    // The description follows the item's header in the page's own order.
    expect(html.indexOf(paragraph)).toBeGreaterThan(html.indexOf('<h1>Rainbow Kit</h1>'));
  });

  it('gives no page when a part inside a Suspense boundary fails, rather than leaving it to the browser', async () => {
    // The item's answer lacks its rating: the page's header (inside the layout's Suspense boundary) fails.
    const broken = { ...pluginPageFixture(), rating: undefined } as unknown as Plugin;
    const onError = vi.fn();
    const page = await render(request(broken, { onError }));
    expect(page).toBeUndefined();
    expect(onError).toHaveBeenCalledWith(expect.any(TypeError));
  });

  it('gives no page, and hears of the time-out once, when an API call never answers', async () => {
    // A call that heeds no signal: the render must still end by its deadline.
    const hanging: typeof fetch = () => new Promise<Response>(() => {});
    const onError = vi.fn();
    const page = await render(request(pluginPageFixture(), { fetch: hanging, onError, timeoutMs: 300 }));
    expect(page).toBeUndefined();
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('gives no page when a part outside any boundary fails', async () => {
    // The footer's links are drawn outside every Suspense boundary.
    const onError = vi.fn();
    const page = await render(
      request(pluginPageFixture(), { onError, links: undefined as unknown as RenderRequest['links'] }),
    );
    expect(page).toBeUndefined();
    expect(onError).toHaveBeenCalledWith(expect.any(Error));
  });
});
