import { use, useId, useMemo, useState } from 'react';
import { isHydrating } from '../lib/page-data';
import { useServerRender } from '../lib/server-render';

type Sanitize = (html: string) => string;

let loadedSanitizer: Sanitize | undefined;
let sanitizerLoading: Promise<Sanitize> | undefined;

/**
 * DOMPurify's code (lib/sanitize.ts), loaded the first time the browser must sanitise HTML itself: a
 * server-rendered page arrives sanitised, so its first load does without it. Pages call it early where HTML
 * is about to be shown (a tab opened), so SafeHtml does not wait for it then.
 */
export function loadSanitizer(): Promise<Sanitize> {
  sanitizerLoading ??= import('../lib/sanitize').then(({ sanitizeHtml }) => (loadedSanitizer = sanitizeHtml));
  return sanitizerLoading;
}

/**
 * The markup the server drew for the SafeHtml of this id, while the browser hydrates the page it rendered:
 * DOMPurify's output on the server. Sanitised HTML carries no data attributes (ALLOW_DATA_ATTR is false), so
 * the marked elements are the server's own.
 */
function serverMarkup(id: string): string | undefined {
  if (!isHydrating()) return undefined;
  for (const element of document.querySelectorAll('[data-mp-html]'))
    if (element.getAttribute('data-mp-html') === id) return element.innerHTML;
  return undefined;
}

/**
 * HTML from the server (descriptions, change notes, documentation), sanitised again before it is shown, by
 * DOMPurify with the rules of lib/sanitize.ts: on the server for a page it renders (the browser hydrates that
 * markup as it is), otherwise in the browser, which suspends the component while DOMPurify's code loads.
 */
export function SafeHtml({ html, className }: { html: string; className?: string }) {
  const server = useServerRender();
  const id = useId();
  // What the server drew for this html, taken once: a later html is sanitised here.
  const [hydrated] = useState(() => {
    const markup = server ? undefined : serverMarkup(id);
    return markup === undefined ? undefined : { html, markup };
  });
  const sanitize = server ? server.sanitizeHtml : loadedSanitizer;
  const clean =
    useMemo(
      () => (hydrated?.html === html ? hydrated.markup : sanitize?.(html)),
      [html, hydrated, sanitize],
    ) ?? use(loadSanitizer())(html);
  // The only place the site sets HTML: always the sanitised text. data-mp-html names the element by the
  // component's id (React's, the same on both sides of a hydration) for serverMarkup.
  return <div className={className} data-mp-html={id} dangerouslySetInnerHTML={{ __html: clean }} />;
}
