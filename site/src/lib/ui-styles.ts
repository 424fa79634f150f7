import { UI_STYLES } from '@marketplace/ui';

/**
 * The id of the stylesheet link a server-rendered page carries for the components' CSS (served by
 * site-hosting from UI_STYLES), so the first paint is styled before any script runs; the page then adopts
 * nothing.
 */
export const UI_STYLES_LINK_ID = 'mp-ui-styles';

/**
 * The components' CSS, adopted as a constructed style sheet: the page's CSP allows no inline <style>, and a
 * sheet made by our own script is not inline markup.
 */
export function adoptUiStyles(doc: Document = document): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(UI_STYLES);
  doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
}
