import DOMPurify, { type WindowLike } from 'dompurify';

/** The browser's DOMPurify, or on the server one over a DOM of its own (sanitizeWithWindow). */
let purifier = DOMPurify;
let hooksInstalled = false;

/**
 * Gives DOMPurify a DOM where there is none (the server renders pages with jsdom's, entry-server.tsx), so
 * server-rendered HTML is sanitised by the same rules, to the same markup, as the browser's.
 */
export function sanitizeWithWindow(window: WindowLike): void {
  purifier = DOMPurify(window);
  hooksInstalled = false;
}

function installHooks() {
  if (hooksInstalled) return;
  hooksInstalled = true;
  // Links in item descriptions lead away from the marketplace: a new window that cannot reach back to us.
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.getAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  });
}

/**
 * HTML that is safe to put in the page: the server stores sanitised HTML, and this second pass in the browser
 * keeps a stored payload that slipped through (or an older row) from ever running script.
 */
export function sanitizeHtml(html: string): string {
  // Without a DOM DOMPurify cannot work and would hand the text back unchanged: show it as text instead.
  if (!purifier.isSupported) return escapeText(html);
  installHooks();
  return purifier.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: [
      'style',
      'form',
      'input',
      'button',
      'textarea',
      'select',
      'iframe',
      'object',
      'embed',
      'svg',
      'math',
    ],
    FORBID_ATTR: ['style', 'srcset', 'formaction'],
    ALLOW_DATA_ATTR: false,
  });
}

function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
