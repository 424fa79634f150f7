// Sanitising itself is tested in Chromium (e2e/site): happy-dom's DOM is not faithful enough for DOMPurify.
import { describe, expect, it } from 'vitest';
import { internalNavigation } from './internal-links';

describe('links that stay in the app', () => {
  function click(href: string, init: MouseEventInit = {}, target?: string): MouseEvent {
    const anchor = document.createElement('a');
    anchor.href = href;
    if (target) anchor.target = target;
    document.body.append(anchor);
    const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
    Object.defineProperty(event, 'target', { value: anchor });
    return event;
  }
  const origin = location.origin;

  it('are plain clicks on the site pages of the same origin', () => {
    expect(internalNavigation(click('/plugin/1-a/reviews?x=1'), origin)).toBe('/plugin/1-a/reviews?x=1');
    expect(internalNavigation(click('/search?tags=Git'), origin)).toBe('/search?tags=Git');
  });

  it('leave the API, downloads, other sites, new windows and modified clicks to the browser', () => {
    expect(internalNavigation(click('/plugin/download?updateId=3'), origin)).toBeUndefined();
    expect(internalNavigation(click('/api/plugins/1'), origin)).toBeUndefined();
    expect(internalNavigation(click('/oidc/auth'), origin)).toBeUndefined();
    expect(internalNavigation(click('https://example.com/plugin/1'), origin)).toBeUndefined();
    expect(internalNavigation(click('/plugin/1', {}, '_blank'), origin)).toBeUndefined();
    expect(internalNavigation(click('/plugin/1', { ctrlKey: true }), origin)).toBeUndefined();
  });
});
