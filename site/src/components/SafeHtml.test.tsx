// @vitest-environment jsdom
// (happy-dom, the other tests' DOM, parses HTML in ways DOMPurify does not sanitise: it keeps scripts there.)
import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { endHydration, startHydration } from '../lib/page-data';
import { ServerRenderContext, type ServerRender } from '../lib/server-render';
import { loadSanitizer, SafeHtml } from './SafeHtml';

const STORED = '<p>Colours <a href="https://example.com/guide">guide</a><img src="x" onerror="alert(1)"></p>';

afterEach(() => {
  cleanup();
  endHydration();
  vi.restoreAllMocks();
});

function Description({ html }: { html: string }) {
  return (
    <Suspense fallback={<p>Loading…</p>}>
      <SafeHtml className="site-prose" html={html} />
    </Suspense>
  );
}

describe('SafeHtml in the browser', () => {
  it('shows the HTML sanitised: no script, links open apart from the marketplace', async () => {
    let container: HTMLElement | undefined;
    await act(async () => {
      container = render(<Description html={STORED} />).container;
      // DOMPurify's code loads on first use; the component waits for it.
      await loadSanitizer();
    });
    const link = screen.getByRole('link', { name: 'guide' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(container?.querySelector('img')?.hasAttribute('onerror')).toBe(false);
    expect(container?.querySelector('.site-prose')?.textContent).toBe('Colours guide');
  });
});

describe('SafeHtml on a page the server rendered', () => {
  it('hydrates the markup the server sanitised as it is, and sanitises a later HTML itself', async () => {
    // The server's sanitiser, told apart from the browser's by what it makes.
    const server = {
      sanitizeHtml: (html: string) => (html === STORED ? '<p>Sanitised on the server</p>' : ''),
    } as ServerRender;
    const container = document.createElement('div');
    container.innerHTML = renderToString(
      <ServerRenderContext.Provider value={server}>
        <Description html={STORED} />
      </ServerRenderContext.Provider>,
    );
    document.body.append(container);
    const errors = vi.spyOn(console, 'error');
    startHydration({ router: {}, loads: {} });
    let root: Root | undefined;
    await act(async () => {
      root = hydrateRoot(container, <Description html={STORED} />);
    });
    // No mismatch: the browser drew the server's markup, not its own sanitising of the same HTML.
    expect(errors).not.toHaveBeenCalled();
    expect(container.querySelector('.site-prose')?.innerHTML).toBe('<p>Sanitised on the server</p>');

    await act(async () => {
      root?.render(<Description html="<p>New <b>notes</b><script>alert(1)</script></p>" />);
      await loadSanitizer();
    });
    expect(container.querySelector('.site-prose')?.innerHTML).toBe('<p>New <b>notes</b></p>');
    await act(async () => root?.unmount());
    container.remove();
  });
});
